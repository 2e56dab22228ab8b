#pragma once
// `elevbench run`'s options that need the table of suites (suites.h): the run's options with
// the suite's row, the suite's own defaults filled in where the command line was silent, the
// combinations refused, and the run's plain config (harness/run/run_config.h). Nothing here
// prints: the CLI (app/cli/cmd_run_options.cc) turns flags into these structs.

#include <functional>
#include <string>

#include "app/suites.h"
#include "harness/run/run_config.h"

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

/// `run`'s suite from its command line: `chosen`, the index in AllSuites() of the suite's
/// subcommand the command line gave (AllSuites().size() for none), and `unknown_suite`, a word
/// that fell to `run`'s positional (one that names no suite, or one after the suite's name:
/// `run tiobench extra`). Sets options->entry; options->config.suite is the caller's (it holds
/// the suite objects that parsed their options). False with the one-line usage error, which
/// lists the suites or says where the suite's options go.
[[nodiscard]] bool ChooseRunSuite(size_t chosen, const std::string& unknown_suite,
                                  RunOptions* options, std::string* err);

/// After parsing, before the run: the combinations refused (CheckRunOptionCombinations), then
/// the suite's defaults filled where `given` says the command line was silent
/// (ApplySuiteRunDefaults), said in options->defaults_note. `options->entry` must be set. False
/// with the one-line usage error.
[[nodiscard]] bool PrepareRunOptions(const FlagGiven& given, RunOptions* options, std::string* err);

/// The run's plain config: the command line's, and what the run reads of the suite's row.
RunConfig RunConfigOf(const RunOptions& options);

}  // namespace elevbench
