#include "reporters/environment_text.h"

#include <sstream>

#include "harness/core/json_fields.h"
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
  // Numbers through GetOptionalJsonField: get<int64_t>() of a float such as 1e300 is undefined.
  int cpus = 0;
  uint64_t bytes = 0;
  std::string ignored;
  if (!GetOptionalJsonField(m, "cpus", &cpus, &ignored)) cpus = 0;
  if (!GetOptionalJsonField(m, "memory_bytes", &bytes, &ignored)) bytes = 0;
  const std::string limits = DescribeMachineLimits(cpus, bytes);
  return limits.empty() ? "" : " (emulated: " + limits + ")";
}

}  // namespace

std::string RenderEnvironmentHeader(const nlohmann::json& ctx) {
  std::ostringstream out;
  if (!ctx.is_object()) return "";
  if (ctx.contains("cpus")) {
    int cpus = 0;
    std::string bad_cpus;
    if (!GetOptionalJsonField(ctx, "cpus", &cpus, &bad_cpus)) cpus = 0;
    uint64_t mem_bytes = 0;
    uint64_t swap_bytes = 0;
    std::string ignored;
    if (!GetOptionalJsonField(ctx, "memory_bytes", &mem_bytes, &ignored)) mem_bytes = 0;
    if (!GetOptionalJsonField(ctx, "swap_bytes", &swap_bytes, &ignored)) swap_bytes = 0;
    const uint64_t mem_mb = mem_bytes >> 20;
    const uint64_t swap_mb = swap_bytes >> 20;
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
    int64_t tags = 0;
    std::string ignored;
    const bool known = q.contains("driver_tags") && GetJsonField(q, "driver_tags", &tags, &ignored);
    out << "Emulated disk queue: driver tags "
        << (known ? std::to_string(tags) : std::string("unknown")) << ", writeback throttling "
        << JsonString(q, "writeback_throttling") << "\n";
  }
  const std::string cache = JsonString(ctx, "cache_policy");
  if (!cache.empty()) out << cache << "\n";
  std::string s = out.str();
  if (!s.empty()) s += "\n";
  return s;
}

}  // namespace elevbench
