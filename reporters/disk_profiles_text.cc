#include "reporters/disk_profiles_text.h"

#include <algorithm>

#include "harness/core/strings.h"
#include "reporters/text_table.h"

namespace elevbench {
namespace {

// "9.00 ms", or "-" for 0 when 0 means "none".
std::string Ms(double ms, bool zero_is_none = false) {
  return zero_is_none && ms == 0 ? "-" : FormatDouble("%.2f ms", ms);
}

std::vector<std::string> ProfileCells(const DiskProfile& p) {
  return {p.name,
          FormatDouble("%.0f GB", static_cast<double>(p.capacity_bytes) / 1e9),
          p.rpm == 0 ? "-" : FormatDouble("%.0f", p.rpm),
          Ms(p.track_to_track_ms),
          Ms(p.avg_seek_ms),
          Ms(p.full_stroke_ms),
          FormatDouble("%.0f MB/s", p.read_mbps),
          FormatDouble("%.0f MB/s", p.write_mbps),
          Ms(p.overhead_ms),
          std::to_string(p.queue_depth),
          Ms(p.aging_ms, true),
          p.driver_tags == 0 ? "-" : std::to_string(p.driver_tags),
          p.stream_cache_bytes == 0
              ? "-"
              : FormatDouble("%.0f KiB", static_cast<double>(p.stream_cache_bytes) / 1024)};
}

}  // namespace

std::string RenderDiskProfilesTable(const std::vector<DiskProfile>& profiles) {
  std::vector<std::vector<std::string>> lines = {
      {"Profile", "Capacity", "RPM", "Track-to-track", "Avg seek", "Full stroke", "Read", "Write",
       "Overhead", "Queue depth", "Aging", "Driver tags", "Stream cache"}};
  for (const DiskProfile& p : profiles) lines.push_back(ProfileCells(p));
  const std::string text = RenderTextTable(lines);
  // A datasheet's units, not the reports' MiB: say so under the table.
  return text +
         "Capacity in GB (10^9 bytes) and rates in MB/s (10^6 bytes a second), as a disk's "
         "datasheet gives them; the reports' MB/s are MiB/s (2^20 bytes a second).\n";
}

}  // namespace elevbench
