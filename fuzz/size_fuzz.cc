// libFuzzer target: sizes on the command line: `--scratch SIZE` (ParseSizeBytes,
// harness/device/scratch_device.h) and `--emulated PROFILE[:SIZE]` (ParseEmulatedSpec).

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_input.h"
#include "harness/device/scratch_device.h"
#include "harness/disk/emulated_stack.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(elevbench::fuzz::AsText(data, size));
  uint64_t bytes = 0;
  std::string err;
  (void)elevbench::ParseSizeBytes(text, &bytes, &err);
  elevbench::EmulatedOptions options;
  (void)elevbench::ParseEmulatedSpec(text, &options, &err);
  return 0;
}
