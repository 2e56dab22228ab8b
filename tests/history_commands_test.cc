// The steps of `history`, `history import` and `trend` below their command line
// (harness/history/history_commands.h, history_import.h): import's options and database checked
// before any file is read, each file's outcome as a line and an exit kind, the filters and the
// trend's series read from a history, and the flags' tables.

#include "harness/history/history_commands.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "app/suites_history.h"
#include "harness/history/history_import.h"
#include "reporters/history_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Which of `history`'s flags the command line gave, for CheckHistoryImportOptions.
std::function<bool(const std::string&)> HistoryFlagsGiven(std::set<std::string> given) {
  return [given](const std::string& flag) { return given.count(flag) > 0; };
}

TEST(HistoryCommandsTest, ImportRefusesTheListsOptions) {
  for (const char* flag : {"--suite", "--host", "--last", "--json", "--format"}) {
    HistoryCommandConfig c;
    std::string err;
    EXPECT_FALSE(CheckHistoryImportOptions(HistoryFlagsGiven({flag}), false, &c, &err)) << flag;
    EXPECT_EQ(err, std::string(flag) +
                       " applies to the list of runs (elevbench history), not to history import, "
                       "which adds each file whole");
  }
}

// #45: of `history --db A import --db B` the last won; now one history is asked for.
TEST(HistoryCommandsTest, ImportTakesOneDbFromEitherPlace) {
  HistoryCommandConfig c;
  c.db = "a.db";
  c.import_db = "b.db";
  std::string err;
  EXPECT_FALSE(CheckHistoryImportOptions(HistoryFlagsGiven({"--db"}), true, &c, &err));
  EXPECT_EQ(err, "--db given twice, a.db and b.db: give one history to import into");
  c.import_db = "a.db";
  EXPECT_TRUE(CheckHistoryImportOptions(HistoryFlagsGiven({"--db"}), true, &c, &err)) << err;
  EXPECT_EQ(c.db, "a.db");
  c = HistoryCommandConfig{};
  c.import_db = "b.db";
  EXPECT_TRUE(CheckHistoryImportOptions(HistoryFlagsGiven({}), true, &c, &err)) << err;
  EXPECT_EQ(c.db, "b.db");  // import's --db is the history's
  c = HistoryCommandConfig{};
  c.db = "a.db";
  EXPECT_TRUE(CheckHistoryImportOptions(HistoryFlagsGiven({"--db"}), false, &c, &err)) << err;
  EXPECT_EQ(c.db, "a.db");
}

// #45: a database in a folder that does not exist is refused before any file is read.
TEST(HistoryCommandsTest, ImportDbInAMissingFolderIsRefused) {
  testing::ScopedTempDir dir;
  std::string err;
  EXPECT_TRUE(CheckHistoryImportDb("", &err)) << err;
  EXPECT_TRUE(CheckHistoryImportDb(dir.path() + "/h.db", &err)) << err;
  EXPECT_TRUE(CheckHistoryImportDb("postgresql://u@host/db", &err)) << err;
  EXPECT_FALSE(CheckHistoryImportDb(dir.path() + "/missing/h.db", &err));
  EXPECT_NE(err.find("--db"), std::string::npos) << err;
}

TEST(HistoryCommandsTest, EachImportedFileHasItsLineAndExitKind) {
  ImportedFile recorded;
  recorded.file = "a.json";
  recorded.readable = recorded.recorded = true;
  EXPECT_EQ(ImportedFileError(recorded), "");
  EXPECT_FALSE(ImportedFileIsUsageError(recorded));
  ImportedFile unreadable;
  unreadable.file = "b.json";
  unreadable.err = "b.json: no such file";
  EXPECT_EQ(ImportedFileError(unreadable), "b.json: no such file");  // the reader's names it
  EXPECT_TRUE(ImportedFileIsUsageError(unreadable));
  ImportedFile refused;
  refused.file = "c.json";
  refused.readable = refused.refused = true;
  refused.err = "run 1 of the history is this run";
  EXPECT_EQ(ImportedFileError(refused), "c.json: run 1 of the history is this run");
  EXPECT_TRUE(ImportedFileIsUsageError(refused));
  ImportedFile failed;
  failed.file = "d.json";
  failed.readable = true;
  failed.err = "database is locked";
  EXPECT_EQ(ImportedFileError(failed), "d.json: database is locked");
  EXPECT_FALSE(ImportedFileIsUsageError(failed));  // the history's failure: exit 1
}

TEST(HistoryCommandsTest, AMissingHistoryIsTheCommandLinesError) {
  testing::ScopedTempDir dir;
  HistoryCommandConfig c;
  c.db = dir.path() + "/none.db";
  std::vector<HistoryRun> runs;
  bool usage = false;
  std::string err;
  EXPECT_FALSE(ListHistoryRuns(c, {"tiobench"}, &runs, &usage, &err));
  EXPECT_TRUE(usage);
  EXPECT_FALSE(err.empty());
  Trend trend;
  std::vector<std::string> hosts;
  usage = false;
  EXPECT_FALSE(ReadHistoryTrend(c, &trend, &hosts, &usage, &err));
  EXPECT_TRUE(usage);
  EXPECT_FALSE(std::filesystem::exists(c.db));  // reading makes no database
}

TEST(HistoryCommandsTest, ListsTheImportedRunAndRefusesFiltersThatMatchNothing) {
  testing::ScopedTempDir dir;
  HistoryCommandConfig c;
  c.db = dir.path() + "/h.db";
  const std::string file = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  std::string err;
  ASSERT_TRUE(ImportResultsFiles(
      {file}, c.db, false, [](const ImportedFile&) {}, &err))
      << err;
  std::vector<HistoryRun> runs;
  bool usage = true;
  ASSERT_TRUE(ListHistoryRuns(c, {"tiobench"}, &runs, &usage, &err)) << err;
  EXPECT_FALSE(usage);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].suite, "tiobench");
  c.suite = "nosuch";
  EXPECT_FALSE(ListHistoryRuns(c, {"tiobench"}, &runs, &usage, &err));
  EXPECT_TRUE(usage);
  EXPECT_NE(err.find("--suite nosuch"), std::string::npos) << err;
  c.suite = "";
  c.host = "nosuchhost";
  EXPECT_FALSE(ListHistoryRuns(c, {"tiobench"}, &runs, &usage, &err));
  EXPECT_TRUE(usage);
  EXPECT_NE(err.find("--host nosuchhost"), std::string::npos) << err;
}

TEST(HistoryCommandsTest, TheTrendOfOneRunHasOnePointAndOneHost) {
  testing::ScopedTempDir dir;
  HistoryCommandConfig c;
  c.db = dir.path() + "/h.db";
  const std::string file = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  std::string err;
  ASSERT_TRUE(ImportResultsFiles(
      {file}, c.db, false, [](const ImportedFile&) {}, &err))
      << err;
  Trend trend;
  std::vector<std::string> hosts;
  bool usage = false;
  c.section = "nosuchsection";
  EXPECT_FALSE(ReadHistoryTrend(c, &trend, &hosts, &usage, &err));
  EXPECT_TRUE(usage) << err;  // names no series: the command line's
  EXPECT_EQ(MixedHostsNote(hosts), "");
}

TEST(HistoryCommandsTest, AMixOfHostsIsSaidOnce) {
  EXPECT_EQ(MixedHostsNote({}), "");
  EXPECT_EQ(MixedHostsNote({"box"}), "");
  EXPECT_EQ(MixedHostsNote({"box", ""}),
            "the series mixes 2 hosts (box, (none)): changes between them are not changes of one "
            "box; --host H follows one");
}

TEST(HistoryCommandsTest, TheFlagsTablesNameEachFlagOnceWithHelpAndValue) {
  for (const std::vector<HistoryFlag>* table : {&HistoryListFlags(), &TrendFlags()}) {
    std::set<std::string> names;
    for (const HistoryFlag& flag : *table) {
      EXPECT_TRUE(names.insert(flag.name).second) << flag.name;
      EXPECT_FALSE(std::string(flag.help).empty()) << flag.name;
      EXPECT_FALSE(std::string(flag.value_name).empty()) << flag.name;
    }
    EXPECT_EQ(table->front().name, std::string("--db"));  // first in --help, as it was
  }
  HistoryCommandConfig c;
  c.*TrendFlags()[4].field = "DL";
  EXPECT_EQ(c.configuration, "DL");  // --config sets the configuration
}

}  // namespace
}  // namespace elevbench
