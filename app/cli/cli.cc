#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <sstream>

#include "app/cli/commands.h"
#include "harness/core/plain_cli.h"
#include "harness/core/plain_range.h"

namespace elevbench {

void PrintError(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

void PrintNote(const std::string& message) { PrintError("note: " + message); }

void AddHistoryOptions(CLI::App* cmd, const std::string& what, std::string* db, bool* no_history) {
  cmd->add_option("--db", *db,
                  "Record the " + what +
                      " in this history (default results/history.db; postgresql://… for a "
                      "shared one; docs/history.md)")
      ->type_name("DB");
  cmd->add_flag("--no-history", *no_history,
                "Do not record the " + what + " in the history (default off: it is recorded)");
}

void AddTargetOptions(CLI::App* cmd, TargetSpec* target, const TargetFlagsHelp& help) {
  cmd->add_option("--device", target->device, help.device)->type_name("DISK");
  cmd->add_option("--emulated", target->emulated, help.emulated)->type_name("PROFILE");
  cmd->add_option("--scratch", target->scratch, help.scratch)->type_name("SIZE");
  cmd->add_option("--fs", target->fs, help.fs)->type_name("FS");
}

namespace {

// The exit codes of the commands that change the machine and can be interrupted.
constexpr const char* kRunExitCodes =
    "Exit codes: 0 done; 1 a cell, a device operation or the restore failed, or fio is "
    "missing; 2 bad command line or input, or a refusal (a device not named with --device); "
    "130 interrupted by SIGINT, SIGTERM or SIGHUP, after cleanup.";
constexpr const char* kCompareExitCodes =
    "Exit codes: 0 the gate passes; 1 a significant regression beyond --threshold, or a row "
    "failed/DNF more often in the new results than in the base; 2 bad command line, or files that "
    "cannot be read or "
    "compared; 3 the gate could not judge (an untested change beyond --threshold the bad way, a "
    "row only in the base, suite parameters that differ; --allow passes them). docs/compare.md, "
    "\"The gate\".";
constexpr const char* kCaptureExitCodes =
    "Exit codes: 0 captured; 1 the target could not be made, the command failed, events were "
    "lost, or the capture or the restore failed; 2 bad command line or a refusal (no such "
    "disk, --out on the traced disk, no root); 130 interrupted by SIGINT, SIGTERM or SIGHUP, "
    "after cleanup.";
constexpr const char* kHistoryExitCodes =
    "Exit codes: 0 listed; 1 the history could not be read; 2 bad command line, a database "
    "that cannot be opened, or a --suite that names no suite.";
constexpr const char* kTrendExitCodes =
    "Exit codes: 0 printed; 1 the history could not be read; 2 bad command line, a database "
    "that cannot be opened, or a suite, section, row, configuration or metric the history "
    "does not have.";
constexpr const char* kDevicesExitCodes =
    "Exit codes: 0 listed; 1 the devices could not be read; 2 bad command line.";
constexpr const char* kRestoreExitCodes =
    "Exit codes: 0 restored, or nothing to restore; 1 the restore failed; 2 bad command line, "
    "or restore without root.";
// #45: each says only what its command reads (`list` and `disk` read no file).
constexpr const char* kListExitCodes =
    "Exit codes: 0 listed; 2 bad command line (a list elevbench does not have).";
constexpr const char* kTraceExitCodes =
    "Exit codes: 0 printed; 2 bad command line, or a file that is not a readable block trace.";
constexpr const char* kDiskExitCodes =
    "Exit codes: 0 done; 1 disk serve's daemon failed; 2 bad command line, or a profile or "
    "--disk-set that disk serve cannot use.";
constexpr const char* kKernelsExitCodes =
    "Exit codes: 0 listed (and fetched); 1 a fetch or copy failed (apt-get download, dpkg-deb, "
    "depmod); 2 bad command line, a word that names no Debian kernel package, or a build that is "
    "no bzImage or lacks its modules or config.";

}  // namespace

void AddJsonFlag(CLI::App* cmd, bool* json, const std::string& help) {
  CLI::Option* flag = cmd->add_flag("--json", *json, help);
  // Its callback runs after --json's, whatever their order on the command line (#45: `--json
  // --format text` printed text).
  cmd->add_option_function<std::string>(
         "--format",
         [json, flag](const std::string& format) {
           if (flag->count() > 0 && format != "json") {
             throw CLI::ValidationError("--format " + format,
                                        "contradicts --json (give one of them)");
           }
           *json = format == "json";
         },
         "text (default) or json: the same as --json")
      ->check(PlainWords({"text", "json"}));
}

const std::vector<SubcommandEntry>& AllSubcommands() {
  static const std::vector<SubcommandEntry> kSubcommands = {
      {"run", "Run a suite and print the 2003-style tables", AddRunSubcommand, false,
       kRunExitCodes},
      {"report", "Print the tables of saved results files", AddReportSubcommand},
      {"compare",
       "Compare two results files row by row (Mann-Whitney U); exit 1 on a significant "
       "regression beyond the threshold, 3 when it cannot judge",
       AddCompareSubcommand, false, kCompareExitCodes},
      {"merge",
       "Join the shards of `run --shard I/N` into the whole plan's results (--out), printed "
       "and recorded in the history as one run",
       AddMergeSubcommand},
      {"history", "List the recorded runs (the run history)", AddHistorySubcommand, false,
       kHistoryExitCodes},
      {"trend", "One metric of one configuration over the recorded runs", AddTrendSubcommand, false,
       kTrendExitCodes},
      {"list", "List the suites, formats, schedulers or profiles (for people and scripts)",
       AddListSubcommand, false, kListExitCodes},
      {"devices", "List block devices and their schedulers", AddDevicesSubcommand, false,
       kDevicesExitCodes},
      {"kernels",
       "List the kernels `run --kernels` can boot in a guest (the kernel cache), or fetch "
       "Debian's into it, or copy your own build there",
       AddKernelsSubcommand, false, kKernelsExitCodes},
      {"restore", "Undo what a killed run left: sysfs values, loop devices, mounts",
       AddRestoreSubcommand, false, kRestoreExitCodes},
      {"capture",
       "Record every bio of a disk into a block trace (a disk of yours read-only, or one "
       "elevbench makes with a command run on it)",
       AddCaptureSubcommand, false, kCaptureExitCodes},
      {"trace", "Summarize a block trace made by `capture`", AddTraceSubcommand, false,
       kTraceExitCodes},
      {"disk", "The emulated rotating disk (FUSE daemon)", AddDiskSubcommand, false,
       kDiskExitCodes},
      {"internal", "Iterations of contest's loads (internal)", AddInternalSubcommand,
       /*hidden=*/true},
  };
  return kSubcommands;
}

namespace {

// `run --size 0 tiobench`: an option of a suite given before the suite's name, which CLI11
// calls "not expected". The suites that take it, or "" when none does.
std::string SuitesTakingOption(CLI::App* app, const std::string& arg) {
  if (arg.rfind("--", 0) != 0) return "";
  const std::string name = arg.substr(0, arg.find('='));
  CLI::App* run = app->get_subcommand("run");
  std::string suites;
  for (CLI::App* suite : run->get_subcommands({})) {
    for (const CLI::Option* opt : suite->get_options({})) {
      if (opt->check_lname(name.substr(2))) {
        suites += (suites.empty() ? "" : ", ") + suite->get_name();
      }
    }
  }
  return suites;
}

// A parse error as one line; where CLI11 says too little, what the user meant.
std::string ParseErrorLine(CLI::App* app, const CLI::ParseError& e, int argc, char** argv) {
  if (const auto* required = dynamic_cast<const CLI::RequiredError*>(&e);
      required != nullptr && std::string(e.what()).ends_with(" is required")) {
    return RequiredErrorLine(app, e.what());
  }
  if (const auto* extras = dynamic_cast<const CLI::ExtrasError*>(&e);
      extras != nullptr && argc > 1 && argv[1] == std::string("run")) {
    std::string path;
    const CLI::App* chosen = ChosenCommand(app, &path);
    const std::string suite =
        chosen->get_parent() != nullptr && chosen->get_parent()->get_name() == "run"
            ? chosen->get_name()
            : "";
    bool after_suite = false;
    for (int i = 2; i < argc; ++i) {
      after_suite = after_suite || (!suite.empty() && argv[i] == suite);
      const std::string suites = SuitesTakingOption(app, argv[i]);
      if (suites.empty()) continue;
      // #45, fourth pass: `run nickbench --threads 4` was told to give --threads after a
      // suite's name, where it was.
      if (after_suite) {
        const std::string option = std::string(argv[i]).substr(0, std::string(argv[i]).find('='));
        return suite + " has no " + option + " (it is " +
               (suites.find(',') == std::string::npos ? suites + "'s" : "an option of " + suites) +
               "; see elevbench run " + suite + " --help)";
      }
      return std::string(argv[i]) + " is an option of a suite (" + suites +
             "): give it after the suite's name, e.g. `elevbench run " +
             suites.substr(0, suites.find(',')) + " " + argv[i] + " …` (see --help)";
    }
  }
  return PlainParseError(app, e);
}

// "run, report, …": the subcommands --help lists.
std::string SubcommandNames() {
  std::string names;
  for (const SubcommandEntry& entry : AllSubcommands()) {
    if (!entry.hidden) names += (names.empty() ? "" : ", ") + std::string(entry.name);
  }
  return names;
}

std::string JoinArgs(int argc, char** argv) {
  std::ostringstream out;
  for (int i = 0; i < argc; ++i) out << (i ? " " : "") << argv[i];
  return out.str();
}

std::vector<std::string>& MutableCommandWords() {
  static std::vector<std::string> words;
  return words;
}

}  // namespace

const std::vector<std::string>& CommandWords() { return MutableCommandWords(); }

int RunCli(int argc, char** argv) {
  MutableCommandWords().assign(argv + std::min(argc, 1), argv + argc);
  CLI::App app{"elevbench: which block I/O scheduler is best for this box and this workload?",
               "elevbench"};
  app.formatter(std::make_shared<PlainHelpFormatter>());  // before the subcommands: they copy it
  app.set_version_flag("--version", std::string("elevbench ") + ELEVBENCH_VERSION);
  app.require_subcommand(1);
  const std::string command_line = JoinArgs(argc, argv);
  std::vector<std::pair<CLI::App*, SubcommandRunner>> commands;
  for (const SubcommandEntry& entry : AllSubcommands()) {
    CLI::App* cmd = app.add_subcommand(entry.name, entry.description);
    if (entry.hidden) cmd->group("");  // hidden from --help and the man page
    commands.emplace_back(cmd, entry.add(cmd, command_line));
    AddExitCodesFooter(cmd, entry.exit_codes);
  }
  app.footer(
      "Exit codes: 0 done; 1 a run, a cell, a restore or a device operation failed; 2 bad "
      "command line or input, or a refusal; 3 compare could not judge; 130 interrupted, after "
      "cleanup. Each command's --help lists its own.");
  PlainOptionTexts(&app);
  for (CLI::App* cmd : app.get_subcommands({})) {
    if (cmd->get_name() == "run") {
      // `run` and its suites too (#45, fourth pass: `run tiobench --dir ''` ran in the working
      // directory), but for the options whose empty value run refuses in its own words
      // (app/suites_run.cc), and the words of `run command -- CMD ARGS`, where an empty
      // argument is the program's to take.
      RefuseEmptyValues(
          cmd, {"--identifier", "--label-prefix", "--out", "--db", "--schedulers", "program"});
    } else if (cmd->get_name() != "internal") {
      RefuseEmptyValues(cmd);
    }
  }
  // A first word that is no subcommand, or an option elevbench does not take before one: CLI11
  // would say "A subcommand is required".
  if (argc > 1 && argv[1][0] == '-' && argv[1] != std::string("--help") &&
      argv[1] != std::string("-h") && argv[1] != std::string("--version")) {
    PrintError("unknown option '" + std::string(argv[1]) +
               "': elevbench takes a subcommand first (see --help)");
    return kExitUsage;
  }
  if (argc > 2 && argv[1] == std::string("--version")) {  // #45, fourth pass: was ignored
    PrintError("unexpected '" + std::string(argv[2]) +
               "': --version takes no other words (see elevbench --help)");
    return kExitUsage;
  }
  if (argc == 1) {  // CLI11: "A subcommand is required"
    PrintError("no subcommand given (one of: " + SubcommandNames() + "; see elevbench --help)");
    return kExitUsage;
  }
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(AllSubcommands().begin(), AllSubcommands().end(),
                   [&](const SubcommandEntry& e) { return argv[1] == std::string(e.name); })) {
    PrintError("unknown subcommand '" + std::string(argv[1]) + "' (one of: " + SubcommandNames() +
               ")");
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    PrintError(ParseErrorLine(&app, e, argc, argv));
    return kExitUsage;
  }
  for (const auto& [cmd, run] : commands) {
    if (*cmd) return run();
  }
  return kExitUsage;
}

}  // namespace elevbench
