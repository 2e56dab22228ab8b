// `elevbench history` and `elevbench trend` as a user meets them, run through the built binary:
// import, then history and trend; mixed hosts; a missing or corrupt database; and `run`
// recording itself (root: real fio).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/process/subprocess.h"
#include "history_fixture.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::HistorySqliteTest;
using testing::TiobenchRun;

// ---- The command line ---------------------------------------------------------------------

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

CliResult Elevbench(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), ELEVBENCH_BINARY);
  ProcessOptions options;
  options.timeout_seconds = 300;
  options.working_directory = cwd;
  ProcessResult r;
  std::string err;
  EXPECT_TRUE(RunProcess(args, options, &r, &err)) << err;
  return {r.exit_code, r.output, r.error_output};
}

class HistoryCliTest : public HistorySqliteTest {
 protected:
  std::string CopyOf(const std::string& golden) {
    const std::string path = temp_.path() + "/" + golden;
    std::filesystem::copy_file(testing::TestDataPath("golden/" + golden), path);
    return path;
  }
};

TEST_F(HistoryCliTest, ImportThenHistoryAndTrend) {
  const std::string tio = CopyOf("results_small.json");
  const std::string nick = CopyOf("nickbench_small.json");
  CliResult r = Elevbench({"history", "import", tio, nick, "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": added as run 1\n" + nick + ": added as run 2\n");
  r = Elevbench({"history", "import", tio, "--db", db_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": already recorded as run 1\n");

  r = Elevbench({"history", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ID  TIME"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tiobench"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6.18.44-dl,6.18.44-bfq-ll0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nickbench"), std::string::npos) << r.out;
  r = Elevbench({"history", "--db", db_, "--suite", "nickbench", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json runs = nlohmann::json::parse(r.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["suite"], "nickbench");
  EXPECT_EQ(runs[0]["configurations"], nlohmann::json::array({"DL"}));
  EXPECT_EQ(runs[0]["results_path"], nick);

  r = Elevbench({"trend", "--db", db_, "--suite", "tiobench", "--section", "seq_read", "--config",
                 "mq-deadline"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tiobench seq_read threads=1, configuration mq-deadline: rate_mb_s"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2026-11-29T23:00:00Z"), std::string::npos) << r.out;  // its one run
  // #45: the code the rows show, in any case, in a file without labels.
  for (const char* code : {"dl", "DL", "6.18.44-DL"}) {
    const auto c = Elevbench(
        {"trend", "--db", db_, "--suite", "tiobench", "--section", "seq_read", "--config", code});
    ASSERT_EQ(c.exit_code, 0) << code << ": " << c.err;
    EXPECT_NE(c.out.find("2026-11-29T23:00:00Z"), std::string::npos) << code << ": " << c.out;
  }
  // nickbench: one section row, the only configuration chosen by default.
  r = Elevbench({"trend", "--db", db_, "--suite", "nickbench", "--section", "bench2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("configuration DL: io_rate_mb_s"), std::string::npos) << r.out;

  r = Elevbench({"trend", "--db", db_, "--suite", "tiobench", "--section", "seq"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "elevbench: no section 'seq' in tiobench (sections: seq_read, random_read, seq_write, "
            "random_write)\n");
}

TEST_F(HistoryCliTest, TrendSaysWhenItMixesHosts) {
  for (const char* host : {"box1", "box2"}) {
    const std::string path = temp_.path() + "/" + host + ".json";
    std::string err;
    ASSERT_TRUE(SaveResultsFile(path, TiobenchRun("2026-12-01T10:00:00Z", host, {40}), &err))
        << err;
    ASSERT_EQ(Elevbench({"history", "import", path, "--db", db_}).exit_code, 0);
  }
  CliResult r =
      Elevbench({"trend", "--db", db_, "--section", "seq_read", "--config", "mq-deadline"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: the series mixes 2 hosts (box1, box2)"), std::string::npos) << r.err;
  r = Elevbench(
      {"trend", "--db", db_, "--section", "seq_read", "--config", "mq-deadline", "--host", "box2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("configuration mq-deadline, host box2"), std::string::npos) << r.out;
}

// #45: a run without a host name shows "(none)" in history's and trend's HOST column and in the
// mixed-hosts note (it showed a blank column and "mixes 2 hosts (, vm)").
TEST_F(HistoryCliTest, AMissingHostShowsAsNone) {
  const std::pair<const char*, const char*> runs[] = {{"2026-12-01T10:00:00Z", ""},
                                                      {"2026-12-01T11:00:00Z", "box1"}};
  for (const auto& [time, host] : runs) {
    const std::string path = temp_.path() + "/" + (*host ? host : "nohost") + ".json";
    std::string err;
    ASSERT_TRUE(SaveResultsFile(path, TiobenchRun(time, host, {40}), &err)) << err;
    ASSERT_EQ(Elevbench({"history", "import", path, "--db", db_}).exit_code, 0);
  }
  CliResult r = Elevbench({"history", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2026-12-01T10:00:00Z  (none)  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2026-12-01T11:00:00Z  box1    "), std::string::npos) << r.out;
  r = Elevbench({"trend", "--db", db_, "--section", "seq_read", "--config", "mq-deadline"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2026-12-01T10:00:00Z  (none)  "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("note: the series mixes 2 hosts ((none), box1)"), std::string::npos)
      << r.err;
}

TEST_F(HistoryCliTest, ReadingANonexistentOrCorruptDatabase) {
  CliResult r = Elevbench({"history"}, temp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "elevbench: history results/history.db: no such file (every 'elevbench run' records "
            "there; --db names another)\n");
  EXPECT_FALSE(std::filesystem::exists(temp_.path() + "/results"));
  std::ofstream(db_) << "not a database at all, clearly";
  r = Elevbench({"trend", "--db", db_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "elevbench: history " + db_ + ": file is not a database\n");
}

// #45: --last's limits in plain words, an unknown --suite or --host refused as trend refuses it, an
// import --db whose folder is not there refused before any file is read.
TEST_F(HistoryCliTest, BadLimitsAndNamesAreRefusedInOneLine) {
  const std::string tio = CopyOf("results_small.json");
  ASSERT_EQ(Elevbench({"history", "import", tio, "--db", db_}).exit_code, 0);
  for (const char* last : {"0", "-1"}) {
    const CliResult r = Elevbench({"history", "--db", db_, "--last", last});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.err, std::string("elevbench: --last: expected a whole number, 1 or more, not '") +
                         last + "' (see --help)\n");
  }
  CliResult r = Elevbench({"history", "--db", db_, "--suite", "nosuch"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err.rfind("elevbench: --suite nosuch: no such suite (suites: tiobench, ", 0), 0u)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  r = Elevbench({"history", "--db", db_, "--suite", "contest"});  // a suite, no runs yet
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The fourth newcomer pass: a host the history has no run from, as trend refuses it.
  r = Elevbench({"history", "--db", db_, "--host", "nosuch"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err.rfind("elevbench: --host nosuch: the history has no run from it (hosts: ", 0), 0u)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  const std::string missing = temp_.path() + "/nonexistent";
  r = Elevbench({"history", "import", tio, "--db", missing + "/h.db"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err,
            "elevbench: --db " + missing + "/h.db: no folder " + missing + " to write it in\n");
  EXPECT_FALSE(std::filesystem::exists(missing));
}

// #45: the list's options and a second, different --db are refused by `history import` in one
// line (they were passed over, the last --db winning); nothing is recorded.
TEST_F(HistoryCliTest, ImportRefusesTheListsOptionsAndTwoDatabases) {
  const std::string tio = CopyOf("results_small.json");
  const std::string other = temp_.path() + "/other.db";
  const struct {
    std::vector<std::string> args;
    std::string err;
  } kCases[] = {
      {{"history", "import", tio, "--db", db_, "--suite", "tiobench"},
       "elevbench: --suite applies to the list of runs (elevbench history), not to history "
       "import, which adds each file whole\n"},
      {{"history", "--suite", "tiobench", "import", tio, "--db", db_}, "elevbench: --suite "},
      {{"history", "import", tio, "--db", db_, "--json"}, "elevbench: --json applies "},
      {{"history", "import", tio, "--db", db_, "--format", "json"}, "elevbench: --format applies "},
      {{"history", "import", "--host", "h", tio, "--db", db_}, "elevbench: --host applies "},
      {{"history", "--last", "2", "import", tio, "--db", db_}, "elevbench: --last applies "},
      {{"history", "--db", db_, "import", "--db", other, tio},
       "elevbench: --db given twice, " + db_ + " and " + other +
           ": give one history to import into\n"},
  };
  for (const auto& c : kCases) {
    std::string line;
    for (const std::string& a : c.args) line += a + " ";
    SCOPED_TRACE(line);
    const CliResult r = Elevbench(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.err.rfind(c.err, 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(std::filesystem::exists(db_)) << "nothing is recorded";
    EXPECT_FALSE(std::filesystem::exists(other));
  }
  // The same --db twice, or either one alone, names one history: accepted.
  CliResult r = Elevbench({"history", "--db", db_, "import", "--db", db_, tio});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": added as run 1\n");
  r = Elevbench({"history", "--db", other, "import", tio});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": added as run 1\n");
}

// The CLI tests that run real fio (ctest -L root, as every test that does I/O through fio).
class HistoryCliRootTest : public HistoryCliTest {};

// `elevbench run` records itself in results/history.db of the current directory; a history
// that cannot be written is a note, not a failed run.
TEST_F(HistoryCliRootTest, RunRecordsItselfAndSurvivesABrokenHistory) {
  if (access("/usr/bin/fio", X_OK) != 0) GTEST_SKIP() << "fio is not installed";
  std::filesystem::create_directory(temp_.path() + "/d");
  CliResult r = Elevbench({"run", "tiobench", "--dir", temp_.path() + "/d", "--size", "8",
                           "--threads", "1", "--random", "100", "--out", "r.json"},
                          temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: run recorded in the history results/history.db"), std::string::npos)
      << r.err;
  r = Elevbench({"history"}, temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tiobench"), std::string::npos) << r.out;
  r = Elevbench({"trend", "--section", "seq_read"}, temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rate_mb_s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  1  "), std::string::npos) << r.out;  // run 1's line

  std::ofstream(db_) << "not a database at all, clearly";
  r = Elevbench({"run", "tiobench", "--dir", temp_.path() + "/d", "--size", "8", "--threads", "1",
                 "--random", "100", "--out", "r2.json", "--db", db_},
                temp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: run not recorded in the history: history " + db_ +
                       ": file is not a database"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::exists(temp_.path() + "/r2.json"));
}

}  // namespace
}  // namespace elevbench
