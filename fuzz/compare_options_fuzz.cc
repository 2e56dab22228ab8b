// libFuzzer target: compare's option values `--metrics` (ParseMetricSelection) and `--between`
// (ParseBetween), harness/compare/compare.h.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_input.h"
#include "harness/compare/compare.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(elevbench::fuzz::AsText(data, size));
  elevbench::CompareSettings settings;
  std::string err;
  (void)elevbench::ParseMetricSelection(text, &settings, &err);
  (void)elevbench::ParseBetween(text, &settings, &err);
  return 0;
}
