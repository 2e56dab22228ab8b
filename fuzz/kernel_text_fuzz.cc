// libFuzzer target: kernel files the harness parses: a queue/scheduler line (ParseSchedulerLine,
// harness/device/sysfs.h) and a debugfs hctx tags file (ParseTagsDepth,
// harness/device/driver_tags.h). The same bytes go to both.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/device/driver_tags.h"
#include "harness/device/sysfs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = elevbench::fuzz::AsText(data, size);
  std::vector<std::string> available;
  std::string current;
  std::string err;
  (void)elevbench::ParseSchedulerLine(text, &available, &current, &err);
  int depth = 0;
  (void)elevbench::ParseTagsDepth(text, &depth, &err);
  return 0;
}
