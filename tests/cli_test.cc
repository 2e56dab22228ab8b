// The command line as a user meets it: bad input gets one line on stderr and exit code 2.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

struct CliRun {
  int exit_code;
  std::string out;
  std::string err;
};

CliRun RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), ELEVBENCH_BINARY);
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 120;
  EXPECT_TRUE(RunProcess(args, opts, &r, &err)) << err;
  return {r.exit_code, r.output, r.error_output};
}

void ExpectUsageError(const std::vector<std::string>& args, const std::string& needle) {
  CliRun r = RunCli(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "error must be one line: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

class CliTest : public ::testing::Test {
 protected:
  testing::ScopedTempDir temp_;
  const std::string dir_ = temp_.path();
};

TEST_F(CliTest, VersionAndHelp) {
  CliRun v = RunCli({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("elevbench"), std::string::npos);
  CliRun h = RunCli({"run", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("tiobench"), std::string::npos);  // the suites are listed
  CliRun t = RunCli({"run", "tiobench", "--help"});
  EXPECT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("--threads"), std::string::npos);
}

TEST_F(CliTest, UnknownSuite) {
  ExpectUsageError({"run", "nosuchsuite", "--dir", dir_}, "unknown suite 'nosuchsuite'");
  ExpectUsageError({"run", "--dir", dir_}, "no suite given");
}

TEST_F(CliTest, ZeroThreads) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--threads", "0"}, "--threads");
}

TEST_F(CliTest, NegativeSize) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--size", "-1"}, "size");
}

TEST_F(CliTest, MissingDirectory) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_ + "/does-not-exist"}, "--dir");
}

TEST_F(CliTest, DirectoryThatIsAFile) {
  const std::string file = dir_ + "/file";
  std::ofstream(file) << "x";
  ExpectUsageError({"run", "tiobench", "--dir", file}, "not a writable directory");
}

TEST_F(CliTest, UnwritableDirectory) {
  if (geteuid() == 0) GTEST_SKIP() << "root can write to a mode-0555 directory";
  const std::string ro = dir_ + "/ro";
  std::filesystem::create_directory(ro);
  std::filesystem::permissions(
      ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  ExpectUsageError({"run", "tiobench", "--dir", ro}, "not a writable directory");
}

TEST_F(CliTest, MissingResultsFile) {
  ExpectUsageError({"report", dir_ + "/nope.json"}, "nope.json");
}

TEST_F(CliTest, ResultsFileThatIsNotJson) {
  std::ofstream(dir_ + "/bad.json") << "{ not json";
  ExpectUsageError({"report", dir_ + "/bad.json"}, "not valid JSON");
}

TEST_F(CliTest, ReportOfSeveralFilesInEveryGenericFormat) {
  const std::string tio = testing::TestDataPath("golden/results_small.json");
  const std::string nick = testing::TestDataPath("golden/nickbench_small.json");
  for (const char* format : {"md", "csv", "csv-summary", "html", "json", "nick"}) {
    CliRun r = RunCli({"report", tio, nick, "--format", format});
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_NE(r.out.find("nickbench"), std::string::npos) << format;
  }
  ExpectUsageError({"report", tio, "--format", "xml"}, "unknown --format 'xml'");
  ExpectUsageError({"report", tio, nick, "--format", "tiobench"}, "nickbench_small.json");
  ExpectUsageError({"report", tio, dir_ + "/nope.json", "--format", "md"}, "nope.json");
}

TEST_F(CliTest, BadFormatAndBadSchedulerList) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--format", "xml"}, "--format");
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--schedulers", "bfq:=1"}, "--schedulers");
}

TEST_F(CliTest, DevicesListsBlockDevices) {
  CliRun table = RunCli({"devices"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("SCHEDULERS"), std::string::npos);
  CliRun json = RunCli({"devices", "--json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  auto parsed = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded());
  EXPECT_TRUE(parsed.is_array());
}

TEST_F(CliTest, FileSetLargerThanTheDevice) {
  ExpectUsageError({"run", "tiobench", "--scratch", "512M", "--size", "1000"}, "does not fit");
  ExpectUsageError({"run", "tiobench", "--emulated", "ide-2003:1G", "--size", "2000"},
                   "does not fit");
}

TEST_F(CliTest, UnknownSubcommand) { ExpectUsageError({"frobnicate"}, "subcommand"); }

}  // namespace
}  // namespace elevbench
