#include "app/suites_commands.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/parallel_for.h"
#include "harness/core/strings.h"
#include "harness/device/block_device.h"
#include "harness/disk/disk_model.h"
#include "harness/history/history_store.h"
#include "harness/history/run_facts.h"
#include "harness/machine/machine_spec.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"

namespace elevbench {

using nlohmann::json;

GivenRunOptions GivenRunOptionsOf(const FlagGiven& given) {
  GivenRunOptions g;
  g.target = given("--dir") || given("--scratch") || given("--emulated");
  g.fs = given("--fs");
  g.machine = given("--machine");
  g.schedulers = given("--schedulers");
  return g;
}

std::string ApplySuiteRunDefaults(const SuiteRunDefaults& defaults, const GivenRunOptions& given,
                                  RunOptions* options) {
  std::string applied;
  auto note = [&applied](const std::string& flag, const std::string& value) {
    applied += (applied.empty() ? "" : " ") + flag + " " + value;
  };
  if (!given.target && !defaults.emulated.empty()) {
    options->config.target.emulated = defaults.emulated;
    options->config.emulated_by_default = true;
    note("--emulated", defaults.emulated);
    if (!given.fs && !defaults.fs.empty()) {
      options->config.target.fs = defaults.fs;
      note("--fs", defaults.fs);
    }
    if (!given.machine && !defaults.machine.empty()) {
      options->config.machine = defaults.machine;
      note("--machine", defaults.machine);
    }
  }
  if (!given.schedulers && !defaults.schedulers.empty()) {
    options->config.schedulers = defaults.schedulers;
    options->config.schedulers_by_default = true;
    note("--schedulers", defaults.schedulers);
  }
  return applied;
}

namespace {

// #45: an empty --identifier, --out or --db given is no default, and --db's folder must exist,
// as --out's does (run_checks.cc): refused before the run makes anything.
bool CheckOutputOptions(const RunOptions& run, const FlagGiven& given, std::string* err) {
  const std::pair<const char*, const std::string*> kNonEmpty[] = {
      {"--identifier", &run.config.identifier},
      {"--label-prefix", &run.config.label_prefix},
      {"--out", &run.config.out},
      {"--db", &run.history_db}};
  for (const auto& [flag, value] : kNonEmpty) {
    if (given(flag) && TrimWhitespace(*value).empty()) {
      return Fail(err, std::string(flag) + ": empty; give a value, or leave " + flag +
                           " out for its default (see --help)");
    }
  }
  // #45: a newline in a row label broke every table the run printed.
  for (const auto& [flag, value] : {kNonEmpty[0], kNonEmpty[1]}) {
    if (std::any_of(value->begin(), value->end(),
                    [](char ch) { return std::iscntrl(static_cast<unsigned char>(ch)); })) {
      return Fail(
          err, std::string(flag) + ": a row label takes no control characters (newline, tab, …)");
    }
  }
  if (!run.history_db.empty() && !IsPostgresLocation(run.history_db) &&
      !CheckParentFolderExists("--db", run.history_db, err, "history.db")) {
    return false;
  }
  return true;
}

}  // namespace

bool CheckRunOptionCombinations(const RunOptions& run, const FlagGiven& given, std::string* err) {
  const bool dir = given("--dir"), scratch = given("--scratch");
  for (const char* flag : {"--fs", "--fresh-fs", "--disk-set", "--keep-wbt", "--disk-trace"}) {
    if (dir && given(flag)) {
      const bool scratch_too = flag == std::string("--fs") || flag == std::string("--fresh-fs");
      *err = std::string(flag) + " applies to a device elevbench makes (--emulated" +
             (scratch_too ? ", --scratch" : "") + "), not to --dir";
      return false;
    }
  }
  for (const char* flag : {"--disk-set", "--keep-wbt", "--disk-trace"}) {
    if (scratch && given(flag)) {
      *err = std::string(flag) + " applies to an emulated disk (--emulated), not to --scratch";
      return false;
    }
  }
  // #45: without a target the run is on the suite's default emulated disk, made only as root;
  // else on no emulated disk at all (`run tiobench --keep-wbt` made a scratch device as root).
  const bool no_emulated = !dir && !scratch && !given("--emulated") &&
                           (run.entry->defaults.emulated.empty() || !RunningAsRoot());
  for (const char* flag : {"--disk-set", "--keep-wbt", "--disk-trace"}) {
    if (no_emulated && given(flag)) {
      *err = std::string(flag) + " applies to an emulated disk: give --emulated PROFILE";
      return false;
    }
  }
  for (const char* flag : {"--max-repetitions", "--ci-width"}) {
    if (given(flag) && run.config.repetitions != "auto") {
      *err = std::string(flag) + " applies only with --repetitions auto";
      return false;
    }
  }
  if (run.entry->needs_timeout && given("--timeout") && run.config.timeout_seconds <= 0) {
    *err = std::string("--timeout: run ") + run.entry->name +
           " needs a limit of more than 0 seconds (without --timeout: 20 minutes)";
    return false;
  }
  // #45: flags that cannot apply are refused, not passed over.
  if (given("--no-history") && given("--db")) {
    *err = "--db names the history to record the run in, --no-history records it nowhere: give one";
    return false;
  }
  if (given("--allow-writes") && !given("--device")) {
    *err =
        "--allow-writes lets a suite write to the --device you name (run replay, run fio); "
        "no --device was given";
    return false;
  }
  if (!CheckOutputOptions(run, given, err)) return false;
  if (given("--schedulers") && TrimWhitespace(run.config.schedulers).empty()) {
    *err = "--schedulers: empty; give 'all' or a list such as mq-deadline,bfq";
    return false;
  }
  return true;
}

RunConfig RunConfigOf(const RunOptions& o) {
  RunConfig config = o.config;
  config.suite_name = o.entry->name;
  config.formats = o.entry->formats;
  config.measure = MeasurerOf(o.entry->name);
  config.lane_cpus = o.entry->lane_cpus;
  config.lanes_refused = o.entry->lanes_refused;
  return config;
}

std::string SuiteFormatsHelp() {
  std::string text;
  for (const SuiteEntry& e : AllSuites()) {
    text += (text.empty() ? "" : "; ") + std::string(e.name) + ":";
    for (size_t i = 0; i < e.formats.size(); ++i) text += (i ? ", " : " ") + e.formats[i];
  }
  return text;
}

std::string ReportFormatsHelp() {
  std::string text =
      "Default (or text): the suite's first text format. The suite's text formats (" +
      SuiteFormatsHelp() + ") or, for every suite,";
  for (size_t i = 0; i < GenericReportFormats().size(); ++i) {
    text += (i ? ", " : " ") + std::string(GenericReportFormats()[i].name);
  }
  return text +
         ". Several files: text formats and json print each file in turn; md, csv, csv-summary "
         "and html combine them into one document";
}

namespace {

json SuitesJson() {
  json suites = json::array();
  for (const SuiteEntry& e : AllSuites()) {
    json defaults = json::object();
    if (!e.defaults.emulated.empty()) defaults["emulated"] = e.defaults.emulated;
    if (!e.defaults.fs.empty()) defaults["fs"] = e.defaults.fs;
    if (!e.defaults.machine.empty()) defaults["machine"] = e.defaults.machine;
    if (!e.defaults.schedulers.empty()) defaults["schedulers"] = e.defaults.schedulers;
    suites.push_back({{"name", e.name},
                      {"description", e.description},
                      {"formats", e.formats},
                      {"defaults", defaults},
                      {"smoke_args", e.smoke_args},
                      {"smoke_size", e.smoke_size},
                      {"lane_cpus", e.lane_cpus},
                      {"lanes_refused", e.lane_cpus > 0 ? "" : e.lanes_refused}});
  }
  return suites;
}

json FormatsJson() {
  json formats = json::array();
  for (const SuiteEntry& e : AllSuites()) {
    for (const std::string& f : e.formats) {
      formats.push_back({{"name", f}, {"suite", e.name}, {"per_file", true}});
    }
  }
  for (const ReportFormat& f : GenericReportFormats()) {
    formats.push_back({{"name", f.name}, {"suite", nullptr}, {"per_file", f.per_file}});
  }
  return formats;
}

json SchedulersJson() {
  json schedulers = json::array();
  for (const std::string& s : OfferedSchedulers()) schedulers.push_back(s);
  return schedulers;
}

// A disk profile in one line for `list profiles` (#45): "rotating, 7200 rpm, avg seek 9 ms,
// 40 GB, no command queueing"; `disk profiles` has every parameter.
std::string DiskProfileDescription(const DiskProfile& p) {
  char text[160];
  const double gb = static_cast<double>(p.capacity_bytes) / 1e9;
  if (p.rpm > 0) {
    std::snprintf(text, sizeof text, "rotating, %.0f rpm, avg seek %.3g ms, %.4g GB, %s", p.rpm,
                  p.avg_seek_ms, gb,
                  p.queue_depth > 1 ? ("queue depth " + std::to_string(p.queue_depth)).c_str()
                                    : "no command queueing");
  } else {
    std::snprintf(text, sizeof text, "solid state, %.4g GB, queue depth %d", gb, p.queue_depth);
  }
  return text;
}

json ProfilesJson() {
  json profiles = json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    profiles.push_back({{"kind", "disk"},
                        {"name", name},
                        {"description", DiskProfileDescription(p)},
                        {"profile", DiskProfileToJson(p)}});
  }
  for (const MachineProfile& m : MachineProfiles()) {
    profiles.push_back({{"kind", "machine"},
                        {"name", m.name},
                        {"memory_bytes", m.memory_bytes},
                        {"cpus", m.cpus},
                        {"description", m.description}});
  }
  return profiles;
}

// One file of a per-file report: loaded, rendered and dropped by a worker.
struct RenderedFile {
  bool ok = false;
  bool complete = true;
  std::string text;  // its framed text, or the one-line error
};

// Per-file formats: every file on its own, on every CPU (ReportResultsFiles).
bool ReportFileByFile(const std::vector<std::string>& paths, const std::string& format,
                      const ReportOptions& options, ReportText* report, std::string* err) {
  std::vector<RenderedFile> out(paths.size());
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  ParallelFor(paths.size(), cpus, [&](size_t i) {
    ResultsDocument doc;
    std::string file_err, text;
    if (!LoadResultsFile(paths[i], &doc, &file_err)) {
      out[i].text = file_err;
      return;
    }
    if (!RenderResults(doc, format, options, &text, &file_err)) {
      out[i].text = paths[i] + ": " + file_err;
      return;
    }
    out[i] = {true, doc.complete, FramePerFileText(paths[i], text, i, paths.size(), format)};
  });
  for (const RenderedFile& f : out) {
    if (!f.ok) {
      *err = f.text;
      return false;
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    report->text += out[i].text;
    if (!out[i].complete) report->unfinished.push_back(paths[i]);
  }
  return true;
}

}  // namespace

json ListJson(const std::string& what) {
  return what == "suites"       ? SuitesJson()
         : what == "formats"    ? FormatsJson()
         : what == "schedulers" ? SchedulersJson()
                                : ProfilesJson();
}

std::string ListText(const std::string& what, const json& list) {
  if (what == "schedulers") {
    std::string text;
    for (const json& item : list) text += item.get<std::string>() + "\n";
    return text;
  }
  size_t width = 0;  // the names in one column (#45)
  for (const json& item : list) width = std::max(width, item["name"].get<std::string>().size());
  std::string text;
  for (const json& item : list) {
    std::string name = item["name"].get<std::string>();
    name.resize(width + 2, ' ');
    if (what == "suites") {
      text += name + item["description"].get<std::string>() + "\n";
    } else if (what == "formats") {
      text += name +
              (item["suite"].is_null() ? std::string("every suite")
                                       : "a format of " + item["suite"].get<std::string>()) +
              "\n";
    } else {
      text += name + item["kind"].get<std::string>() +
              (item.contains("description") ? ": " + item["description"].get<std::string>()
                                            : std::string()) +
              "\n";
    }
  }
  return text;
}

bool ReportResultsFiles(const std::vector<std::string>& paths, const std::string& format,
                        const ReportOptions& options, ReportText* out, std::string* err) {
  if (IsPerFileFormat(format)) return ReportFileByFile(paths, format, options, out, err);
  std::vector<NamedResults> files(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    files[i].name = paths[i];
    if (!LoadResultsFile(paths[i], &files[i].doc, err)) return false;
  }
  if (!RenderReport(files, format, options, &out->text, err)) return false;
  for (const NamedResults& file : files) {
    if (!file.doc.complete) out->unfinished.push_back(file.name);
  }
  return true;
}

bool CompareResultsFiles(const CompareCommandOptions& options, ComparedFiles* out,
                         std::string* err) {
  CompareSettings settings;
  settings.alpha = options.alpha;
  settings.threshold_pct = options.threshold_pct;
  settings.no_significance = options.no_significance;
  if (!ParseMetricSelection(options.metrics, &settings, err) ||
      (!options.between.empty() && !ParseBetween(options.between, &settings, err)) ||
      (!options.allow.empty() && !ParseAllow(options.allow, &settings, err))) {
    return false;
  }
  const bool one_file = options.new_path.empty();
  if (one_file && options.between.empty()) {
    *err = "compare needs two results files, or one with --between A,B";
    return false;
  }
  if (!LoadResultsFile(options.base_path, &out->base, err) ||
      (!one_file && !LoadResultsFile(options.new_path, &out->next, err)) ||
      !CompareDocuments(out->base, one_file ? out->base : out->next, MeasurerOf(out->base.suite),
                        settings, &out->comparison, err)) {
    return false;
  }
  out->comparison.base_name = options.base_path;
  out->comparison.new_name = one_file ? options.base_path : options.new_path;
  return true;
}

std::string CompareReportText(const Comparison& comparison, const std::string& format) {
  if (format == "json") return CompareToJson(comparison).dump(2) + "\n";
  return format == "junit" ? RenderCompareJunit(comparison) : RenderCompareText(comparison);
}

namespace {

// MeasurementsOf, its error said as the history's.
bool HistoryMeasurementsOf(const ResultsDocument& doc, std::vector<Measurement>* measurements,
                           std::string* err) {
  if (MeasurementsOf(doc, measurements, err)) return true;
  *err = "cannot read the measurements: " + *err;
  return false;
}

}  // namespace

bool RecordResultsInHistory(const std::string& out_path, const ResultsDocument& doc,
                            const std::string& location, std::string* err) {
  std::vector<Measurement> measurements;
  return HistoryMeasurementsOf(doc, &measurements, err) &&
         RecordRunInHistory(out_path, doc, measurements, location, err);
}

namespace {

// "3 ok, 1 failed, 0 interrupted, complete": a run's cells as the history keeps them.
std::string HistoryCellsText(const HistoryRun& r) {
  return std::to_string(r.cells_ok) + " ok, " + std::to_string(r.cells_failed) + " failed, " +
         std::to_string(r.cells_interrupted) + " interrupted, " +
         (r.complete ? "complete" : "unfinished");
}

// The run of `doc` as the history holds it (same identity) when its cells differ: false when it
// holds none, or the same. *stored is that run.
bool RecordedWithOtherCells(HistoryStore* store, const ResultsDocument& doc,
                            const std::string& file, HistoryRun* stored, std::string* err) {
  const HistoryRun run = RunFactsOf(doc, file).run;
  std::vector<HistoryRun> runs;
  if (!store->ListRuns({run.suite, run.host, 0}, &runs, err)) return false;
  for (const HistoryRun& r : runs) {
    if (r.start_time != run.start_time || r.command_line != run.command_line) continue;
    *stored = r;
    return HistoryCellsText(r) != HistoryCellsText(run);
  }
  return false;
}

// One readable file into the history: refused (f->refused) when the history holds its run
// finished with other cells and `replace` is false; recorded otherwise, saying what an update
// replaced.
void ImportOneFile(HistoryStore* store, const ResultsDocument& doc, bool replace, ImportedFile* f) {
  HistoryRun stored;
  std::string ignored;
  const bool other = RecordedWithOtherCells(store, doc, f->file, &stored, &ignored);
  const std::string now = HistoryCellsText(RunFactsOf(doc, f->file).run);
  if (other && stored.complete && !replace) {
    f->refused = true;
    f->err = "run " + std::to_string(stored.id) +
             " of the history is this run (same start time, host, suite and command line) with "
             "other cells (" +
             HistoryCellsText(stored) + "; this file: " + now + "): --replace replaces it";
    return;
  }
  std::vector<Measurement> measurements;
  f->recorded = HistoryMeasurementsOf(doc, &measurements, &f->err) &&
                store->AppendRun(doc, measurements, f->file, &f->id, &f->outcome, &f->err);
  if (f->recorded && other && f->outcome == AppendOutcome::kUpdated) {
    f->err = "run " + std::to_string(f->id) + " had " + HistoryCellsText(stored) + "; now " + now;
  }
}

}  // namespace

bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db, bool replace,
                        const std::function<void(const ImportedFile&)>& report, std::string* err) {
  std::unique_ptr<HistoryStore> store;
  for (const std::string& file : files) {
    ImportedFile f;
    f.file = file;
    ResultsDocument doc;
    f.readable = LoadResultsFile(file, &doc, &f.err);
    if (f.readable) {
      const std::string location = db.empty() ? DefaultHistoryLocation(true) : db;
      if (store == nullptr && !OpenHistoryStore(location, /*create=*/true, &store, err)) {
        return false;
      }
      ImportOneFile(store.get(), doc, replace, &f);
    }
    report(f);
  }
  return true;
}

}  // namespace elevbench
