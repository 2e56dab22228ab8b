// libFuzzer target: the generated source tree's parameters (`run probes --tree-size MB
// --tree-seed N`; PlanSourceTree, harness/tree/source_tree.h). The plan must keep its promises
// for any seed and size: the exact total, relative paths without "..", parents before children.
// Sizes are kept to what a fuzzer can plan quickly: 1 byte to 256 KiB and up to 200 files (at
// the earlier 4 MiB / 2,000 files an input took ~30 ms under ASan, 33 executions a second, so
// 10^6 would have taken 8 hours). The plan's arithmetic is the same at every size; the large
// trees are planned by the unit tests (SourceTreePlan in tests/source_tree_test.cc).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "harness/tree/source_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  uint64_t words[3] = {0, 0, 0};
  std::memcpy(words, data, size < sizeof(words) ? size : sizeof(words));
  TreeSpec spec;
  spec.total_bytes = 1 + words[0] % (256ULL << 10);
  spec.seed = words[1];
  spec.file_count = words[2] % 201;
  const TreePlan plan = PlanSourceTree(spec);
  uint64_t total = 0;
  std::string previous;
  for (const TreeEntry& e : plan.entries) {
    total += e.bytes;
    const std::string slashed = "/" + e.path + "/";
    if (e.path.empty() || e.path[0] == '/' || slashed.find("/../") != std::string::npos) {
      std::abort();
    }
    if (!previous.empty() && !(previous < e.path)) std::abort();
    previous = e.path;
  }
  if (total != plan.total_bytes || plan.total_bytes != spec.total_bytes) std::abort();
  return 0;
}
