// The test binary's runs keep their restore journal and run lock in a state directory of their
// own, so that the tests neither wait for nor disturb a real run of elevbench on the same machine
// (the default state directory's lock admits one run at a time). A test that needs another state
// directory sets ELEVBENCH_STATE_DIR itself and puts this one back.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace elevbench {
namespace {

class PrivateStateDir : public ::testing::Environment {
 public:
  void SetUp() override {
    if (std::getenv("ELEVBENCH_STATE_DIR") != nullptr) return;  // the caller chose one
    char tmpl[] = "/var/tmp/elevbench-test-state-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    setenv("ELEVBENCH_STATE_DIR", dir_.c_str(), 1);
  }
  // Removed only when empty: a journal left here by a failed test is kept for
  // `ELEVBENCH_STATE_DIR=<dir> elevbench restore`, and its path is printed.
  void TearDown() override {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::remove(dir_ + "/lock", ec);
    if (!std::filesystem::remove(dir_, ec)) {
      std::printf(
          "elevbench tests: state left in %s (restore with ELEVBENCH_STATE_DIR=%s "
          "elevbench restore)\n",
          dir_.c_str(), dir_.c_str());
    }
  }

 private:
  std::string dir_;
};

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new PrivateStateDir);

TEST(PrivateStateDirTest, TheTestsRunWithAStateDirectoryOfTheirOwn) {
  const char* dir = std::getenv("ELEVBENCH_STATE_DIR");
  ASSERT_NE(dir, nullptr);
  EXPECT_TRUE(std::filesystem::is_directory(dir)) << dir;
}

}  // namespace
}  // namespace elevbench
