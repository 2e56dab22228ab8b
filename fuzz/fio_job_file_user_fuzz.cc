// libFuzzer target: the reader of users' fio job files and their placement on the target
// (scenarios/fiojobs/user_job_file.h). A placed file never names a path outside the target
// but the user's device.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "scenarios/fiojobs/user_job_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(elevbench::fuzz::AsText(data, size));
  elevbench::UserJobFile file;
  std::string err, placed;
  if (!elevbench::ParseUserJobFile(text, "f.fio", &file, &err)) return 0;
  elevbench::JobPlacement p;
  p.target_dir = "/t";
  p.device = "/dev/sdz";
  if (!elevbench::PlaceUserJobFile(file, p, &placed, nullptr, &err)) return 0;
  size_t pos = 0;
  while ((pos = placed.find("\nfilename=", pos)) != std::string::npos) {
    pos += 10;
    const std::string value = placed.substr(pos, placed.find('\n', pos) - pos);
    size_t start = 0;
    for (;;) {
      const size_t colon = value.find(':', start);
      const std::string name = value.substr(start, colon - start);
      if (name.rfind("/t/", 0) != 0 && name != "/t" && name != "/dev/sdz") std::abort();
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  return 0;
}
