// libFuzzer target: the emulated disk's counters (stats.json, harness/disk/disk_counters.h) as a
// run reads them before and after a cell and differences them (CounterDelta) into the results
// file. The input is the two stats.json texts separated by a NUL byte.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/run/run_session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> texts =
      elevbench::fuzz::SplitAt(elevbench::fuzz::AsText(data, size), '\0');
  if (texts.size() != 2) return 0;
  // As ReadDiskCounters: a text that is not JSON is no counters at all (null).
  nlohmann::json before = nlohmann::json::parse(texts[0], nullptr, false);
  nlohmann::json after = nlohmann::json::parse(texts[1], nullptr, false);
  if (before.is_discarded()) before = nullptr;
  if (after.is_discarded()) after = nullptr;
  const nlohmann::json delta = elevbench::CounterDelta(before, after);
  (void)delta.dump(2);
  return 0;
}
