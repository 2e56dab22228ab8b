// libFuzzer target: disk-model overrides (`--disk-set key=value`, `disk serve --set`;
// ApplyDiskOverride in harness/disk/disk_model.h). The input is lines: the first names the
// profile, the others are overrides. A profile that then passes ValidateDiskProfile must be
// servable: the daemon starts on it, so a few requests go through the model.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "harness/disk/disk_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  const std::vector<std::string> lines = fuzz::SplitAt(fuzz::AsText(data, size), '\n');
  DiskProfile profile;
  std::string err;
  if (!LookupDiskProfile(lines[0], &profile, &err)) return 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (!ApplyDiskOverride(lines[i], &profile, &err)) return 0;
  }
  if (!ValidateDiskProfile(profile, &err)) return 0;
  (void)DiskProfileToJson(profile).dump();
  DiskModel model(profile);
  const uint64_t capacity = profile.capacity_bytes;
  const DiskRequest requests[] = {{0, 4096, false, 0},
                                  {capacity / 2, 65536, true, 1000},
                                  {capacity > 4096 ? capacity - 4096 : 0, 4096, false, 2000},
                                  {4096, 131072, false, 3000}};
  for (const DiskRequest& r : requests) {
    (void)model.PositioningNs(r);
    (void)model.Serve(r);
  }
  (void)model.PickNext(requests, 4000);
  return 0;
}
