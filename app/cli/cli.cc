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

const std::vector<SubcommandEntry>& AllSubcommands() {
  static const std::vector<SubcommandEntry> kSubcommands = {
      {"run", "Run a suite and print the 2003-style tables", AddRunSubcommand},
      {"report", "Print the tables of saved results files", AddReportSubcommand},
      {"compare",
       "Compare two results files row by row (Mann-Whitney U); exit 1 on a significant "
       "regression beyond the threshold",
       AddCompareSubcommand},
      {"history", "List the recorded runs (the run history)", AddHistorySubcommand},
      {"trend", "One metric of one configuration over the recorded runs", AddTrendSubcommand},
      {"list", "List the suites, formats, schedulers or profiles (for people and scripts)",
       AddListSubcommand},
      {"devices", "List block devices and their schedulers", AddDevicesSubcommand},
      {"kernels",
       "List the kernels `run --kernels` can boot in a guest (the kernel cache), or fetch "
       "Debian's into it",
       AddKernelsSubcommand},
      {"restore", "Undo what a killed run left: sysfs values, loop devices, mounts",
       AddRestoreSubcommand},
      {"capture",
       "Record every bio of a disk into a block trace (a disk of yours read-only, or one "
       "elevbench makes with a command run on it)",
       AddCaptureSubcommand},
      {"trace", "Summarize a block trace made by `capture`", AddTraceSubcommand},
      {"disk", "The emulated rotating disk (FUSE daemon)", AddDiskSubcommand},
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
  }
  // A first word that is no subcommand: CLI11 would say "A subcommand is required".
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
    PrintError(OneLine(e.what()) + " (see --help)");
    return kExitUsage;
  }
  for (const auto& [cmd, run] : commands) {
    if (*cmd) return run();
  }
  return kExitUsage;
}

}  // namespace elevbench
