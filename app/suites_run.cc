#include "app/suites_run.h"

#include <cctype>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/history/history_store.h"
#include "harness/machine/machine_spec.h"

namespace elevbench {

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

bool ChooseRunSuite(size_t chosen, const std::string& unknown_suite, RunOptions* options,
                    std::string* err) {
  std::string names;
  for (size_t i = 0; i < AllSuites().size(); ++i) {
    names += (i ? ", " : "") + std::string(AllSuites()[i].name);
  }
  options->entry = chosen < AllSuites().size() ? &AllSuites()[chosen] : nullptr;
  if (options->entry == nullptr) {
    return Fail(err, (unknown_suite.empty() ? std::string("no suite given")
                                            : "unknown suite '" + unknown_suite + "'") +
                         " (available: " + names + ")");
  }
  if (!unknown_suite.empty()) {  // `run tiobench extra`: the word fell through to `suite`
    const std::string name = options->entry->name;
    return Fail(err, "unexpected word '" + unknown_suite + "' (" + name +
                         "'s options go after the suite's name as --option VALUE; see elevbench "
                         "run " +
                         name + " --help)");
  }
  return true;
}

bool PrepareRunOptions(const FlagGiven& given, RunOptions* options, std::string* err) {
  if (!CheckRunOptionCombinations(*options, given, err)) return false;
  const std::string applied =
      ApplySuiteRunDefaults(options->entry->defaults, GivenRunOptionsOf(given), options);
  if (!applied.empty()) {
    options->defaults_note = std::string(options->entry->name) + " runs by default with " + applied;
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

}  // namespace elevbench
