// Implementation of test_util.h (kept in a *_test.cc so the test glob picks it up).

#include "test_util.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/device/block_device.h"
#include "harness/results/results_document.h"

namespace elevbench::testing {

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  if (const char* old = std::getenv(name)) {
    had_ = true;
    old_ = old;
  }
  setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_) {
    setenv(name_, old_.c_str(), 1);
  } else {
    unsetenv(name_);
  }
}

ScopedTempDir::ScopedTempDir(const std::string& base) {
  std::string tmpl = base + "/elevbench-test-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp in " << base << " failed";
    return;
  }
  path_ = tmpl;
}

ScopedTempDir::~ScopedTempDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test file " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> BdiWritebackValues() {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/bdi", ec)) {
    std::string v;
    for (const char* f : {"max_ratio_fine", "min_ratio_fine", "strict_limit"}) {
      v += ReadFileOrEmpty(e.path().string() + "/" + f);
    }
    out[e.path().filename().string()] = v;
  }
  return out;
}

bool KernelOffersScheduler(const std::string& name) {
  const std::vector<std::string> offered = OfferedSchedulers();
  return std::find(offered.begin(), offered.end(), name) != offered.end();
}

std::string SecondLiveScheduler() {
  return KernelOffersScheduler("bfq") ? "bfq:low_latency=0" : "kyber";
}

ProcessResult RunElevbenchCli(const std::vector<std::string>& args, double timeout_seconds) {
  std::vector<std::string> argv = {ELEVBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions opts;
  opts.timeout_seconds = timeout_seconds;
  ProcessResult run;
  std::string err;
  EXPECT_TRUE(RunProcess(argv, opts, &run, &err)) << err;
  return run;
}

NamedResults LoadNamedResults(const std::string& relative, const std::string& name) {
  NamedResults file;
  file.name = name.empty() ? relative.substr(relative.rfind('/') + 1) : name;
  std::string err;
  EXPECT_TRUE(LoadResultsFile(TestDataPath(relative), &file.doc, &err)) << err;
  return file;
}

void ExpectMatchesGolden(const std::string& name, const std::string& actual) {
  const std::string path = TestDataPath("golden/" + name);
  const char* update = std::getenv("ELEVBENCH_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    return;
  }
  EXPECT_EQ(ReadTestFile(path), actual)
      << "golden file " << path << " differs (ELEVBENCH_UPDATE_GOLDEN=1 rewrites it)";
}

}  // namespace elevbench::testing
