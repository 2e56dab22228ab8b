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

// "3 MiB", "512 KiB", or "-" for none.
std::string Bytes(uint64_t bytes) {
  if (bytes == 0) return "-";
  if (bytes % (1024 * 1024) == 0)
    return FormatDouble("%.0f MiB", static_cast<double>(bytes) / 1048576);
  return FormatDouble("%.0f KiB", static_cast<double>(bytes) / 1024);
}

// "65 us", or "-" for a profile without dies.
std::string Us(double us, bool has) { return has ? FormatDouble("%.0f us", us) : "-"; }

// Today's drives' parameters (issue 59), "-" where a profile has none of it.
std::vector<std::string> DriveCells(const DiskProfile& p) {
  const bool dies = p.ssd_dies > 0;
  return {p.name,
          p.rotational_position ? "yes" : "-",
          p.queue_depth <= 1      ? "-"
          : p.reorder_window == 0 ? "all"
                                  : std::to_string(p.reorder_window),
          Bytes(p.write_cache_bytes),
          p.link_mbps == 0 ? "-" : FormatDouble("%.0f MB/s", p.link_mbps),
          dies ? std::to_string(p.ssd_dies) : "-",
          Us(p.page_read_us, dies),
          Us(p.page_program_us, dies),
          dies ? (p.power_loss_protection ? "yes" : "no") : "-"};
}

}  // namespace

std::string RenderDiskProfilesTable(const std::vector<DiskProfile>& profiles) {
  std::vector<std::vector<std::string>> lines = {
      {"Profile", "Capacity", "RPM", "Track-to-track", "Avg seek", "Full stroke", "Read", "Write",
       "Overhead", "Queue depth", "Aging", "Driver tags", "Stream cache"}};
  for (const DiskProfile& p : profiles) lines.push_back(ProfileCells(p));
  std::vector<std::vector<std::string>> drives = {
      {"Profile", "Rotational position", "Reorder window", "Write cache", "Link", "Dies",
       "Page read", "Page program", "Power-loss protection"}};
  for (const DiskProfile& p : profiles) drives.push_back(DriveCells(p));
  const std::string text = RenderTextTable(lines) + "\n" + RenderTextTable(drives);
  // A datasheet's units, not the reports' MiB: say so under the table.
  return text +
         "Capacity in GB (10^9 bytes) and rates in MB/s (10^6 bytes a second), as a disk's "
         "datasheet gives them; the reports' MB/s are MiB/s (2^20 bytes a second).\n";
}

}  // namespace elevbench
