#include "reporters/devices_text.h"

#include <cstdio>

namespace elevbench {
namespace {

// printf's formatting into a string of any length.
template <typename... Args>
std::string FormatDeviceLine(const char* format, Args... args) {
  const int n = std::snprintf(nullptr, 0, format, args...);
  std::string line(static_cast<size_t>(n), '\0');
  std::snprintf(line.data(), line.size() + 1, format, args...);
  return line;
}

// "none [mq-deadline] kyber bfq", or why there is none.
std::string SchedulersCell(const BlockDeviceInfo& d) {
  std::string scheds;
  for (const std::string& s : d.available_schedulers) {
    if (!scheds.empty()) scheds += " ";
    scheds += s == d.current_scheduler ? "[" + s + "]" : s;
  }
  return scheds.empty() ? "(none: bio-based)" : scheds;
}

// "/ (ext4), /home (xfs); backs /var/img".
std::string MountsCell(const BlockDeviceInfo& d) {
  std::string mounts;
  for (const MountInfo& m : d.mounts) {
    if (!mounts.empty()) mounts += ", ";
    mounts += m.mountpoint + " (" + m.fstype + ")";
  }
  if (d.is_loop && !d.loop_backing_file.empty()) {
    mounts += (mounts.empty() ? "" : "; ") + std::string("backs ") + d.loop_backing_file;
  }
  return mounts;
}

}  // namespace

std::string RenderBlockDevicesText(const std::vector<BlockDeviceInfo>& devices) {
  std::string text = FormatDeviceLine("%-10s %-24s %9s %-4s %-32s %7s %8s  %s\n", "DEVICE", "MODEL",
                                      "SIZE", "ROT", "SCHEDULERS", "NR_REQ", "RA_KB", "MOUNTED");
  for (const BlockDeviceInfo& d : devices) {
    char size[32];
    std::snprintf(size, sizeof size, "%.1fG", static_cast<double>(d.size_bytes) / (1 << 30));
    text += FormatDeviceLine(
        "%-10s %-24.24s %9s %-4s %-32s %7s %8s  %s\n", d.name.c_str(),
        d.model.empty() ? "-" : d.model.c_str(), size, d.rotational ? "yes" : "no",
        SchedulersCell(d).c_str(), d.nr_requests ? std::to_string(*d.nr_requests).c_str() : "-",
        d.read_ahead_kb ? std::to_string(*d.read_ahead_kb).c_str() : "-", MountsCell(d).c_str());
  }
  return text;
}

nlohmann::json BlockDevicesJson(const std::vector<BlockDeviceInfo>& devices) {
  nlohmann::json all = nlohmann::json::array();
  for (const BlockDeviceInfo& d : devices) all.push_back(ToJson(d));
  return all;
}

}  // namespace elevbench
