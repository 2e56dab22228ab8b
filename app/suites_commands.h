#pragma once
// The subcommands' work that needs the table of suites (suites.h), kept out of the command line
// (app/cli/), which only turns flags into the plain structs here and prints what these
// functions give: what `list` lists, the text `report` prints, the files `compare` judges, the
// run's options with the suite's row and its own defaults, and the help texts drawn from the
// tables. Nothing here prints.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/compare/compare.h"
#include "harness/history/history_store.h"
#include "harness/results/results_document.h"
#include "harness/run/run_config.h"
#include "harness/stats/statistics.h"
#include "reporters/render.h"

namespace elevbench {

/// Options of `elevbench run SUITE`, common to every suite: the run's plain config
/// (harness/run/run_config.h, which RunJob runs) and beside it what only the CLI reads: the
/// suite's row in the table of suites, the printing and the history. The suite's own options
/// live in the suite object (harness/run/suite.h), which parsed them.
struct RunOptions {
  /// What the flags of RunConfigFlags, the target flags and the output's set; its suite-row
  /// facts (suite_name, formats, …) are filled by RunConfigOf, not by the command line.
  RunConfig config;
  const SuiteEntry* entry = nullptr;  ///< the suite chosen on the command line (and config.suite)
  bool no_verdict = false;            ///< "--no-verdict": the tables without the verdict block
  std::string history_db;             ///< "--db": the run history; empty = results/history.db
  bool no_history = false;            ///< "--no-history": do not record the run
  /// "--check": the run's checks only (step 1, and each --kernels kernel's offers where it is
  /// cached), what the run would do said in one note; nothing is made (README's examples are
  /// held to passing them: ReadmeExamplesRootTest).
  bool check_only = false;
  /// What the suite's defaults filled in ("--emulated ide-2003 …"), said in a note once step 1
  /// accepted the run: a note before a refusal would make it two lines (#45).
  std::string defaults_note;
};

/// Which of the options a suite's defaults may fill the command line gave (CLI11's counts: an
/// option given an empty value still counts as given).
struct GivenRunOptions {
  bool target = false;  ///< --dir, --scratch or --emulated
  bool fs = false;
  bool machine = false;
  bool schedulers = false;
};

/// Whether the command line gave the option named `flag` ("--dir"), an empty value included.
using FlagGiven = std::function<bool(const std::string& flag)>;

/// The options a suite's defaults may fill that `given` says the command line gave.
GivenRunOptions GivenRunOptionsOf(const FlagGiven& given);

/// Fills what the command line left out from the suite's own setting (SuiteRunDefaults: the
/// target with its fs and machine only when no target is given; the schedulers whenever they
/// are not). Returns what it filled as command-line words ("--emulated ide-2003 --fs ext2 …"),
/// empty when nothing, so that the run can say so.
std::string ApplySuiteRunDefaults(const SuiteRunDefaults& defaults, const GivenRunOptions& given,
                                  RunOptions* options);

/// Refuses options that only mean something beside another one when it is missing (--fs with
/// --dir, --ci-width without --repetitions auto, …) instead of ignoring them silently, and the
/// values CLI11 lets through (an empty --schedulers, --timeout 0 for a suite that needs a
/// limit). `options.entry` must be set. err is the one-line usage error.
[[nodiscard]] bool CheckRunOptionCombinations(const RunOptions& options, const FlagGiven& given,
                                              std::string* err);

/// The run's plain config: the command line's, and what the run reads of the suite's row.
RunConfig RunConfigOf(const RunOptions& options);

/// "tiobench: nick, tiobench; nickbench: nick; …": every suite's text formats, from the table,
/// for the help of `run --format` and `report --format`.
std::string SuiteFormatsHelp();

/// The help of `report --format`: the suites' text formats and the generic ones.
std::string ReportFormatsHelp();

/// What `elevbench list WHAT` lists ("suites", "formats", "schedulers", anything else:
/// "profiles") as the JSON array `--json` prints, drawn from the tables themselves so that no
/// list is kept twice (scripts/killsweep reads `list suites --json`).
nlohmann::json ListJson(const std::string& what);

/// The text of `elevbench list WHAT` for people: one line an entry of `list` (ListJson's), its
/// name, then what a person wants to know of it.
std::string ListText(const std::string& what, const nlohmann::json& list);

/// What `elevbench report FILE…` prints.
struct ReportText {
  std::string text;                     ///< the report, for stdout
  std::vector<std::string> unfinished;  ///< the files from unfinished runs, in the given order
};

/// Loads every file of `paths` and renders them as `format` (RenderReport). Per-file formats
/// are loaded and rendered file by file on every CPU, holding one document per thread instead
/// of all of them (1,000 files of 69 KB: 283 MB and page faults otherwise). False with the
/// first file's one-line error (in the given order) when a file cannot be read or rendered:
/// then nothing is to be printed.
[[nodiscard]] bool ReportResultsFiles(const std::vector<std::string>& paths,
                                      const std::string& format, const ReportOptions& options,
                                      ReportText* out, std::string* err);

/// Options of `elevbench compare`.
struct CompareCommandOptions {
  std::string base_path;             ///< BASE.json
  std::string new_path;              ///< NEW.json; empty: compare inside BASE.json with --between
  std::string between;               ///< "--between A,B"
  std::string metrics = "headline";  ///< "--metrics headline|all|name,name"
  double alpha = kDefaultAlpha;
  double threshold_pct = kDefaultThresholdPct;  ///< "--threshold"
  bool no_significance = false;
  std::string format = "text";  ///< text, json, junit
  std::string allow;            ///< "--allow failed,inconclusive,missing,parameters"
};

/// The files `compare` judged and its verdict.
struct ComparedFiles {
  ResultsDocument base;
  ResultsDocument next;  ///< empty when BASE.json is compared inside itself (--between)
  Comparison comparison;
};

/// Parses the settings of `options`, loads BASE.json (and NEW.json) and compares them with the
/// measurer of the base file's suite, the files' names set. False with a one-line err for a
/// usage error: bad settings, one file without --between, an unreadable or mismatched file.
[[nodiscard]] bool CompareResultsFiles(const CompareCommandOptions& options, ComparedFiles* out,
                                       std::string* err);

/// What `compare` prints of `comparison` as `format`: "json" (its JSON, a newline after it),
/// "junit" (JUnit XML) or else the text table.
std::string CompareReportText(const Comparison& comparison, const std::string& format);

/// Records the results file at `out_path` (`doc`) in the history at `location` with the
/// measurements of its suite (RecordRunInHistory), as the end of `run` does. False with err
/// when they cannot be read or the run could not be recorded.
[[nodiscard]] bool RecordResultsInHistory(const std::string& out_path, const ResultsDocument& doc,
                                          const std::string& location, std::string* err);

/// `elevbench merge` (docs/ci.md): loads the shards' results files `paths`, joins them
/// (MergeShardDocuments: refused unless they are the shards 1..N of one plan, each once), redoes
/// the suite's summary with the suite of the table, and saves the whole plan's document at
/// `out`, which must not be one of `paths`. False with a one-line err (for exit code 2) when a
/// file cannot be read, the files are not one plan's shards, or `out` cannot be written.
[[nodiscard]] bool MergeShardFiles(const std::vector<std::string>& paths, const std::string& out,
                                   ResultsDocument* merged, std::string* err);

/// How one file of `history import` went.
struct ImportedFile {
  std::string file;
  bool readable = false;  ///< false: err says why the file could not be read
  bool recorded = false;  ///< false when readable: err says why it was not recorded
  /// The history holds this run (same identity) finished, with other cells, and --replace was
  /// not given: nothing was written; err says what differs.
  bool refused = false;
  std::string err;  ///< also, when recorded as kUpdated, what the update replaced
  int64_t id = 0;   ///< the run's id in the history, when recorded
  AppendOutcome outcome = AppendOutcome::kAdded;
};

/// `history import`: appends every readable file of `files` to the history at `db` ("" =
/// DefaultHistoryLocation) with the measurements of its suite, and gives `report` each file as
/// it went, in order. The history is opened (made) at the first readable file, so that a
/// refused import makes no file. A file whose run the history holds finished, with other
/// cells, replaces it only with `replace` (else it is refused: ImportedFile::refused); one
/// recorded unfinished is completed. False with err when the history cannot be opened: no file
/// after it is tried.
[[nodiscard]] bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db,
                                      bool replace,
                                      const std::function<void(const ImportedFile&)>& report,
                                      std::string* err);

}  // namespace elevbench
