#include "harness/cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "harness/cli/commands.h"
#include "harness/machine/machine_spec.h"
#include "harness/run/suite.h"

namespace elevbench {

void PrintError(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

void PrintNote(const std::string& message) { PrintError("note: " + message); }

namespace {

// CLI11's messages can span lines; the contract is one line.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string JoinArgs(int argc, char** argv) {
  std::ostringstream out;
  for (int i = 0; i < argc; ++i) out << (i ? " " : "") << argv[i];
  return out.str();
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{"elevbench: which block I/O scheduler is best for this box and this workload?",
               "elevbench"};
  app.set_version_flag("--version", std::string("elevbench ") + ELEVBENCH_VERSION);
  app.require_subcommand(1);

  // run: common options on `run`, each suite a subcommand with its own options; a suite's
  // subcommand falls through to `run`, so options may come before or after the suite's name.
  RunOptions run;
  run.command_line = JoinArgs(argc, argv);
  CLI::App* run_cmd = app.add_subcommand("run", "Run a suite and print the 2003-style tables");
  std::string unknown_suite;  // a word that names no suite lands here, for a clear error
  run_cmd->add_option("suite", unknown_suite, "The suite to run (one of the subcommands below)");
  std::vector<std::unique_ptr<Suite>> suites;
  std::vector<CLI::App*> suite_cmds;
  for (const SuiteEntry& entry : AllSuites()) {
    suites.push_back(entry.make());
    CLI::App* cmd = run_cmd->add_subcommand(entry.name, entry.description);
    cmd->fallthrough();
    suites.back()->AddOptions(cmd);
    suite_cmds.push_back(cmd);
  }
  run_cmd->add_option("--dir", run.directory,
                      "Run in this existing directory (default as root: a scratch device)");
  run_cmd->add_option("--scratch", run.scratch,
                      "Create a scratch loop device of this size (e.g. 1G) and run on it");
  run_cmd->add_option("--emulated", run.emulated,
                      "Run on an emulated rotating disk: PROFILE[:SIZE], e.g. ide-2003:2G");
  run_cmd->add_option("--disk-set", run.disk_settings,
                      "Override an emulated-disk model parameter (key=value), repeatable");
  run_cmd->add_option("--disk-trace", run.disk_trace, "Write the emulated disk's request trace");
  run_cmd->add_flag(
      "--keep-wbt", run.keep_wbt,
      "Emulated disk: keep today's writeback throttling (2003 had none; default off)");
  run_cmd->add_option("--fs", run.fs, "Filesystem of a scratch/emulated device: ext2, ext4, xfs");
  run_cmd->add_option("--machine", run.machine,
                      "Run as a smaller machine, held to it by cgroups (root): a profile (" +
                          MachineProfileNames() +
                          ": 1 CPU, 256 MB, no swap) or ram=SIZE,cpus=N; the suites size "
                          "their loads by it");
  run_cmd->add_option("--device", run.device,
                      "Allow switching the scheduler of this existing device (e.g. sdb)");
  run_cmd->add_option("--schedulers", run.schedulers,
                      "'all' or a list: none,mq-deadline,kyber,bfq,bfq:low_latency=0[@code]");
  run_cmd->add_option("--queue", run.queue, "Pin queue attributes: read_ahead_kb=128,...");
  run_cmd->add_option("--repetitions", run.repetitions,
                      "Repetitions of every cell (1-1000), or 'auto': repeat until the 95 % "
                      "interval of every headline metric is within --ci-width");
  run_cmd
      ->add_option("--ci-width", run.ci_width_pct,
                   "With --repetitions auto: allowed half-width of the 95 % interval, "
                   "in % of the mean (default 5)")
      ->check(CLI::Range(0.1, 100.0));
  run_cmd
      ->add_option("--max-repetitions", run.max_repetitions,
                   "With --repetitions auto: the cap (3-1000, default 10)")
      ->check(CLI::Range(3u, 1000u));
  run_cmd->add_option("--seed", run.seed, "Seed of the interleaving order (default: random)");
  run_cmd->add_flag("--no-drop-caches", run.no_drop_caches,
                    "Do not drop all caches before each cell (a suite still evicts its own "
                    "files where it says so)");
  run_cmd
      ->add_option("--timeout", run.timeout_seconds,
                   "Seconds one fio phase or probe may take before it is stopped (DNF)")
      ->check(CLI::Range(0.0, 7.0 * 24 * 3600));
  run_cmd->add_option("--identifier", run.identifier,
                      "Row label (default: uname -r, or <kernel>-<code> per scheduler)");
  run_cmd->add_option("--format", run.format,
                      "Text format: the suite's (tiobench: nick, tiobench; morton: akpm; visave: "
                      "lkml), or json");
  run_cmd->add_option("--out", run.out,
                      "Results JSON (default results/<time>-<host>-<suite>.json)");
  run_cmd->add_option("--db", run.history_db,
                      "Record the run in this history (default results/history.db; "
                      "postgresql://… for a shared one)");
  run_cmd->add_flag("--no-history", run.no_history, "Do not record the run in the history");

  // report
  std::vector<std::string> report_paths;
  std::string report_format;
  CLI::App* report_cmd = app.add_subcommand("report", "Print the tables of saved results files");
  report_cmd->add_option("files", report_paths, "Results JSON files written by 'run'")->required();
  report_cmd->add_option(
      "--format", report_format,
      "The suite's text formats (tiobench: nick, tiobench; nickbench, probes: nick; morton: akpm; "
      "visave: lkml) or, for every suite, md, csv, csv-summary, html, json. Several files: text "
      "formats and json print each file in turn; md, csv, csv-summary and html combine them "
      "into one document");

  // devices
  bool devices_json = false;
  CLI::App* devices_cmd = app.add_subcommand("devices", "List block devices and their schedulers");
  devices_cmd->add_flag("--json", devices_json, "JSON output");

  // restore
  CLI::App* restore_cmd = app.add_subcommand(
      "restore", "Undo what a killed run left: sysfs values, loop devices, mounts");

  // disk
  CLI::App* disk_cmd = app.add_subcommand("disk", "The emulated rotating disk (FUSE daemon)");
  disk_cmd->require_subcommand(1);
  DiskServeOptions serve;
  CLI::App* serve_cmd = disk_cmd->add_subcommand("serve", "Serve an image file through the model");
  serve_cmd->add_option("--backing", serve.backing, "Backing image file (best on tmpfs)")
      ->required();
  serve_cmd->add_option("--mount", serve.mountpoint, "Empty directory to mount on")->required();
  serve_cmd->add_option("--profile", serve.profile, "ide-2003 (default), sata-7200, ssd");
  serve_cmd->add_option("--set", serve.settings, "Override a model parameter (key=value)");
  serve_cmd->add_option("--trace", serve.trace, "Per-request trace file");
  bool profiles_json = false;
  CLI::App* profiles_cmd = disk_cmd->add_subcommand("profiles", "List the disk profiles");
  profiles_cmd->add_flag("--json", profiles_json, "JSON output");

  // compare
  CompareCommandOptions compare;
  CLI::App* compare_cmd = AddCompareSubcommand(&app, &compare);
  // history, history import, trend
  HistoryCommands history;
  AddHistoryCommands(&app, &history);
  // internal (hidden): contest's mem_load and process_load iterations
  InternalCommands internal;
  AddInternalCommands(&app, &internal);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    PrintError(OneLine(e.what()) + " (see --help)");
    return kExitUsage;
  }

  if (*run_cmd) {
    run.seed_given = run_cmd->count("--seed") > 0;
    run.machine_given = run_cmd->count("--machine") > 0;
    std::string names;
    for (size_t i = 0; i < suite_cmds.size(); ++i) {
      names += (i ? ", " : "") + std::string(AllSuites()[i].name);
      if (*suite_cmds[i]) {
        run.entry = &AllSuites()[i];
        run.suite = suites[i].get();
      }
    }
    if (run.entry == nullptr) {
      PrintError((unknown_suite.empty() ? std::string("no suite given")
                                        : "unknown suite '" + unknown_suite + "'") +
                 " (available: " + names + ")");
      return kExitUsage;
    }
    GivenRunOptions given;
    given.target =
        run_cmd->count("--dir") + run_cmd->count("--scratch") + run_cmd->count("--emulated") > 0;
    given.fs = run_cmd->count("--fs") > 0;
    given.machine = run.machine_given;
    given.schedulers = run_cmd->count("--schedulers") > 0;
    const std::string applied = ApplySuiteRunDefaults(run.entry->defaults, given, &run);
    if (!applied.empty()) {
      run.machine_given = run.machine_given || !run.machine.empty();
      std::fprintf(stderr, "elevbench: %s runs by default with %s\n", run.entry->name,
                   applied.c_str());
    }
    return RunCommand(run);
  }
  if (*report_cmd) return ReportCommand(report_paths, report_format);
  if (*devices_cmd) return DevicesCommand(devices_json);
  if (*restore_cmd) return RestoreCommand();
  if (*serve_cmd) return DiskServeCommand(serve);
  if (*profiles_cmd) return DiskProfilesCommand(profiles_json);
  if (*compare_cmd) return CompareCommand(compare);
  if (const int code = RunHistoryCommands(history); code >= 0) return code;
  if (const int code = RunInternalCommands(internal); code >= 0) return code;
  return kExitUsage;
}

}  // namespace elevbench
