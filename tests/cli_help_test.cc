// What a newcomer reads and types (issue #45): every help page ends with its command's exit
// codes, limits in plain words with their units, one spelling of a flag everywhere (the old
// kept), and refusals of flags that cannot apply, each one line with exit 2.

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

struct HelpCliRun {
  int exit_code;
  std::string out;
  std::string err;
};

HelpCliRun RunHelpCli(const std::vector<std::string>& args) {
  const ProcessResult r = testing::RunElevbenchCli(args);
  return {r.exit_code, r.output, r.error_output};
}

void ExpectHelpUsageError(const std::vector<std::string>& args, const std::string& needle) {
  const HelpCliRun r = RunHelpCli(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "error must be one line: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

// Every command path below `cmd` ("history", "history import", …), from the table of
// subcommands itself, so that a new one is checked without a line here.
void HelpCommandPaths(CLI::App* cmd, std::vector<std::string> path,
                      std::vector<std::vector<std::string>>* out) {
  path.push_back(cmd->get_name());
  out->push_back(path);
  for (CLI::App* sub : cmd->get_subcommands({})) HelpCommandPaths(sub, path, out);
}

TEST(CliHelpTest, EveryHelpPageListsItsExitCodes) {
  CLI::App app;
  std::vector<std::vector<std::string>> paths;
  for (const SubcommandEntry& entry : AllSubcommands()) {
    if (entry.hidden) continue;
    CLI::App* cmd = app.add_subcommand(entry.name, entry.description);
    (void)entry.add(cmd, "");
    HelpCommandPaths(cmd, {}, &paths);
  }
  ASSERT_GT(paths.size(), AllSubcommands().size());  // nested ones too (history import, …)
  for (std::vector<std::string> path : paths) {
    path.push_back("--help");
    const HelpCliRun r = RunHelpCli(path);
    SCOPED_TRACE(path[0] + (path.size() > 2 ? " " + path[1] : ""));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Exit codes: 0 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; 2 bad command line"), std::string::npos) << r.out;
  }
  const HelpCliRun top = RunHelpCli({"--help"});
  for (const char* code :
       {"Exit codes: 0 done; 1 ", "; 2 bad", "; 3 compare could not judge", "; 130 interrupted"}) {
    EXPECT_NE(top.out.find(code), std::string::npos) << code << "\n" << top.out;
  }
  const HelpCliRun compare = RunHelpCli({"compare", "--help"});
  EXPECT_NE(compare.out.find("; 3 the gate could not judge"), std::string::npos) << compare.out;
  const HelpCliRun run = RunHelpCli({"run", "tiobench", "--help"});
  EXPECT_NE(run.out.find("; 130 interrupted"), std::string::npos) << run.out;
  // #45: each page lists the codes its command can give, not a neighbour's (copied lines).
  const struct {
    std::vector<std::string> command;
    const char* has;
    std::vector<const char*> lacks;
  } kPages[] = {
      {{"devices"}, "1 the devices could not be read", {"restore", "root"}},
      {{"restore"}, "restore without root", {"devices could not"}},
      {{"history"}, "a --suite that names no suite", {"refused", "written"}},
      {{"history", "import"}, "or a run refused", {"130"}},
      {{"trend"}, "1 the history could not be read", {"refused", "written"}},
      {{"capture"}, "events were lost", {"cell", "fio"}},
      {{"disk", "profiles"}, "Exit codes: 0 printed; 2 bad command line.", {"daemon", "; 1 "}},
      {{"disk", "serve"}, "1 the daemon failed", {"130"}},
      // #45, third pass: `list`, `disk` and `trace` said "unreadable input" of no input.
      {{"list"}, "Exit codes: 0 listed; 2 bad command line (a list", {"input", "file"}},
      {{"disk"}, "1 disk serve's daemon failed", {"input"}},
      {{"trace"}, "a file that is not a readable block trace", {"unreadable input"}},
      {{"trace", "show"}, "a file that is not a readable block trace", {"unreadable input"}},
  };
  for (const auto& page : kPages) {
    std::vector<std::string> args = page.command;
    args.push_back("--help");
    const HelpCliRun r = RunHelpCli(args);
    const std::string codes = r.out.substr(std::min(r.out.find("Exit codes:"), r.out.size()));
    SCOPED_TRACE(page.command[0]);
    EXPECT_NE(codes.find(page.has), std::string::npos) << codes;
    for (const char* wrong : page.lacks) EXPECT_EQ(codes.find(wrong), std::string::npos) << wrong;
  }
}

TEST(CliHelpTest, LimitsAreInPlainWordsWithTheirUnits) {
  const HelpCliRun nick = RunHelpCli({"run", "nickbench", "--help"});
  EXPECT_NE(nick.out.find("--block N (512 to 67108864 bytes)"), std::string::npos) << nick.out;
  EXPECT_EQ(nick.out.find("UINT"), std::string::npos) << nick.out;
  EXPECT_EQ(nick.out.find("INT in ["), std::string::npos) << nick.out;
  const HelpCliRun run = RunHelpCli({"run", "--help"});
  EXPECT_NE(run.out.find("--seed N (0 or more)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--timeout NUMBER (0 to 604800 seconds)"), std::string::npos) << run.out;
  // A directory that is not there: should the check go, the run is still refused, in step 1.
  const std::string nowhere = "/nonexistent/elevbench";
  ExpectHelpUsageError({"run", "tiobench", "--seed", "-1", "--dir", nowhere},
                       "--seed: expected a whole number, 0 or more, not '-1'");
  ExpectHelpUsageError({"run", "tiobench", "--timeout", "-1", "--dir", nowhere},
                       "--timeout: expected 0 to 604800 seconds, not '-1'");
  ExpectHelpUsageError({"run", "nickbench", "--block", "100", "--dir", nowhere},
                       "--block: expected a whole number from 512 to 67108864 bytes, not '100'");
  // #45, fourth pass: 2^64 was clamped to 2^64-1, and a tree's seed of -1 wrapped.
  const std::string two64 = "18446744073709551616";
  ExpectHelpUsageError({"run", "tiobench", "--seed", two64, "--dir", nowhere},
                       "--seed: expected a whole number, 0 or more, not '" + two64 + "'");
  for (const std::vector<std::string>& seed : std::vector<std::vector<std::string>>{
           {"probes", "--tree-seed"}, {"morton", "--tree-seed"}, {"contest", "--compile-seed"}}) {
    for (const std::string& value : {std::string("-1"), two64}) {
      ExpectHelpUsageError({"run", seed[0], seed[1], value, "--dir", nowhere},
                           seed[1] + ": expected a whole number, 0 or more, not '" + value + "'");
    }
  }
  const HelpCliRun probes = RunHelpCli({"run", "probes", "--help"});
  EXPECT_NE(probes.out.find("--tree-seed N (0 or more)"), std::string::npos) << probes.out;
}

// #45: tiobench's and run command's help states the limits the binary enforces, with units,
// and run command takes sizes as the other suites do (64M).
TEST(CliHelpTest, EverySuiteStatesItsLimits) {
  const HelpCliRun tio = RunHelpCli({"run", "tiobench", "--help"});
  for (const char* limit :
       {"--size SIZE (MiB, or 64M, 1G; 1 to 16777216 MiB)", "--block N (512 to 67108864 bytes)",
        "--random N (1 or more operations)", "--numruns N (1 to 1000 runs)", "each 1 to 4096"}) {
    EXPECT_NE(tio.out.find(limit), std::string::npos) << limit << "\n" << tio.out;
  }
  const HelpCliRun command = RunHelpCli({"run", "command", "--help"});
  for (const char* limit : {"--load-size SIZE (MiB, or 64M, 1G; 1 to 1048576 MiB)",
                            "--space SIZE (MiB, or 64M, 1G; 1 to 16777216 MiB)"}) {
    EXPECT_NE(command.out.find(limit), std::string::npos) << limit << "\n" << command.out;
  }
  // Accepted, then refused in step 1 for the --dir that is not there: nothing starts.
  const HelpCliRun sized = RunHelpCli({"run", "command", "--load-size", "64M", "--space", "1G",
                                       "--dir", "/nonexistent/elevbench", "--", "true"});
  EXPECT_EQ(sized.err.find("--load-size"), std::string::npos) << sized.err;
  EXPECT_EQ(sized.err.find("--space"), std::string::npos) << sized.err;
  EXPECT_NE(sized.err.find("--dir"), std::string::npos) << sized.err;
}

// #45: what CLI11 wrote in its own words ("TEXT:{off,summary,full}", "files is required", "A
// subcommand is required", "what: bogus not in {…}") is said plainly.
TEST(CliHelpTest, NoCli11WordingIsLeft) {
  const HelpCliRun run = RunHelpCli({"run", "--help"});
  EXPECT_NE(run.out.find("--trace-requests off|summary|full"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\n\n\n"), std::string::npos) << run.out;  // no doubled blank line
  const HelpCliRun contest = RunHelpCli({"run", "contest", "--help"});
  EXPECT_EQ(contest.out.find("\n\n\n"), std::string::npos) << contest.out;
  const HelpCliRun list = RunHelpCli({"list", "--help"});
  EXPECT_NE(list.out.find("--format text|json"), std::string::npos) << list.out;
  for (const HelpCliRun* page : {&run, &list}) {
    EXPECT_EQ(page->out.find("TEXT:{"), std::string::npos) << page->out;
  }
  ExpectHelpUsageError(
      {"run", "tiobench", "--trace-requests", "sometimes", "--dir", "/nonexistent"},
      "--trace-requests: expected off, summary or full, not 'sometimes'");
  ExpectHelpUsageError(
      {"report"},
      "report needs files: Results JSON files written by 'run' (see elevbench report --help)");
  ExpectHelpUsageError({"run", "fio", "--dir", "/nonexistent"}, "run fio needs job files");
  ExpectHelpUsageError({"list", "bogus"}, "list: no list 'bogus' (suites, formats, schedulers or");
  ExpectHelpUsageError({}, "no subcommand given (one of: run, report, ");
  ExpectHelpUsageError({"trace"},
                       "trace needs a subcommand (one of: show; see elevbench trace --help)");
  // The second newcomer pass: CLI11's own words for a missing value, a repeated option, a bad
  // flag value and a stray word.
  const std::string file = testing::TestDataPath("fixtures/report_probes_dnf.json");
  ExpectHelpUsageError({"compare", file, file, "--alpha"},
                       "--alpha needs a value (see elevbench compare --help)");
  ExpectHelpUsageError({"report", file, "--format", "md", "--format", "csv"},
                       "--format is given more than once (see elevbench report --help)");
  ExpectHelpUsageError({"report", file, "--no-verdict=maybe"},
                       "--no-verdict: 'maybe' is not a value it takes");
  ExpectHelpUsageError({"report", file, "--no-such-flag"},
                       "unexpected --no-such-flag (see elevbench report --help)");
}

TEST(CliHelpTest, HistoryImportListsItsOptions) {
  const HelpCliRun r = RunHelpCli({"history", "import", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--db"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--replace"), std::string::npos) << r.out;
}

// Each with a --dir that is not there: should the refusal go, the run is still refused in step 1
// and makes nothing.
TEST(CliHelpTest, FlagsThatCannotApplyAreRefused) {
  testing::ScopedTempDir temp;
  const std::string out = temp.path() + "/r.json";
  const std::string nowhere = temp.path() + "/nonexistent";
  ExpectHelpUsageError(
      {"run", "tiobench", "--dir", nowhere, "--no-history", "--db", "x.db", "--out", out},
      "--db names the history to record the run in, --no-history records it nowhere");
  ExpectHelpUsageError({"run", "tiobench", "--allow-writes", "--dir", nowhere, "--out", out},
                       "--allow-writes lets a suite write to the --device you name");
  ExpectHelpUsageError({"run", "--size", "0", "tiobench", "--dir", nowhere},
                       "--size is an option of a suite (tiobench, ");
  ExpectHelpUsageError({"run", "--size", "0", "tiobench", "--dir", nowhere},
                       "give it after the suite's name, e.g. `elevbench run tiobench --size");
  ExpectHelpUsageError({"--bogus"}, "unknown option '--bogus'");
  ExpectHelpUsageError({"--version", "extra"},
                       "unexpected 'extra': --version takes no other words");  // fourth pass
  // #45, fourth pass: a folder given as --db is told of a history's name, not of run.json.
  ExpectHelpUsageError({"run", "tiobench", "--dir", nowhere, "--db", temp.path(), "--out", out},
                       "--db " + temp.path() + " is a directory; give a file name such as " +
                           temp.path() + "/history.db");
  ExpectHelpUsageError({"history", "import", out, "--db", temp.path()},
                       "give a file name such as " + temp.path() + "/history.db");
  // #45, fourth pass: after a suite's name, the option is another suite's.
  ExpectHelpUsageError({"run", "nickbench", "--dir", nowhere, "--threads", "4"},
                       "nickbench has no --threads (it is tiobench's; see elevbench run nickbench "
                       "--help)");
  ExpectHelpUsageError({"run", "tiobench", "--dir", nowhere, "--warmup=3"},
                       "tiobench has no --warmup (it is an option of probes, ");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists("x.db"));
}

// One spelling everywhere, the old one kept: --format json where --json is, disk serve's
// --disk-set/--disk-trace as run's, sizes with suffixes as --scratch takes them.
TEST(CliHelpTest, OneSpellingOfAFlagEverywhere) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "suites"}, {"devices"}, {"disk", "profiles"}}) {
    std::vector<std::string> json = args, format = args;
    json.push_back("--json");
    format.insert(format.end(), {"--format", "json"});
    const HelpCliRun a = RunHelpCli(json), b = RunHelpCli(format);
    EXPECT_EQ(b.exit_code, 0) << args[0] << ": " << b.err;
    if (args[0] != "devices") {  // the devices may change between the two
      EXPECT_EQ(a.out, b.out) << args[0];
    }
    EXPECT_EQ(b.out.rfind("[", 0), 0u) << args[0];
  }
  ExpectHelpUsageError({"list", "suites", "--format", "xml"}, "--format");
  const HelpCliRun serve = RunHelpCli({"disk", "serve", "--help"});
  EXPECT_NE(serve.out.find("--disk-set"), std::string::npos) << serve.out;
  EXPECT_NE(serve.out.find("--disk-trace"), std::string::npos) << serve.out;
  // --size 64M is 64 MiB, as --scratch 1G is 1 GiB: refused here only for not fitting.
  ExpectHelpUsageError({"run", "tiobench", "--scratch", "512M", "--size", "1G"}, "does not fit");
  ExpectHelpUsageError({"run", "tiobench", "--scratch", "512M", "--size", "1.5K"},
                       "--size: expected a whole number of MiB, not '1.5K'");
  ExpectHelpUsageError({"run", "nickbench", "--size", "2T", "--scratch", "1G"},
                       "--size: expected a whole number from 1 to 1048576 MiB, not '2097152'");
}

// Every page's options name their values (FILE, LIST, N, …), never CLI11's "TEXT", and a
// required one says so in words, not CLI11's "REQUIRED" (#45, third pass).
TEST(CliHelpTest, EveryOptionNamesItsValue) {
  CLI::App app;
  std::vector<std::vector<std::string>> paths = {{}};
  for (const SubcommandEntry& entry : AllSubcommands()) {
    if (entry.hidden) continue;
    CLI::App* cmd = app.add_subcommand(entry.name, entry.description);
    (void)entry.add(cmd, "");
    HelpCommandPaths(cmd, {}, &paths);
  }
  for (std::vector<std::string> path : paths) {
    path.push_back("--help");
    const HelpCliRun r = RunHelpCli(path);
    SCOPED_TRACE(path[0] + (path.size() > 2 ? " " + path[1] : ""));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find(" TEXT"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("REQUIRED"), std::string::npos) << r.out;
  }
  const HelpCliRun report = RunHelpCli({"report", "--help"});
  EXPECT_NE(report.out.find("files FILE ..."), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("written by 'run' (required)"), std::string::npos) << report.out;
  const HelpCliRun capture = RunHelpCli({"capture", "--help"});
  EXPECT_NE(capture.out.find("--out FILE"), std::string::npos) << capture.out;
  EXPECT_NE(capture.out.find("The trace file to write (required)"), std::string::npos)
      << capture.out;
}

// `kernels fetch --help` is fetch's own page (#45: it printed the page of `kernels`).
TEST(CliHelpTest, KernelsFetchHasItsOwnPage) {
  const HelpCliRun r = RunHelpCli({"kernels", "fetch", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Usage: elevbench kernels fetch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("packages KERNEL ..."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Exit codes: 0 listed (and fetched)"), std::string::npos) << r.out;
  ExpectHelpUsageError({"kernels", "fetch"}, "kernels fetch needs packages");
}

// The fourth newcomer pass: a package the Debian lists do not know, or no kernel image, is bad
// input (exit 2), refused before the cache folder is made; apt-get's failure was exit 1.
TEST(CliHelpTest, KernelsFetchOfAnUnknownPackageIsRefusedBeforeTheCacheIsMade) {
  if (!ProgramInPath("apt-cache")) GTEST_SKIP() << "needs apt-cache (Debian)";
  testing::ScopedTempDir temp;
  const std::string cache = temp.path() + "/cache";
  testing::ScopedEnv env("ELEVBENCH_KERNEL_CACHE", cache);
  for (const char* package : {"debian:linux-image-nosuch-xyz", "debian:bash"}) {
    const ProcessResult r = testing::RunElevbenchCli({"kernels", "fetch", package}, 60);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1) << r.error_output;
    EXPECT_EQ(r.error_output.rfind("elevbench: kernels fetch: ", 0), 0u) << r.error_output;
    EXPECT_NE(r.error_output.find(package), std::string::npos) << r.error_output;
    EXPECT_FALSE(std::filesystem::exists(cache)) << package;
  }
}

// An empty value of an option or a word is refused in one line naming what it takes (#45:
// `report --format ''` printed the default format, `history --db ''` read the default history).
TEST(CliHelpTest, EmptyValuesAreRefused) {
  const std::string file = testing::TestDataPath("fixtures/report_probes_dnf.json");
  ExpectHelpUsageError({"report", file, "--format", ""}, "--format: empty value (expected FORMAT)");
  ExpectHelpUsageError({"devices", "--format", ""}, "--format: empty value (choose text or json)");
  ExpectHelpUsageError({"history", "--db", ""}, "--db: empty value (expected DB)");
  ExpectHelpUsageError({"history", "--suite", " "}, "--suite: empty value (expected SUITE)");
  ExpectHelpUsageError({"history", "import", file, "--db", ""}, "--db: empty value");
  ExpectHelpUsageError({"trend", "--host", ""}, "--host: empty value (expected HOST)");
  ExpectHelpUsageError({"trend", "--metric", ""}, "--metric: empty value");
  ExpectHelpUsageError({"compare", file, "--between", ""}, "--between: empty value (expected A,B)");
  ExpectHelpUsageError({"compare", file, file, "--metrics", ""}, "--metrics: empty value");
  ExpectHelpUsageError({"compare", file, file, "--allow", ""}, "--allow: empty value");
  ExpectHelpUsageError({"compare", file, file, "--format", ""}, "--format: empty value (choose");
  ExpectHelpUsageError({"list", ""},
                       "what: empty value (choose suites, formats, schedulers or profiles)");
  ExpectHelpUsageError({"trace", "show", ""}, "file: empty value (expected FILE)");
}

// `run`'s and its suites' options refuse an empty value alike (#45, fourth pass: `run tiobench
// --dir ''` ran in the working directory), before anything is made; `run command -- CMD ''`
// still passes an empty word to the program.
TEST(CliHelpTest, RunEmptyValuesAreRefused) {
  const std::vector<std::vector<std::string>> refused = {
      {"tiobench", "--dir"},         {"tiobench", "--emulated"},     {"tiobench", "--scratch"},
      {"tiobench", "--device"},      {"tiobench", "--queue"},        {"tiobench", "--format"},
      {"tiobench", "--kernels"},     {"tiobench", "--lanes"},        {"probes", "--tree"},
      {"tiobench", "--guest-clock"}, {"tiobench", "--kernel-image"}, {"contest", "--compile-tree"},
      {"contest", "--compile-cmd"},  {"contest", "--list-dir"},      {"contest", "--other-dir"},
      {"command", "--load-command"}, {"command", "--setup"}};
  for (const std::vector<std::string>& r : refused) {
    SCOPED_TRACE(r[0] + " " + r[1]);
    std::vector<std::string> args = {"run", r[0], r[1], ""};
    if (r[0] == "command") args.insert(args.end(), {"--", "true"});
    ExpectHelpUsageError(args, r[1] + ": empty value");
  }
  ExpectHelpUsageError({"run", "tiobench", "--out", ""}, "--out: empty; give a value");
}

// --json and --format text together are refused, whichever comes first (#45: `devices --json
// --format text` printed text); --json with --format json agree.
TEST(CliHelpTest, JsonAndFormatTextContradict) {
  const std::string trace = testing::TestDataPath("fixtures/trace/small.trace");
  const std::vector<std::vector<std::string>> commands = {
      {"devices"},          {"list", "suites"}, {"history"}, {"trace", "show", trace},
      {"disk", "profiles"}, {"kernels"}};
  for (const std::vector<std::string>& command : commands) {
    SCOPED_TRACE(command[0]);
    std::vector<std::string> args = command;
    args.insert(args.end(), {"--json", "--format", "text"});
    ExpectHelpUsageError(args, "--format text: contradicts --json (give one of them)");
    args = command;
    args.insert(args.end(), {"--format", "text", "--json"});
    ExpectHelpUsageError(args, "--format text: contradicts --json");
  }
  const HelpCliRun agree = RunHelpCli({"list", "suites", "--json", "--format", "json"});
  EXPECT_EQ(agree.exit_code, 0) << agree.err;
  EXPECT_EQ(agree.out.rfind("[", 0), 0u) << agree.out;
}

// README's usage block says it holds every subcommand and suite: it left out orasim.
TEST(CliHelpTest, TheReadmeShowsEverySubcommandAndSuite) {
  const std::string readme =
      testing::ReadTestFile(std::string(ELEVBENCH_SOURCE_DIR) + "/README.md");
  for (const SubcommandEntry& entry : AllSubcommands()) {
    if (entry.hidden) continue;
    EXPECT_NE(readme.find("build/elevbench " + std::string(entry.name)), std::string::npos)
        << entry.name;
  }
  for (const SuiteEntry& suite : AllSuites()) {
    EXPECT_NE(readme.find("build/elevbench run " + std::string(suite.name) + " "),
              std::string::npos)
        << suite.name;
  }
}

// A help page's text with its wrapping undone: every run of spaces and newlines one space.
std::string Unwrapped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') c = ' ';
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  }
  return out;
}

// #45, fourth pass: what the help says a run does without --schedulers is what it does (every
// scheduler the kernel offers on a device elevbench makes), and run replay's line names the
// replayer it uses by default (it said "replayed by fio").
TEST(CliHelpTest, TheHelpSaysWhatTheDefaultsDo) {
  const std::string run = Unwrapped(RunHelpCli({"run", "--help"}).out);
  for (const char* says :
       {"(default: the suite's own list where it has one (post-2003); else, as root on a device "
        "elevbench makes (--scratch, --emulated), every scheduler the kernel offers; else (--dir, "
        "--device, or not root) the device's current scheduler only; given "
        "without root: refused)",
        "replayed on a raw device by elevbench's dependent replayer"}) {
    EXPECT_NE(run.find(says), std::string::npos) << says << "\n" << run;
  }
  const std::string replay = Unwrapped(RunHelpCli({"run", "replay", "--help"}).out);
  const std::string suites = Unwrapped(RunHelpCli({"list", "suites"}).out);
  for (const std::string* page : {&run, &replay, &suites}) {
    EXPECT_EQ(page->find("replayed by fio"), std::string::npos) << *page;
    EXPECT_EQ(page->find("one fio job per traced process, on"), std::string::npos) << *page;
  }
  EXPECT_NE(suites.find("elevbench's dependent replayer"), std::string::npos) << suites;
  const std::string readme =
      Unwrapped(testing::ReadTestFile(std::string(ELEVBENCH_SOURCE_DIR) + "/README.md"));
  EXPECT_NE(readme.find("Without `--schedulers`: the suite's own list where it has one"),
            std::string::npos);
}

// #45: a directory given to trace show is named as one, as report does ("line 1: empty file").
TEST(CliHelpTest, TraceShowOfADirectorySaysSo) {
  testing::ScopedTempDir temp;
  ExpectHelpUsageError({"trace", "show", temp.path()},
                       temp.path() + " is a directory, not a block trace");
  ExpectHelpUsageError({"report", temp.path()}, " is a directory, not a results file");
}

// The lines of a doc's code block that follow the line starting with `after`, to its end.
std::string QuotedAfter(const std::string& doc, const std::string& after) {
  const size_t at = doc.find("\n" + after);
  if (at == std::string::npos) return "";
  const size_t from = doc.find('\n', at + 1) + 1;
  const size_t end = doc.find("```", from);
  return end == std::string::npos ? "" : doc.substr(from, end - from);
}

// #45: docs/morton.md and docs/visave.md say their run's quote "is" a golden file, which is what
// `report` prints of the fixture; the quotes had lost the Units line and the verdict block.
// README's quickstart quote is a real run's, so its header and table heading are checked
// against what `report` prints of a tiobench file today.
TEST(CliHelpTest, TheDocsQuoteWhatTheCommandsPrint) {
  const std::string source = ELEVBENCH_SOURCE_DIR;
  const struct {
    const char* doc;
    const char* after;
    const char* golden;
  } kQuotes[] = {
      {"/docs/morton.md", "    --repetitions 2 --seed 7 --out /var/tmp/morton-x.json",
       "golden/morton_small.txt"},
      {"/docs/visave.md", "    --no-drop-caches --repetitions 2 --seed 7 --out /var/tmp/vs-x.json",
       "golden/visave_small.txt"},
  };
  for (const auto& q : kQuotes) {
    SCOPED_TRACE(q.doc);
    const std::string quoted = QuotedAfter(testing::ReadTestFile(source + q.doc), q.after);
    EXPECT_EQ(quoted, testing::ReadTestFile(testing::TestDataPath(q.golden)));
  }
  const std::string readme =
      QuotedAfter(testing::ReadTestFile(source + "/README.md"), "$ ./scripts/quickstart");
  const HelpCliRun report =
      RunHelpCli({"report", testing::TestDataPath("fixtures/report_tiobench_5cfg.json")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const size_t units = report.out.find("Units: ");
  ASSERT_NE(units, std::string::npos) << report.out;
  const size_t table = report.out.find("File size = ", units);
  ASSERT_NE(table, std::string::npos) << report.out;
  // "Units: …\n\nUnit information\n================\n" as the command prints it...
  EXPECT_NE(readme.find("\n" + report.out.substr(units, table - units)), std::string::npos)
      << readme;
  // ...and the first section's heading.
  const size_t section = report.out.find("\nSequential Reads\n");
  ASSERT_NE(section, std::string::npos) << report.out;
  const size_t rows = report.out.find("---\n", section);
  EXPECT_NE(readme.find(report.out.substr(section, rows + 4 - section)), std::string::npos)
      << readme;
}

}  // namespace
}  // namespace elevbench
