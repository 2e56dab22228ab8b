// The subcommands' glue with the table of suites (app/suites_commands.h): a suite's own
// setting fills only what the command line left out, the run's options that need another,
// what `list` lists, the report, compare and history import of results files.

#include "app/suites_commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace elevbench {
namespace {

const SuiteRunDefaults kPostLike = {"ide-2003", "ext2", "p4-2003", "mq-deadline@DL,none"};

TEST(RunDefaultsTest, NothingGivenTakesTheWholeSetting) {
  RunOptions o;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, GivenRunOptions{}, &o);
  EXPECT_EQ(o.config.target.emulated, "ide-2003");
  EXPECT_TRUE(o.config.emulated_by_default);  // without root: a fallback, not a refusal (#45)
  EXPECT_EQ(o.config.target.fs, "ext2");
  EXPECT_EQ(o.config.machine, "p4-2003");
  EXPECT_EQ(o.config.schedulers, "mq-deadline@DL,none");
  EXPECT_EQ(applied,
            "--emulated ide-2003 --fs ext2 --machine p4-2003 --schedulers mq-deadline@DL,none");
}

TEST(RunDefaultsTest, AGivenTargetKeepsItsOwnFsAndMachineButStillTakesTheSchedulers) {
  RunOptions o;
  o.config.directory = "/some/dir";
  GivenRunOptions given;
  given.target = true;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, given, &o);
  EXPECT_EQ(o.config.directory, "/some/dir");
  EXPECT_EQ(o.config.target.emulated, "");
  EXPECT_FALSE(o.config.emulated_by_default);
  EXPECT_EQ(o.config.target.fs, "ext4");  // TargetSpec's own default
  EXPECT_EQ(o.config.machine, "");
  EXPECT_EQ(o.config.schedulers, "mq-deadline@DL,none");
  EXPECT_EQ(applied, "--schedulers mq-deadline@DL,none");
}

TEST(RunDefaultsTest, GivenOptionsWinEvenWhenEmpty) {
  RunOptions o;
  o.config.target.fs = "xfs";
  o.config.schedulers = "";  // --schedulers "" given: the current scheduler, not the suite's list
  GivenRunOptions given;
  given.fs = true;
  given.machine = true;
  given.schedulers = true;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, given, &o);
  EXPECT_EQ(o.config.target.emulated, "ide-2003");
  EXPECT_EQ(o.config.target.fs, "xfs");
  EXPECT_EQ(o.config.machine, "");
  EXPECT_EQ(o.config.schedulers, "");
  EXPECT_EQ(applied, "--emulated ide-2003");
}

TEST(RunDefaultsTest, ASuiteWithoutASettingChangesNothing) {
  RunOptions o;
  EXPECT_EQ(ApplySuiteRunDefaults(SuiteRunDefaults{}, GivenRunOptions{}, &o), "");
  EXPECT_EQ(o.config.target.emulated, "");
  EXPECT_EQ(o.config.schedulers, "");
}

TEST(RunDefaultsTest, OnlyPost2003HasASetting) {
  for (const SuiteEntry& entry : AllSuites()) {
    const bool has = !entry.defaults.emulated.empty() || !entry.defaults.schedulers.empty();
    EXPECT_EQ(has, std::string(entry.name) == "post-2003") << entry.name;
  }
}

// The flags a test's command line gave.
FlagGiven GivenFlags(std::vector<std::string> flags) {
  return [flags](const std::string& flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  };
}

TEST(SuitesCommandsTest, GivenRunOptionsOfReadsTheTargetFlags) {
  const GivenRunOptions given = GivenRunOptionsOf(GivenFlags({"--scratch", "--schedulers"}));
  EXPECT_TRUE(given.target);
  EXPECT_FALSE(given.fs);
  EXPECT_FALSE(given.machine);
  EXPECT_TRUE(given.schedulers);
  EXPECT_FALSE(GivenRunOptionsOf(GivenFlags({"--fs"})).target);
}

TEST(SuitesCommandsTest, OptionsThatNeedAnotherAreRefusedWithoutIt) {
  RunOptions o;
  o.entry = FindSuite("tiobench");
  ASSERT_NE(o.entry, nullptr);
  std::string err;
  EXPECT_TRUE(CheckRunOptionCombinations(o, GivenFlags({"--dir"}), &err)) << err;
  EXPECT_FALSE(CheckRunOptionCombinations(o, GivenFlags({"--dir", "--fs"}), &err));
  EXPECT_EQ(err, "--fs applies to a device elevbench makes (--emulated, --scratch), not to --dir");
  EXPECT_FALSE(CheckRunOptionCombinations(o, GivenFlags({"--scratch", "--keep-wbt"}), &err));
  EXPECT_EQ(err, "--keep-wbt applies to an emulated disk (--emulated), not to --scratch");
  EXPECT_FALSE(CheckRunOptionCombinations(o, GivenFlags({"--ci-width"}), &err));
  EXPECT_EQ(err, "--ci-width applies only with --repetitions auto");
  o.config.repetitions = "auto";
  EXPECT_TRUE(CheckRunOptionCombinations(o, GivenFlags({"--ci-width"}), &err)) << err;
  o.config.schedulers = " ";
  EXPECT_FALSE(CheckRunOptionCombinations(o, GivenFlags({"--schedulers"}), &err));
  EXPECT_EQ(err, "--schedulers: empty; give 'all' or a list such as mq-deadline,bfq");
}

TEST(SuitesCommandsTest, ASuiteThatNeedsATimeoutRefusesTimeoutZero) {
  RunOptions o;
  o.entry = FindSuite("command");
  ASSERT_NE(o.entry, nullptr);
  std::string err;
  EXPECT_TRUE(CheckRunOptionCombinations(o, GivenFlags({}), &err)) << err;
  EXPECT_FALSE(CheckRunOptionCombinations(o, GivenFlags({"--timeout"}), &err));
  EXPECT_EQ(err,
            "--timeout: run command needs a limit of more than 0 seconds (without --timeout: 20 "
            "minutes)");
}

TEST(SuitesCommandsTest, RunConfigOfTakesTheSuitesRow) {
  RunOptions o;
  o.entry = FindSuite("nickbench");
  ASSERT_NE(o.entry, nullptr);
  o.config.directory = "/d";
  const RunConfig config = RunConfigOf(o);
  EXPECT_EQ(config.suite_name, "nickbench");
  EXPECT_EQ(config.formats, o.entry->formats);
  EXPECT_EQ(config.lane_cpus, o.entry->lane_cpus);
  EXPECT_EQ(config.directory, "/d");
}

TEST(SuitesCommandsTest, TheFormatsHelpNamesEverySuite) {
  const std::string help = SuiteFormatsHelp();
  for (const SuiteEntry& e : AllSuites()) {
    EXPECT_NE(help.find(std::string(e.name) + ": " + e.formats.front()), std::string::npos)
        << e.name;
  }
  EXPECT_NE(ReportFormatsHelp().find("(" + help + ") or, for every suite, "), std::string::npos);
}

TEST(SuitesCommandsTest, ListsComeFromTheTables) {
  EXPECT_EQ(ListJson("suites").size(), AllSuites().size());
  const nlohmann::json schedulers = nlohmann::json::array({"none", "bfq"});
  EXPECT_EQ(ListText("schedulers", schedulers), "none\nbfq\n");
  const nlohmann::json formats =
      nlohmann::json::array({{{"name", "nick"}, {"suite", "tiobench"}, {"per_file", true}},
                             {{"name", "md"}, {"suite", nullptr}, {"per_file", false}}});
  // #45: the names in one column; every profile, a disk's too, has a description.
  EXPECT_EQ(ListText("formats", formats), "nick  a format of tiobench\nmd    every suite\n");
  size_t disks = 0;
  for (const nlohmann::json& p : ListJson("profiles")) {
    disks += p["kind"] == "disk";
    EXPECT_TRUE(p.contains("description")) << p.dump();
  }
  EXPECT_GT(disks, 0u);
  EXPECT_NE(ListText("profiles", ListJson("profiles"))
                .find("ide-2003     disk: rotating, 7200 rpm, avg seek 9 ms, 40 GB, no command "
                      "queueing\n"),
            std::string::npos)
      << ListText("profiles", ListJson("profiles"));
}

TEST(SuitesCommandsTest, AReportOfAnUnreadableFileIsRefused) {
  const std::string good = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  for (const char* format : {"", "md"}) {
    ReportText report;
    std::string err;
    EXPECT_FALSE(
        ReportResultsFiles({good, "/nonexistent/x.json"}, format, ReportOptions{}, &report, &err));
    EXPECT_NE(err.find("/nonexistent/x.json"), std::string::npos) << err;
    ASSERT_TRUE(ReportResultsFiles({good}, format, ReportOptions{}, &report, &err)) << err;
    EXPECT_FALSE(report.text.empty());
    EXPECT_TRUE(report.unfinished.empty());
  }
}

TEST(SuitesCommandsTest, CompareNeedsTwoFilesOrBetween) {
  CompareCommandOptions options;
  options.base_path = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  ComparedFiles files;
  std::string err;
  EXPECT_FALSE(CompareResultsFiles(options, &files, &err));
  EXPECT_EQ(err, "compare needs two results files, or one with --between A,B");
  options.new_path = options.base_path;
  ASSERT_TRUE(CompareResultsFiles(options, &files, &err)) << err;
  EXPECT_EQ(files.comparison.base_name, options.base_path);
  EXPECT_EQ(files.comparison.new_name, options.base_path);
  EXPECT_EQ(CompareReportText(files.comparison, "json").back(), '\n');
}

TEST(SuitesCommandsTest, ImportTriesEveryFileAndOpensTheHistoryAtTheFirstReadableOne) {
  testing::ScopedTempDir dir;
  const std::string db = dir.path() + "/h.db";
  std::vector<ImportedFile> seen;
  auto report = [&seen](const ImportedFile& f) { seen.push_back(f); };
  std::string err;
  ASSERT_TRUE(ImportResultsFiles({dir.path() + "/missing.json"}, db, false, report, &err)) << err;
  EXPECT_FALSE(std::filesystem::exists(db));  // a refused import makes no file
  const std::string file = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  ASSERT_TRUE(ImportResultsFiles({file, file}, db, false, report, &err)) << err;
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_FALSE(seen[0].readable);
  EXPECT_TRUE(seen[1].recorded) << seen[1].err;
  EXPECT_EQ(seen[1].outcome, AppendOutcome::kAdded);
  EXPECT_TRUE(seen[2].recorded) << seen[2].err;
  EXPECT_EQ(seen[2].outcome, AppendOutcome::kUnchanged);
  EXPECT_EQ(seen[2].id, seen[1].id);
}

// #45: a file of a finished run the history holds with other cells replaced it silently
// ("updated run 1"); now it is refused unless --replace, which says what it replaced.
TEST(SuitesCommandsTest, ImportRefusesAnotherVersionOfAFinishedRunUnlessReplace) {
  testing::ScopedTempDir dir;
  const std::string db = dir.path() + "/h.db";
  const std::string file = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  nlohmann::json other = nlohmann::json::parse(testing::ReadTestFile(file));
  other["cells"][0]["status"] = "failed";
  other["cells"][0]["error"] = "fio failed (exit 1): test";
  const std::string changed = dir.path() + "/changed.json";
  std::ofstream(changed) << other.dump();
  std::vector<ImportedFile> seen;
  auto report = [&seen](const ImportedFile& f) { seen.push_back(f); };
  std::string err;
  ASSERT_TRUE(ImportResultsFiles({file, changed}, db, false, report, &err)) << err;
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[0].recorded) << seen[0].err;
  EXPECT_TRUE(seen[1].refused);
  EXPECT_FALSE(seen[1].recorded);
  EXPECT_NE(seen[1].err.find("run 1 of the history is this run"), std::string::npos) << seen[1].err;
  EXPECT_NE(seen[1].err.find("--replace"), std::string::npos) << seen[1].err;
  ASSERT_TRUE(ImportResultsFiles({changed}, db, true, report, &err)) << err;
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_TRUE(seen[2].recorded) << seen[2].err;
  EXPECT_EQ(seen[2].outcome, AppendOutcome::kUpdated);
  EXPECT_EQ(seen[2].err,
            "run 1 had 20 ok, 0 failed, 0 interrupted, complete; now 19 ok, 1 failed, 0 "
            "interrupted, complete");
}

// `run`'s suite from its words: none, an unknown one, or a word after the suite's name.
TEST(RunSuiteChoiceTest, TheSuiteOrWhatWentWrongWithIt) {
  RunOptions o;
  std::string err;
  const size_t none = AllSuites().size();
  EXPECT_FALSE(ChooseRunSuite(none, "", &o, &err));
  EXPECT_EQ(err.rfind("no suite given (available: " + std::string(AllSuites()[0].name), 0), 0u)
      << err;
  EXPECT_FALSE(ChooseRunSuite(none, "tiobnech", &o, &err));
  EXPECT_EQ(err.rfind("unknown suite 'tiobnech' (available: ", 0), 0u) << err;
  EXPECT_FALSE(ChooseRunSuite(0, "extra", &o, &err));
  const std::string name = AllSuites()[0].name;
  EXPECT_EQ(err, "unexpected word 'extra' (" + name +
                     "'s options go after the suite's name as --option VALUE; see elevbench run " +
                     name + " --help)");
  ASSERT_TRUE(ChooseRunSuite(0, "", &o, &err)) << err;
  EXPECT_EQ(o.entry, &AllSuites()[0]);
}

// After the suite is chosen: the combinations refused, then its defaults said in a note.
TEST(RunSuiteChoiceTest, PreparingFillsTheDefaultsAndSaysSo) {
  const auto tiobench =
      std::find_if(AllSuites().begin(), AllSuites().end(),
                   [](const SuiteEntry& e) { return e.name == std::string("tiobench"); });
  ASSERT_NE(tiobench, AllSuites().end());
  RunOptions o;
  o.entry = &*tiobench;
  std::string err;
  ASSERT_TRUE(PrepareRunOptions([](const std::string&) { return false; }, &o, &err)) << err;
  RunOptions fresh;
  const std::string applied = ApplySuiteRunDefaults(tiobench->defaults, GivenRunOptions{}, &fresh);
  EXPECT_EQ(o.defaults_note.empty(), applied.empty());
  if (!applied.empty()) {
    EXPECT_EQ(o.defaults_note, "tiobench runs by default with " + applied);
  }
  RunOptions bad;
  bad.entry = &*tiobench;
  bad.config.directory = "/tmp";
  bad.config.target.fs = "ext4";
  const FlagGiven given = [](const std::string& flag) { return flag == "--dir" || flag == "--fs"; };
  EXPECT_FALSE(PrepareRunOptions(given, &bad, &err));
  EXPECT_TRUE(bad.defaults_note.empty());
}

TEST(ListNameTest, TheFourListsAndNoOther) {
  std::string err;
  for (const char* what : {"suites", "formats", "schedulers", "profiles"}) {
    EXPECT_TRUE(CheckListName(what, &err)) << what << ": " << err;
  }
  EXPECT_FALSE(CheckListName("bogus", &err));
  EXPECT_EQ(err,
            "list: no list 'bogus' (suites, formats, schedulers or profiles; see elevbench list "
            "--help)");
}

// #45, fourth pass: --alpha beside --no-significance was ignored.
TEST(SuitesCommandsTest, CompareRefusesAlphaWithoutTheTest) {
  CompareCommandOptions options;
  options.base_path = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  options.new_path = options.base_path;
  options.alpha_given = true;
  options.no_significance = true;
  ComparedFiles files;
  std::string err;
  EXPECT_FALSE(CompareResultsFiles(options, &files, &err));
  EXPECT_EQ(err,
            "--alpha is the U test's level, --no-significance skips the test: give one of them");
  options.no_significance = false;
  EXPECT_TRUE(CompareResultsFiles(options, &files, &err)) << err;
}

}  // namespace
}  // namespace elevbench
