#include "harness/device/bdi_limits.h"

#include <algorithm>

#include "harness/core/error.h"
#include "harness/core/strings.h"

namespace elevbench {
namespace {

constexpr uint64_t kBdiPage = 4096;
constexpr uint64_t kBdiRatioWhole = 1000000;  // 100 % in the kernel's *_ratio_fine unit

uint64_t RoundUpToPage(uint64_t bytes) { return (bytes + kBdiPage - 1) / kBdiPage * kBdiPage; }

}  // namespace

LaneWriteback LaneWritebackLimits(uint64_t dirty_bytes, uint64_t background_bytes, int lanes) {
  LaneWriteback w;
  const uint64_t n = static_cast<uint64_t>(std::max(lanes, 1));
  w.ratio_fine = kBdiRatioWhole * 98 / 100 / n;
  // A global limit G with G × ratio ≥ the lane's limit.
  const uint64_t global_dirty =
      RoundUpToPage((dirty_bytes * kBdiRatioWhole + w.ratio_fine - 1) / w.ratio_fine);
  const uint64_t global_background =
      RoundUpToPage((background_bytes * kBdiRatioWhole + w.ratio_fine - 1) / w.ratio_fine);
  w.lane_dirty_bytes = global_dirty / kBdiRatioWhole * w.ratio_fine +
                       global_dirty % kBdiRatioWhole * w.ratio_fine / kBdiRatioWhole;
  w.lane_background_bytes = global_background / kBdiRatioWhole * w.ratio_fine +
                            global_background % kBdiRatioWhole * w.ratio_fine / kBdiRatioWhole;
  w.vm = {{"/proc/sys/vm/dirty_bytes", std::to_string(global_dirty)},
          {"/proc/sys/vm/dirty_background_bytes", std::to_string(global_background)}};
  return w;
}

bool BdiPathOfDisk(const Sysfs& sysfs, const std::string& disk, std::string* path,
                   std::string* err) {
  std::string dev;
  if (!sysfs.Read("/sys/block/" + disk + "/dev", &dev, err)) return false;
  dev = TrimWhitespace(dev);
  if (dev.find(':') == std::string::npos ||
      dev.find_first_not_of("0123456789:") != std::string::npos) {
    return Fail(err, "/sys/block/" + disk + "/dev: expected MAJ:MIN, got '" + dev + "'");
  }
  *path = "/sys/class/bdi/" + dev;
  return true;
}

bool PerDeviceWritebackOffered(const Sysfs& sysfs, const std::string& bdi) {
  std::string value, err;
  return sysfs.Read(bdi + "/max_ratio_fine", &value, &err) &&
         sysfs.Read(bdi + "/strict_limit", &value, &err);
}

bool ApplyBdiLimits(const Sysfs& sysfs, RestoreJournal* journal, const std::string& bdi,
                    uint64_t ratio_fine, std::string* err) {
  const std::vector<std::pair<std::string, std::string>> writes = {
      {"max_ratio_fine", std::to_string(ratio_fine)},
      {"min_ratio_fine", std::to_string(ratio_fine)},
      {"strict_limit", "1"}};
  for (const auto& [name, value] : writes) {
    const std::string path = bdi + "/" + name;
    std::string probe;
    if (!sysfs.Read(path, &probe, err)) {
      *err = "per-device writeback limits need Linux 6.2 or later: " + *err;
      return false;
    }
    if (!journal->RecordSysfsValue(path, err) || !sysfs.WriteVerified(path, value, err)) {
      return false;
    }
  }
  return true;
}

}  // namespace elevbench
