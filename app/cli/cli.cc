#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "app/cli/commands.h"

namespace elevbench {

void PrintError(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

void PrintNote(const std::string& message) { PrintError("note: " + message); }

void AddTargetOptions(CLI::App* cmd, TargetSpec* target, const TargetFlagsHelp& help) {
  cmd->add_option("--device", target->device, help.device);
  cmd->add_option("--emulated", target->emulated, help.emulated);
  cmd->add_option("--scratch", target->scratch, help.scratch);
  cmd->add_option("--fs", target->fs, help.fs);
}

namespace {

// The exit codes of the commands that change the machine and can be interrupted.
constexpr const char* kRunExitCodes =
    "Exit codes: 0 done; 1 a cell, a device operation or the restore failed, or fio is "
    "missing; 2 bad command line or input, or a refusal (a device not named with --device); "
    "130 interrupted by SIGINT, SIGTERM or SIGHUP, after cleanup.";
constexpr const char* kCompareExitCodes =
    "Exit codes: 0 the gate passes; 1 a significant regression beyond --threshold, or a row "
    "failed/DNF in the new results only; 2 bad command line, or files that cannot be read or "
    "compared; 3 the gate could not judge (an untested change beyond --threshold, a row only in "
    "the base, suite parameters that differ; --allow passes them). docs/compare.md, \"The gate\".";
constexpr const char* kStoreExitCodes =
    "Exit codes: 0 done; 1 the history could not be read or written; 2 bad command line, an "
    "unreadable file or database, or a run refused.";
constexpr const char* kDeviceExitCodes =
    "Exit codes: 0 done; 1 the devices could not be read or restored; 2 bad command line, or "
    "restore without root.";
constexpr const char* kKernelsExitCodes =
    "Exit codes: 0 listed (and fetched); 1 a fetch failed (apt-get download, dpkg-deb); 2 bad "
    "command line or a word that names no Debian kernel package.";
constexpr const char* kDiskExitCodes =
    "Exit codes: 0 done; 1 the daemon failed; 2 bad command line or profile.";

// Appends `codes` to the footer of `cmd` and of every command nested in it.
void AddExitCodesFooter(CLI::App* cmd, const std::string& codes) {
  const std::string footer = cmd->get_footer();
  cmd->footer(footer.empty() ? codes : footer + "\n\n" + codes);
  for (CLI::App* sub : cmd->get_subcommands({})) AddExitCodesFooter(sub, codes);
}

}  // namespace

void AddJsonFlag(CLI::App* cmd, bool* json, const std::string& help) {
  cmd->add_flag("--json", *json, help);
  cmd->add_option_function<std::string>(
         "--format", [json](const std::string& format) { *json = format == "json"; },
         "text (default) or json: the same as --json")
      ->check(CLI::IsMember({"text", "json"}));
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
      {"history", "List the recorded runs (the run history)", AddHistorySubcommand, false,
       kStoreExitCodes},
      {"trend", "One metric of one configuration over the recorded runs", AddTrendSubcommand, false,
       kStoreExitCodes},
      {"list", "List the suites, formats, schedulers or profiles (for people and scripts)",
       AddListSubcommand},
      {"devices", "List block devices and their schedulers", AddDevicesSubcommand, false,
       kDeviceExitCodes},
      {"kernels",
       "List the kernels `run --kernels` can boot in a guest (the kernel cache), or fetch "
       "Debian's into it",
       AddKernelsSubcommand, false, kKernelsExitCodes},
      {"restore", "Undo what a killed run left: sysfs values, loop devices, mounts",
       AddRestoreSubcommand, false, kDeviceExitCodes},
      {"capture",
       "Record every bio of a disk into a block trace (a disk of yours read-only, or one "
       "elevbench makes with a command run on it)",
       AddCaptureSubcommand, false, kRunExitCodes},
      {"trace", "Summarize a block trace made by `capture`", AddTraceSubcommand},
      {"disk", "The emulated rotating disk (FUSE daemon)", AddDiskSubcommand, false,
       kDiskExitCodes},
      {"internal", "Iterations of contest's loads (internal)", AddInternalSubcommand,
       /*hidden=*/true},
  };
  return kSubcommands;
}

namespace {

// CLI11's messages can span lines; the contract is one line.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// CLI11's type names in plain words (#45): "N (512 to 67108864 bytes)" for
// "UINT:512 to 67108864 bytes", "NUMBER" for "FLOAT", for every option of `cmd` and below.
void PlainOptionTexts(CLI::App* cmd) {
  for (CLI::Option* opt : cmd->get_options({})) {
    if (!opt->get_option_text().empty() || opt->get_type_size() == 0) continue;
    const std::string type = opt->get_type_name();
    const size_t colon = type.find(':');
    const std::string head = type.substr(0, colon);
    const char* word = head == "INT" || head == "UINT" ? "N"
                       : head == "FLOAT"               ? "NUMBER"
                       : head == "SIZE"                ? "SIZE"
                                                       : nullptr;
    if (word == nullptr) continue;
    std::string text = word;
    // Each check's words, "MiB, or 64M, 1G:1 to 1048576 MiB" → "(MiB, or 64M, 1G; 1 to …)".
    std::string words = colon == std::string::npos ? "" : type.substr(colon + 1);
    for (size_t at = words.find(':'); at != std::string::npos; at = words.find(':', at)) {
      words.replace(at, 1, "; ");
    }
    if (!words.empty()) text += " (" + words + ")";
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) text += " ...";
    if (opt->get_required()) text += " REQUIRED";
    opt->option_text(text);
  }
  for (CLI::App* sub : cmd->get_subcommands({})) PlainOptionTexts(sub);
}

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
  if (const auto* extras = dynamic_cast<const CLI::ExtrasError*>(&e);
      extras != nullptr && argc > 1 && argv[1] == std::string("run")) {
    for (int i = 2; i < argc; ++i) {
      const std::string suites = SuitesTakingOption(app, argv[i]);
      if (suites.empty()) continue;
      return std::string(argv[i]) + " is an option of a suite (" + suites +
             "): give it after the suite's name, e.g. `elevbench run " +
             suites.substr(0, suites.find(',')) + " " + argv[i] + " …` (see --help)";
    }
  }
  return OneLine(e.what()) + " (see --help)";
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
  // A first word that is no subcommand, or an option elevbench does not take before one: CLI11
  // would say "A subcommand is required".
  if (argc > 1 && argv[1][0] == '-' && argv[1] != std::string("--help") &&
      argv[1] != std::string("-h") && argv[1] != std::string("--version")) {
    PrintError("unknown option '" + std::string(argv[1]) +
               "': elevbench takes a subcommand first (see --help)");
    return kExitUsage;
  }
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const SubcommandEntry& entry : AllSubcommands()) {
      known = known || argv[1] == std::string(entry.name);
      if (!entry.hidden) names += (names.empty() ? "" : ", ") + std::string(entry.name);
    }
    if (!known) {
      PrintError("unknown subcommand '" + std::string(argv[1]) + "' (one of: " + names + ")");
      return kExitUsage;
    }
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
