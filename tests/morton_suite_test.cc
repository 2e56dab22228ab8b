// The morton and visave suites as a user meets them: bad options get one line and exit 2 before
// anything is created, and both suites are in the table with their text formats.

#include <gtest/gtest.h>

#include <filesystem>

#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "harness/run/suite.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Runs `elevbench run <args> --out <dir>/r.json` and expects exit 2 with one line naming `needle`.
void ExpectRunUsageError(const std::string& dir, std::vector<std::string> args,
                         const std::string& needle) {
  args.insert(args.begin(), {ELEVBENCH_BINARY, "run"});
  args.insert(args.end(), {"--dir", dir, "--out", dir + "/r.json"});
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 60;
  ASSERT_TRUE(RunProcess(args, opts, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 2) << r.error_output;
  ASSERT_FALSE(r.error_output.empty());
  EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1)
      << "error must be one line: " << r.error_output;
  EXPECT_NE(r.error_output.find(needle), std::string::npos) << r.error_output;
}

TEST(MortonSuiteTest, BadOptionsAreOneLineAndExitTwo) {
  testing::ScopedTempDir dir;
  const std::string d = dir.path();
  ExpectRunUsageError(d, {"morton", "--tests", "0"}, "--tests: unknown test '0' (1 to 9)");
  ExpectRunUsageError(d, {"morton", "--tests", "1,1"}, "--tests: 1 is listed twice");
  ExpectRunUsageError(d, {"morton", "--scale", "0"}, "--scale 0 is not in (0, 1]");
  ExpectRunUsageError(d, {"morton", "--scale", "1.5"}, "--scale 1.5 is not in (0, 1]");
  ExpectRunUsageError(d, {"morton", "--tests", "2", "--cold-start", "elevbench-no-such-program -x"},
                      "--cold-start: elevbench-no-such-program is not installed");
  ExpectRunUsageError(d, {"morton", "--format", "nick"}, "unknown --format 'nick'");
  ExpectRunUsageError(d, {"visave", "--saves", "0"}, "--saves");
  ExpectRunUsageError(d, {"visave", "--interval", "-1"}, "--interval");
  // Nothing was laid out.
  EXPECT_TRUE(std::filesystem::is_empty(d));
}

TEST(MortonSuiteTest, BothSuitesAreInTheTable) {
  const SuiteEntry* morton = FindSuite("morton");
  ASSERT_NE(morton, nullptr);
  EXPECT_EQ(morton->formats, std::vector<std::string>{"akpm"});
  EXPECT_NE(morton->measure, nullptr);
  const SuiteEntry* visave = FindSuite("visave");
  ASSERT_NE(visave, nullptr);
  EXPECT_EQ(visave->formats, std::vector<std::string>{"lkml"});
  auto suite = morton->make();
  EXPECT_EQ(suite->Variants().size(), 0u);  // before Prepare: nothing chosen yet
}

}  // namespace
}  // namespace elevbench
