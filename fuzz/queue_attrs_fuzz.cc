// libFuzzer target: `--queue` (ParseQueueAttrs, harness/device/scheduler_config.h).

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/device/scheduler_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::pair<std::string, std::string>> attrs;
  std::string err;
  (void)elevbench::ParseQueueAttrs(elevbench::fuzz::AsText(data, size), &attrs, &err);
  return 0;
}
