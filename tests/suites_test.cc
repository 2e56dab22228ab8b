// The table of suites and the lists made from it: `elevbench list`, the help texts and the
// kill-point sweep all derive from the table, so a suite cannot be missing from any of them.

#include "app/suites.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "harness/core/strings.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

ProcessResult RunCommand(std::vector<std::string> argv) {
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 60;
  EXPECT_TRUE(RunProcess(argv, opts, &r, &err)) << err;
  return r;
}

std::set<std::string> TableSuites() {
  std::set<std::string> names;
  for (const SuiteEntry& e : AllSuites()) names.insert(e.name);
  return names;
}

TEST(SuitesTest, EverySuiteHasARendererAMeasurerAndASmokeRun) {
  for (const SuiteEntry& e : AllSuites()) {
    EXPECT_NE(e.make, nullptr) << e.name;
    EXPECT_NE(e.render, nullptr) << e.name;
    EXPECT_NE(e.measure, nullptr) << e.name;
    EXPECT_FALSE(e.formats.empty()) << e.name;
    EXPECT_NE(std::string(e.smoke_args), "") << e.name << " has no smoke run for the sweep";
    EXPECT_EQ(FindSuite(e.name), &e);
    EXPECT_NE(MeasurerOf(e.name), nullptr) << e.name;  // its own measurer, then the trace's
  }
  EXPECT_EQ(FindSuite("no-such-suite"), nullptr);
  EXPECT_EQ(MeasurerOf("no-such-suite"), nullptr);
}

TEST(SuitesTest, ListSuitesJsonListsEverySuiteOfTheTable) {
  const ProcessResult r = RunCommand({ELEVBENCH_BINARY, "list", "suites", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.error_output;
  const nlohmann::json listed = nlohmann::json::parse(r.output);
  std::set<std::string> names;
  for (const nlohmann::json& s : listed) {
    names.insert(s.at("name").get<std::string>());
    EXPECT_FALSE(s.at("formats").empty());
    EXPECT_FALSE(s.at("smoke_args").get<std::string>().empty());
  }
  EXPECT_EQ(names, TableSuites());
}

TEST(SuitesTest, TheKillSweepCoversEverySuite) {
  const ProcessResult r = RunCommand({"python3", testing::TestDataPath("../scripts/killsweep"),
                                      "--list", "--elevbench", ELEVBENCH_BINARY});
  ASSERT_EQ(r.exit_code, 0) << r.error_output;
  std::set<std::string> swept;
  for (const std::string& line : SplitWords(r.output)) swept.insert(line);
  std::set<std::string> expected = TableSuites();
  expected.insert("capture");  // `elevbench capture`, swept as a row of its own
  EXPECT_EQ(swept, expected);
}

TEST(SuitesTest, HelpTextsNameEverySuiteAndItsFormats) {
  const ProcessResult run = RunCommand({ELEVBENCH_BINARY, "run", "--help"});
  const ProcessResult report = RunCommand({ELEVBENCH_BINARY, "report", "--help"});
  ASSERT_EQ(run.exit_code, 0);
  ASSERT_EQ(report.exit_code, 0);
  for (const SuiteEntry& e : AllSuites()) {
    std::string formats = std::string(e.name) + ":";
    for (size_t i = 0; i < e.formats.size(); ++i) formats += (i ? ", " : " ") + e.formats[i];
    // CLI11 wraps long help lines; compare with the white space folded.
    const auto fold = [](const std::string& s) { return JoinWith(SplitWords(s), " "); };
    EXPECT_NE(fold(run.output).find(formats), std::string::npos) << formats;
    EXPECT_NE(fold(report.output).find(formats), std::string::npos) << formats;
  }
}

TEST(SuitesTest, ListTheOtherTables) {
  for (const char* what : {"formats", "schedulers", "profiles"}) {
    const ProcessResult r = RunCommand({ELEVBENCH_BINARY, "list", what, "--json"});
    ASSERT_EQ(r.exit_code, 0) << what << ": " << r.error_output;
    const nlohmann::json listed = nlohmann::json::parse(r.output);
    EXPECT_TRUE(listed.is_array() && !listed.empty()) << what;
    const ProcessResult text = RunCommand({ELEVBENCH_BINARY, "list", what});
    EXPECT_EQ(text.exit_code, 0);
    EXPECT_EQ(SplitWords(text.output).empty(), false);
  }
  const ProcessResult bad = RunCommand({ELEVBENCH_BINARY, "list", "nonsense"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(SuitesTest, TheLibraryKeepsItsLayers) {
  const ProcessResult r = RunCommand(
      {"python3", testing::TestDataPath("../scripts/check-layers"), testing::TestDataPath("..")});
  EXPECT_EQ(r.exit_code, 0) << r.output << r.error_output;
}

}  // namespace
}  // namespace elevbench
