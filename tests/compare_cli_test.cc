// The built binary's `elevbench compare` on saved files: exit 0 without a regression, 1 with
// one, 2 for bad input, with one line saying why.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "compare_fixture.h"
#include "harness/process/subprocess.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::NoisyDocument;

// The built binary on saved files: 0 without a regression, 1 with one, 2 for bad input (the
// gate's other rules and exit 3: compare_gate_test.cc).
class CompareCliTest : public ::testing::Test {
 protected:
  struct Run {
    int exit_code;
    std::string out;
    std::string err;
  };
  Run Compare(std::vector<std::string> args) {
    args.insert(args.begin(), {ELEVBENCH_BINARY, "compare"});
    ProcessResult r;
    std::string err;
    ProcessOptions opts;
    opts.timeout_seconds = 60;
    EXPECT_TRUE(RunProcess(args, opts, &r, &err)) << err;
    return {r.exit_code, r.output, r.error_output};
  }
  std::string Save(const std::string& name, const ResultsDocument& doc) {
    const std::string path = dir_.path() + "/" + name;
    std::string err;
    EXPECT_TRUE(SaveResultsFile(path, doc, &err)) << err;
    return path;
  }
  testing::ScopedTempDir dir_;
};

TEST_F(CompareCliTest, ExitCodesGateACiJob) {
  const std::string base = Save("base.json", NoisyDocument(1, 5));
  const std::string same = Save("same.json", NoisyDocument(2, 5));
  const std::string worse = Save("worse.json", NoisyDocument(2, 5, [](size_t c, TioPhase p) {
                                   return c == 0 && p == TioPhase::kSeqRead ? 0.9 : 1.0;
                                 }));
  Run ok = Compare({base, same});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("0 regressions"), std::string::npos) << ok.out;

  Run bad = Compare({base, worse});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.out.find("REGRESSION"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << "one line: " << bad.err;
  EXPECT_NE(bad.err.find("gate: regressed: 1 regression (seq_read threads=1 6.18.44-dl"),
            std::string::npos)
      << bad.err;
  EXPECT_TRUE(ok.err.empty()) << ok.err;

  Run junit = Compare({base, worse, "--format", "junit"});
  EXPECT_EQ(junit.exit_code, 1);
  EXPECT_NE(junit.out.find("<failure type=\"regression\""), std::string::npos) << junit.out;
  Run json = Compare({base, worse, "--format", "json"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(json.out)["counts"]["regressions"], 1);

  Run lenient = Compare({base, worse, "--threshold", "20"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  // Inside worse.json, dl reads 10 % slower than bfq: bfq → dl is a regression, dl → bfq not.
  Run between = Compare({worse, "--between", "bfq,dl"});
  EXPECT_EQ(between.exit_code, 1) << between.err;
  EXPECT_NE(between.out.find("6.18.44-bfq -> 6.18.44-dl"), std::string::npos) << between.out;
  EXPECT_EQ(Compare({worse, "--between", "DL,mq-deadline"}).exit_code, 2);  // the same one
  EXPECT_EQ(Compare({worse, "--between", "dl,bfq"}).exit_code, 0);
}

TEST_F(CompareCliTest, BadInputIsExitTwoWithOneLine) {
  const std::string base = Save("base.json", NoisyDocument(1, 2));
  auto expect_usage = [&](std::vector<std::string> args, const std::string& needle) {
    Run r = Compare(std::move(args));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  };
  expect_usage({base, dir_.path() + "/missing.json"}, "missing.json");
  expect_usage({base, testing::TestDataPath("golden/nickbench_small.json")}, "different suites");
  expect_usage({base}, "--between");
  expect_usage({base, base, "--format", "xml"}, "--format");
  expect_usage({base, "--between", "dl,nope"}, "no configuration 'nope'");
  expect_usage({base, base, "--metrics", "bogus"}, "no metric 'bogus'");
  expect_usage({base, base, "--alpha", "2"}, "--alpha");
  // #45: NaN passed the range checks and turned a failing gate (1) or an unjudged one (3) into 0.
  expect_usage({base, base, "--alpha", "nan"}, "--alpha: expected 1e-09 to 0.5, not 'nan'");
  expect_usage({base, base, "--threshold", "nan"},
               "--threshold: expected 0 to 1000000 %, not 'nan'");
  expect_usage({base, base, "--threshold", "inf"}, "--threshold");
  // #45, fourth pass: --alpha beside --no-significance was passed over.
  expect_usage({base, base, "--no-significance", "--alpha", "0.01"},
               "--alpha is the U test's level, --no-significance skips the test: give one");
}

}  // namespace
}  // namespace elevbench
