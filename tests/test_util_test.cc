// Implementation of test_util.h (kept in a *_test.cc so the test glob picks it up).

#include "test_util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace elevbench::testing {

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test file " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
