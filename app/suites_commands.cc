#include "app/suites_commands.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "harness/core/parallel_for.h"
#include "harness/core/strings.h"
#include "harness/device/block_device.h"
#include "harness/disk/disk_model.h"
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
    note("--schedulers", defaults.schedulers);
  }
  return applied;
}

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
  std::string text = "Default: the suite's first text format. The suite's text formats (" +
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

json ProfilesJson() {
  json profiles = json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    profiles.push_back({{"kind", "disk"}, {"name", name}, {"profile", DiskProfileToJson(p)}});
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
  std::string text;
  for (const json& item : list) {
    if (what == "schedulers") {
      text += item.get<std::string>() + "\n";
    } else if (what == "suites") {
      text +=
          item["name"].get<std::string>() + "  " + item["description"].get<std::string>() + "\n";
    } else if (what == "formats") {
      text += item["name"].get<std::string>() + "  " +
              (item["suite"].is_null() ? std::string("every suite")
                                       : "a format of " + item["suite"].get<std::string>()) +
              "\n";
    } else {
      text += item["name"].get<std::string>() + "  " + item["kind"].get<std::string>() +
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

bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db,
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
      std::vector<Measurement> measurements;
      f.recorded = HistoryMeasurementsOf(doc, &measurements, &f.err) &&
                   store->AppendRun(doc, measurements, file, &f.id, &f.outcome, &f.err);
    }
    report(f);
  }
  return true;
}

}  // namespace elevbench
