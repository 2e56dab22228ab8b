// libFuzzer target: fio's bandwidth log (ParseFioBwLog, harness/fio/fio_output.h). The first two
// bytes choose the averaging interval (0 included), the rest is the log text.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/fio/fio_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint32_t interval_ms = static_cast<uint32_t>(data[0]) << 8 | data[1];
  std::vector<double> kib_s;
  std::string err;
  (void)elevbench::ParseFioBwLog(elevbench::fuzz::AsText(data + 2, size - 2), interval_ms, &kib_s,
                                 &err);
  return 0;
}
