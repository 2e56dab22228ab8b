// The options of `elevbench run`: the ones every suite shares, and under them one subcommand per
// suite of the table, with the suite's own options. After parsing, the chosen suite's setting
// fills what the command line left out (scenarios/suites_commands.h), and RunCommand runs it.

#include <CLI/CLI.hpp>
#include <map>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/machine/machine_spec.h"
#include "scenarios/suites_commands.h"

namespace elevbench {
namespace {

// Under every suite's own options in its --help: the options of `run` it shares, which CLI11
// lists only in `run --help` (issue #29 §4).
constexpr char kSharedRunOptionsNote[] =
    "Every suite also takes the options of `elevbench run` (before or after the suite's "
    "name), listed by `elevbench run --help`: the target (--dir, --scratch, --emulated, --fs, "
    "--machine, --device), the plan (--schedulers, --repetitions, --seed, --timeout, "
    "--trace-requests) and the output (--format, --out, --identifier, --no-verdict, --db). "
    "Sizes: MiB = 2^20 bytes, MB = 10^6 bytes.";

// --trace-requests' words, the only place they are parsed: CLI11 turns the word into the enum.
const std::map<std::string, TraceMode> kTraceModeWords = {
    {"off", TraceMode::kOff}, {"summary", TraceMode::kSummary}, {"full", TraceMode::kFull}};

void AddTargetOptions(CLI::App* cmd, RunOptions* run) {
  cmd->add_option("--dir", run->directory,
                  "Run in this existing directory (default: the suite's target, see `list "
                  "suites`; as root a device elevbench makes)");
  cmd->add_option("--scratch", run->scratch,
                  "Create a scratch loop device of this size and run on it: SIZE with K/M/G "
                  "= KiB/MiB/GiB, e.g. 1G (default: none)");
  cmd->add_option("--emulated", run->emulated,
                  "Run on an emulated rotating disk: PROFILE[:SIZE], e.g. ide-2003:2G (SIZE in "
                  "K/M/G = KiB/MiB/GiB; profiles: `disk profiles`; default: the suite's)");
  cmd->add_option("--disk-set", run->disk_settings,
                  "Override an emulated-disk model parameter (key=value, units as in `disk "
                  "profiles --json`), repeatable (default: none)");
  cmd->add_option("--disk-trace", run->disk_trace,
                  "Write the emulated disk's request trace to this file (default: none)");
  cmd->add_flag("--keep-wbt", run->keep_wbt,
                "Emulated disk: keep today's writeback throttling (2003 had none; default off)");
  cmd->add_option("--fs", run->fs,
                  "Filesystem of a scratch/emulated device: ext2, ext4, xfs (default: the "
                  "suite's, else ext4)");
  cmd->add_option("--machine", run->machine,
                  "Run as a smaller machine, held to it by cgroups (root): a profile (" +
                      MachineProfileNames() +
                      ": 1 CPU, 256 MiB, no swap) or ram=SIZE,cpus=N (SIZE in K/M/G = "
                      "KiB/MiB/GiB); the suites size their loads by it (default: the suite's, "
                      "else the whole machine)");
  cmd->add_option("--device", run->device,
                  "Allow switching the scheduler of this existing device (e.g. sdb); for run "
                  "replay, the device to replay onto (default: none)");
  cmd->add_flag("--allow-writes", run->allow_writes,
                "Let a suite write to the raw --device (run replay of a trace with writes, a "
                "fio job on it): DESTROYS ITS DATA (default off)");
}

void AddPlanOptions(CLI::App* cmd, RunOptions* run) {
  cmd->add_option("--schedulers", run->schedulers,
                  "'all' or a list: none,mq-deadline,kyber,bfq,bfq:low_latency=0[@code] "
                  "(default: the suite's, else the device's current scheduler only)");
  cmd->add_option("--queue", run->queue,
                  "Pin queue attributes: read_ahead_kb=128,... (values in the sysfs file's "
                  "own unit; default: none pinned)");
  cmd->add_option("--repetitions", run->repetitions,
                  "Repetitions of every cell (1-1000, default 1), or 'auto': repeat until the "
                  "95 % interval of every headline metric is within --ci-width");
  cmd->add_option("--ci-width", run->ci_width_pct,
                  "With --repetitions auto: allowed half-width of the 95 % interval, "
                  "in % of the mean (default 5)")
      ->check(CLI::Range(0.1, 100.0));
  cmd->add_option("--max-repetitions", run->max_repetitions,
                  "With --repetitions auto: the cap (3-1000, default 10)")
      ->check(CLI::Range(3u, 1000u));
  cmd->add_option("--lanes", run->lanes,
                  "Run the plan on N emulated disks at once (root, --emulated), each lane on "
                  "its own CPUs, or 'auto': as many as the CPUs and the suite allow");
  cmd->add_option("--seed", run->seed,
                  "Seed of the interleaving order, 0 or more (default: random)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--no-drop-caches", run->no_drop_caches,
                "Do not drop all caches before each cell (a suite still evicts its own "
                "files where it says so; default off: caches are dropped)");
  cmd->add_flag("--fresh-fs", run->fresh_fs,
                "Make the filesystem again before each cell (mkfs, mount, the suite's files "
                "laid out again), so that no cell inherits the layout earlier cells left "
                "(root, --emulated or --scratch; default off: one filesystem for the run)");
  cmd->add_option("--timeout", run->timeout_seconds,
                  "Seconds one fio phase or probe may take before it is stopped (DNF; "
                  "default 0: the suite's own)")
      ->check(CLI::Range(0.0, 7.0 * 24 * 3600));
  cmd->add_option("--trace-requests", run->trace_requests,
                  "Trace every request through the scheduler (root; a device elevbench makes or "
                  "the one named with --device): off (default), summary (block events in a "
                  "private tracefs instance), full (also the scheduler's own log through the "
                  "global blk tracer)")
      ->transform(CLI::CheckedTransformer(kTraceModeWords).description(""))
      // Inserted before the transformer, so it runs first: the word's own one-line error and
      // help ("TEXT:{off,summary,full}", "sometimes not in {off,summary,full}"), not the map's.
      ->transform(CLI::IsMember({"off", "summary", "full"}))
      ->type_name("TEXT");
}

void AddOutputOptions(CLI::App* cmd, RunOptions* run) {
  cmd->add_option("--identifier", run->identifier,
                  "Row label (default: uname -r, or <kernel>-<code> per scheduler)");
  cmd->add_option("--format", run->format,
                  "Text format: the suite's (" + SuiteFormatsHelp() +
                      "), or json (default: the suite's first)");
  cmd->add_flag("--no-verdict", run->no_verdict,
                "Print the tables without the verdict block that ends them (to post a table as "
                "the 2003 posts had it; default off)");
  cmd->add_option("--out", run->out, "Results JSON (default results/<time>-<host>-<suite>.json)");
  cmd->add_option("--db", run->history_db,
                  "Record the run in this history (default results/history.db; "
                  "postgresql://… for a shared one)");
  cmd->add_flag("--no-history", run->no_history,
                "Do not record the run in the history (default off: it is recorded)");
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
  run.seed_given = cmd->count("--seed") > 0;
  run.machine_given = cmd->count("--machine") > 0;
  std::string names;
  for (size_t i = 0; i < c->suite_cmds.size(); ++i) {
    names += (i ? ", " : "") + std::string(AllSuites()[i].name);
    if (*c->suite_cmds[i]) {
      run.entry = &AllSuites()[i];
      run.suite = c->suites[i].get();
    }
  }
  if (run.entry == nullptr) {
    PrintError((c->unknown_suite.empty() ? std::string("no suite given")
                                         : "unknown suite '" + c->unknown_suite + "'") +
               " (available: " + names + ")");
    return kExitUsage;
  }
  const FlagGiven given = [cmd](const std::string& flag) { return cmd->count(flag) > 0; };
  std::string err;
  if (!CheckRunOptionCombinations(run, given, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const std::string applied =
      ApplySuiteRunDefaults(run.entry->defaults, GivenRunOptionsOf(given), &run);
  if (!applied.empty()) {
    PrintNote(std::string(run.entry->name) + " runs by default with " + applied);
  }
  return RunCommand(run);
}

}  // namespace

SubcommandRunner AddRunSubcommand(CLI::App* cmd, const std::string& command_line) {
  auto c = std::make_shared<RunCommandLine>();
  c->run.command_line = command_line;
  // Each suite is a subcommand with its own options; it falls through to `run`, so the common
  // options may come before or after the suite's name.
  cmd->add_option("suite", c->unknown_suite, "The suite to run (one of the subcommands below)");
  for (const SuiteEntry& entry : AllSuites()) {
    c->suites.push_back(entry.make());
    CLI::App* suite_cmd = cmd->add_subcommand(entry.name, entry.description);
    suite_cmd->fallthrough();
    suite_cmd->footer(kSharedRunOptionsNote);
    c->suites.back()->AddOptions(suite_cmd);
    c->suite_cmds.push_back(suite_cmd);
  }
  AddTargetOptions(cmd, &c->run);
  AddPlanOptions(cmd, &c->run);
  AddOutputOptions(cmd, &c->run);
  return [c, cmd] { return RunParsedCommand(c.get(), cmd); };
}

}  // namespace elevbench
