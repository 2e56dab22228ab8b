#include "reporters/environment_text.h"

#include <sstream>

#include "harness/machine/machine_spec.h"

namespace elevbench {
namespace {

std::string JsonString(const nlohmann::json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return "";
}

// " (emulated: 1 CPU, 256 MB)" when the run was held to a smaller machine by --machine; empty
// otherwise, so results files without the block render as before.
std::string EmulatedMachineNote(const nlohmann::json& ctx) {
  if (!ctx.contains("emulated_machine") || !ctx["emulated_machine"].is_object()) return "";
  const nlohmann::json& m = ctx["emulated_machine"];
  const int64_t cpus = m.contains("cpus") && m["cpus"].is_number() ? m["cpus"].get<int64_t>() : 0;
  const uint64_t bytes = m.contains("memory_bytes") && m["memory_bytes"].is_number_unsigned()
                             ? m["memory_bytes"].get<uint64_t>()
                             : 0;
  const std::string limits = DescribeMachineLimits(static_cast<int>(cpus), bytes);
  return limits.empty() ? "" : " (emulated: " + limits + ")";
}

}  // namespace

std::string RenderEnvironmentHeader(const nlohmann::json& ctx) {
  std::ostringstream out;
  if (!ctx.is_object()) return "";
  if (ctx.contains("cpus")) {
    const int cpus = ctx.value("cpus", 0);
    const uint64_t mem_mb = ctx.value("memory_bytes", uint64_t{0}) >> 20;
    const uint64_t swap_mb = ctx.value("swap_bytes", uint64_t{0}) >> 20;
    out << "Machine is " << (cpus > 1 ? "SMP " + std::to_string(cpus) + "x " : "UP ")
        << JsonString(ctx, "cpu_model") << ", " << mem_mb << "MB "
        << (swap_mb ? std::to_string(swap_mb) + "MB swap" : std::string("no swap"))
        << EmulatedMachineNote(ctx) << "\n";
  }
  if (ctx.contains("devices") && ctx["devices"].is_array()) {
    for (const auto& d : ctx["devices"]) {
      const std::string model = JsonString(d, "model");
      out << JsonString(d, "name") << ": " << (model.empty() ? "(no model string)" : model)
          << (d.value("rotational", false) ? ", rotational" : ", non-rotational") << "\n";
    }
  }
  const std::string fs = JsonString(ctx, "filesystem");
  if (!fs.empty()) out << "Target fs for tests was " << fs << "\n";
  if (ctx.contains("emulated_queue") && ctx["emulated_queue"].is_object()) {
    // Which elevator set-up the emulated disk had: the 2003 verdicts depend on both.
    const nlohmann::json& q = ctx["emulated_queue"];
    const nlohmann::json& tags = q.contains("driver_tags") ? q["driver_tags"] : nlohmann::json();
    out << "Emulated disk queue: driver tags "
        << (tags.is_number() ? std::to_string(tags.get<int64_t>()) : std::string("unknown"))
        << ", writeback throttling " << JsonString(q, "writeback_throttling") << "\n";
  }
  if (ctx.contains("lanes") && ctx["lanes"].is_object()) {
    // --lanes: how many emulated disks served the plan at once (docs/lanes.md).
    const nlohmann::json& l = ctx["lanes"];
    const int count = l.value("count", 1);
    out << "Lanes: " << count << (count == 1 ? " (serial run)" : " emulated disks at once")
        << (l.value("asked", std::string()) == "auto" ? ", as many as --lanes auto allowed" : "");
    if (count > 1) {
      out << "; each in its own cpuset, " << (l.value("lane_dirty_bytes", uint64_t{0}) >> 20)
          << " MB dirty limit per disk";
    }
    out << "\n";
  }
  const std::string cache = JsonString(ctx, "cache_policy");
  if (!cache.empty()) out << cache << "\n";
  std::string s = out.str();
  if (!s.empty()) s += "\n";
  return s;
}

double EmulatedMediaRateMbS(const nlohmann::json& ctx, bool write) {
  if (!ctx.is_object() || !ctx.contains("target") || !ctx["target"].is_object()) return 0;
  const nlohmann::json& t = ctx["target"];
  if (t.value("kind", std::string()) != "emulated" || !t.contains("profile") ||
      !t["profile"].is_object()) {
    return 0;
  }
  const nlohmann::json& rate = t["profile"].contains(write ? "write_mbps" : "read_mbps")
                                   ? t["profile"][write ? "write_mbps" : "read_mbps"]
                                   : nlohmann::json();
  return rate.is_number() ? rate.get<double>() : 0;
}

std::string PageCacheMark(double mb_s, double disk_mb_s) {
  return disk_mb_s > 0 && mb_s > disk_mb_s * 1.1 ? " (page cache)" : "";
}

}  // namespace elevbench
