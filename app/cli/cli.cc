#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "app/cli/commands.h"
#include "harness/core/command_texts.h"
#include "harness/core/command_words.h"
#include "harness/core/plain_cli.h"
#include "harness/core/plain_range.h"
#include "harness/run/suite_option_words.h"

namespace elevbench {

void PrintError(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

void PrintNote(const std::string& message) { PrintError("note: " + message); }

int ErrorExit(const std::string& err, int code) {
  PrintError(err);
  return code;
}

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

const std::vector<SubcommandEntry>& AllSubcommands() {
  static const std::vector<SubcommandEntry> kSubcommands = [] {
    // Each subcommand's `add` by its name; its line and exit codes are the library's
    // (harness/core/command_texts.h), in --help's order.
    const std::map<std::string, SubcommandRunner (*)(CLI::App*, const std::string&)> adders = {
        {"run", AddRunSubcommand},         {"report", AddReportSubcommand},
        {"compare", AddCompareSubcommand}, {"merge", AddMergeSubcommand},
        {"history", AddHistorySubcommand}, {"trend", AddTrendSubcommand},
        {"list", AddListSubcommand},       {"devices", AddDevicesSubcommand},
        {"kernels", AddKernelsSubcommand}, {"restore", AddRestoreSubcommand},
        {"capture", AddCaptureSubcommand}, {"trace", AddTraceSubcommand},
        {"disk", AddDiskSubcommand},       {"internal", AddInternalSubcommand}};
    std::vector<SubcommandEntry> entries;
    for (const SubcommandText& text : SubcommandTexts()) {
      entries.push_back(
          {text.name, text.description, adders.at(text.name), text.hidden, text.exit_codes});
    }
    return entries;
  }();
  return kSubcommands;
}

namespace {

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
  const std::string command_line = JoinCommandLine(argc, argv);
  std::vector<std::pair<CLI::App*, SubcommandRunner>> commands;
  for (const SubcommandEntry& entry : AllSubcommands()) {
    CLI::App* cmd = app.add_subcommand(entry.name, entry.description);
    if (entry.hidden) cmd->group("");  // hidden from --help and the man page
    commands.emplace_back(cmd, entry.add(cmd, command_line));
    AddExitCodesFooter(cmd, entry.exit_codes);
  }
  app.footer(ProgramExitCodes());
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
  std::string err;
  if (!CheckLeadingWords(CommandWords(), SubcommandNames(true), SubcommandNames(false), &err))
    return ErrorExit(err);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --help-all, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    PrintError(ParseErrorLine(&app, e, CommandWords()));
    return kExitUsage;
  }
  for (const auto& [cmd, run] : commands) {
    if (*cmd) return run();
  }
  return kExitUsage;
}

}  // namespace elevbench
