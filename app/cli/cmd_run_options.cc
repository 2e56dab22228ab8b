// The options of `elevbench run`: the ones every suite shares, and under them one subcommand per
// suite of the table, with the suite's own options. After parsing, the chosen suite's setting
// fills what the command line left out (app/suites_run.h), and RunCommand runs it.

#include <CLI/CLI.hpp>
#include <limits>
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites_report.h"
#include "app/suites_run.h"
#include "harness/core/plain_range.h"
#include "harness/run/run_flags.h"

namespace elevbench {
namespace {

// --trace-requests' words, the only place they are parsed: CLI11 turns the word into the enum.
const std::map<std::string, TraceMode> kTraceModeWords = {
    {"off", TraceMode::kOff}, {"summary", TraceMode::kSummary}, {"full", TraceMode::kFull}};

// A number's range (a seed: any whole number from 0), the trace mode's words, a text's name.
template <typename T>
void RefineConfigOption(CLI::Option* option, const RunConfigFlag& flag) {
  if (const std::string name = RunFlagValueName(flag.name); !name.empty()) {
    option->type_name(name);
  }
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    option->allow_extra_args(false);  // one value each: `--disk-set a=1 tiobench` is no value
  }
  if constexpr (std::is_same_v<T, TraceMode>) {
    option
        ->transform(CLI::CheckedTransformer(kTraceModeWords).description(""))
        // Inserted before the transformer, so it runs first: the words' plain help
        // ("off|summary|full") and error ("expected off, summary or full, not 'sometimes'").
        ->transform(PlainWords({"off", "summary", "full"}))
        ->type_name("TEXT");
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    option->check(PlainRange(uint64_t{0}, std::numeric_limits<uint64_t>::max(), flag.unit));
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (flag.range) {
      option->check(PlainRange(static_cast<T>(flag.range->first),
                               static_cast<T>(flag.range->second), flag.unit));
    }
  }
}

// RunConfig's flags, run's own target flags and the plan's (harness/run/run_flags.h), each of
// its field's type.
void AddConfigOptions(CLI::App* cmd, RunConfig* config) {
  for (const RunConfigFlag& flag : RunConfigFlags()) {
    std::visit(
        [&](auto field) {
          using T = std::remove_reference_t<decltype(config->*field)>;
          if constexpr (std::is_same_v<T, bool>) {
            cmd->add_flag(flag.name, config->*field, flag.help);
          } else {
            RefineConfigOption<T>(cmd->add_option(flag.name, config->*field, flag.help), flag);
          }
        },
        flag.field);
  }
}

void AddOutputOptions(CLI::App* cmd, RunOptions* run) {
  cmd->add_option("--label-prefix", run->config.label_prefix,
                  "A guest's row prefix (set by --kernels)")
      ->type_name("PREFIX")
      ->group("");  // hidden: only the host's --kernels writes it
  AddPlainOptions(cmd, {{"--identifier", "NAME",
                         "Row label (default: uname -r, or <kernel>-<code> per scheduler)",
                         &run->config.identifier},
                        {"--format", "FORMAT",
                         "Text format: the suite's (" + SuiteFormatsHelp() +
                             "), text (the suite's first), or json (default: the suite's first)",
                         &run->config.format}});
  cmd->add_flag("--no-verdict", run->no_verdict,
                "Print the tables without the verdict block that ends them (to post a table as "
                "the 2003 posts had it; default off)");
  AddPlainOptions(cmd,
                  {{"--out", "FILE", "Results JSON (default results/<time>-<host>-<suite>.json)",
                    &run->config.out}});
  AddHistoryOptions(cmd, "run", &run->history_db, &run->no_history);
  cmd->add_flag("--check", run->check_only,
                "Only the run's checks (the flags, the target's size for the suite, --machine, "
                "the schedulers and kernels offered, fio): says what the run would do and exits "
                "0, or names what it refuses and exits 2; makes nothing, fetches no kernel");
}

// What `run` holds while the command line is parsed: its options and one suite per entry.
struct RunCommandLine {
  RunOptions run;
  std::string unknown_suite;  // a word that names no suite lands here, for a clear error
  std::vector<std::unique_ptr<Suite>> suites;
  std::vector<CLI::App*> suite_cmds;
};

// After parsing: the chosen suite, its setting where the command line was silent, then the run.
int RunParsedCommand(RunCommandLine* c, CLI::App* cmd) {
  RunOptions& run = c->run;
  run.config.seed_given = cmd->count("--seed") > 0;
  run.config.command_args = CommandWords();
  run.config.machine_given = cmd->count("--machine") > 0;
  size_t chosen = AllSuites().size();
  for (size_t i = 0; i < c->suite_cmds.size(); ++i) {
    if (*c->suite_cmds[i]) {
      chosen = i;
      run.config.suite = c->suites[i].get();
    }
  }
  const FlagGiven given = [cmd](const std::string& flag) { return cmd->count(flag) > 0; };
  std::string err;
  if (!ChooseRunSuite(chosen, c->unknown_suite, &run, &err) ||
      !PrepareRunOptions(given, &run, &err)) {
    return ErrorExit(err);
  }
  return RunCommand(run);
}

}  // namespace

SubcommandRunner AddRunSubcommand(CLI::App* cmd, const std::string& command_line) {
  auto c = std::make_shared<RunCommandLine>();
  c->run.config.command_line = command_line;
  // Each suite is a subcommand with its own options; it falls through to `run`, so the common
  // options may come before or after the suite's name.
  cmd->add_option("suite", c->unknown_suite, "The suite to run (one of the subcommands below)")
      ->type_name("SUITE");
  for (const SuiteEntry& entry : AllSuites()) {
    c->suites.push_back(entry.make());
    CLI::App* suite_cmd = cmd->add_subcommand(entry.name, entry.description);
    suite_cmd->fallthrough();
    suite_cmd->footer(SharedRunOptionsNote());
    c->suites.back()->AddOptions(suite_cmd);
    c->suite_cmds.push_back(suite_cmd);
  }
  AddTargetOptions(cmd, &c->run.config.target, RunTargetFlagsHelp());
  AddConfigOptions(cmd, &c->run.config);
  AddOutputOptions(cmd, &c->run);
  return [c, cmd] { return RunParsedCommand(c.get(), cmd); };
}

}  // namespace elevbench
