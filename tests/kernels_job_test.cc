// `run --kernels`'s usage checks without a guest (harness/run/kernels_job.h): each refusal is one
// line, exit 2, and comes before anything is made, root or not (issue 57 §4).

#include "harness/run/kernels_job.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "app/suites.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// A run's config as the CLI makes it of `run tiobench --emulated ide-2003 --kernels K`.
RunConfig KernelsJobTestConfig(Suite* suite, const std::string& out) {
  RunConfig config;
  config.suite = suite;
  config.suite_name = "tiobench";
  config.target.emulated = "ide-2003";
  config.kernels = "debian:linux-image-6.1.0-47-cloud-amd64";
  config.out = out;
  return config;
}

// §4.7: "--lanes x" with one kernel said "not a number of guests from 1 to 1", not what --lanes
// takes there.
TEST(KernelsJobTest, LanesSayWhatTheyTakeWithKernels) {
  testing::ScopedTempDir dir;
  std::unique_ptr<Suite> suite = FindSuite("tiobench")->make();
  RunConfig config = KernelsJobTestConfig(suite.get(), dir.path() + "/r.json");
  config.lanes = "x";
  KernelsJob job(config, [](const std::string&) {});
  std::string err;
  EXPECT_EQ(job.Prepare(&err), RunFailure::kUsage);
  EXPECT_NE(err.find("--lanes with --kernels takes how many guests boot at once"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("one per kernel (1 kernel here)"), std::string::npos) << err;
  EXPECT_NE(err.find("not 'x'"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir.path() + "/r.json.fio"));
}

}  // namespace
}  // namespace elevbench
