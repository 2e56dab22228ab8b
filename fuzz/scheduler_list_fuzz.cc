// libFuzzer target: `--schedulers` (ParseSchedulerList, harness/device/scheduler_config.h) and
// what a run derives from each configuration: its table code, its display name and the check
// against the kernel's schedulers.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/device/scheduler_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  std::vector<SchedulerConfig> configs;
  std::string err;
  if (!ParseSchedulerList(fuzz::AsText(data, size), &configs, &err)) return 0;
  for (const SchedulerConfig& c : configs) {
    (void)ShortCode(c);
    (void)DisplayName(c);
  }
  (void)CheckSchedulersExist(configs, {"none", "mq-deadline", "kyber", "bfq"}, &err);
  return 0;
}
