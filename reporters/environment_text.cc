#include "reporters/environment_text.h"

#include <cstdio>
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

// `run --kernels` (docs/kernels.md): one line a kernel under test, its release, its guest (on
// QEMU's instruction clock or the host's) and how much slower the guest's CPU was than the
// host's, in the guest's own time; empty without kernels.
std::string KernelsNote(const nlohmann::json& ctx) {
  if (!ctx.contains("kernels") || !ctx["kernels"].is_array()) return "";
  std::ostringstream out;
  for (const nlohmann::json& k : ctx["kernels"]) {
    if (!k.is_object()) continue;
    out << "Kernel " << JsonString(k, "label") << ": " << JsonString(k, "release") << " in a QEMU "
        << (JsonString(k, "accelerator") == "kvm" ? "KVM" : "TCG") << " guest, ";
    const bool icount = JsonString(k, "clock") == "instructions";
    if (icount) out << "on the instruction clock (1 ns an instruction), ";
    out << k.value("vcpus", 0) << " vCPU, " << k.value("memory_mib", uint64_t{0}) << " MiB";
    const double guest = k.value("cpu_probe_seconds", 0.0);
    const double host = k.value("host_cpu_probe_seconds", 0.0);
    if (guest > 0 && host > 0) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.1f", guest / host);
      out << "; its CPU " << ratio << "x slower than the host's "
          << (icount ? "in guest time " : "") << "(a shell loop)";
    }
    const std::string failure = JsonString(k, "failure");
    if (!failure.empty()) out << "; failed: " << failure;
    out << "\n";
  }
  return out.str();
}

// `run --shard I/N` and `merge` (docs/ci.md): a shard's own line, or the merged document's
// line per shard with its box (host, CPU, kernel: boxes differ, a TCG guest's CPU most); empty
// for an unsharded run.
std::string ShardsNote(const nlohmann::json& ctx) {
  std::ostringstream out;
  if (ctx.contains("shard") && ctx["shard"].is_object()) {
    const nlohmann::json& s = ctx["shard"];
    out << "Shard " << s.value("index", 0) << "/" << s.value("count", 0) << ": "
        << s.value("cells", uint64_t{0}) << " of the plan's " << s.value("plan_cells", uint64_t{0})
        << " cells (`elevbench merge` joins the shards)\n";
  }
  if (!ctx.contains("shards") || !ctx["shards"].is_array()) return out.str();
  out << "Shards: " << ctx["shards"].size()
      << " merged, one box each (every cell records its shard):\n";
  for (const nlohmann::json& s : ctx["shards"]) {
    if (!s.is_object() || !s.contains("context") || !s["context"].is_object()) continue;
    const nlohmann::json& c = s["context"];
    const nlohmann::json block = c.value("shard", nlohmann::json::object());
    out << "  Shard " << s.value("shard", 0) << "/" << block.value("count", 0) << ": "
        << JsonString(c, "hostname") << ", " << JsonString(c, "cpu_model") << ", "
        << c.value("cpus", 0) << " CPUs, kernel " << JsonString(c, "kernel") << ", "
        << block.value("cells", uint64_t{0})
        << (block.value("cells", uint64_t{0}) == 1 ? " cell" : " cells")
        << (s.value("complete", true) ? "" : " (unfinished)") << "\n";
  }
  return out.str();
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
  out << KernelsNote(ctx);
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
  if (ctx.contains("disk_writeback") && ctx["disk_writeback"].is_object()) {
    // A serial run's disk throttled as a lane's is (docs/lanes.md), or why not.
    const nlohmann::json& w = ctx["disk_writeback"];
    out << "Emulated disk writeback: ";
    if (w.value("strict_limit", false)) {
      out << (w.value("dirty_bytes", uint64_t{0}) >> 20)
          << " MB dirty limit of its own (strict, as a lane's)\n";
    } else {
      out << "the machine-wide dirty limit alone (" << JsonString(w, "why") << ")\n";
    }
  }
  if (ctx.contains("lanes") && ctx["lanes"].is_object()) {
    // --lanes: how many emulated disks served the plan at once (docs/lanes.md).
    const nlohmann::json& l = ctx["lanes"];
    const int count = l.value("count", 1);
    out << "Lanes: " << count << (count == 1 ? " (serial run)" : " emulated disks at once")
        << (l.value("asked", std::string()) == "auto" ? ", as many as --lanes auto allowed" : "");
    if (count > 1) {
      const int cpus = l.value("cpus_per_lane", 0);
      out << "; each in its own cpuset";
      if (cpus > 0) out << " of " << cpus << " CPU" << (cpus == 1 ? "" : "s");
      const std::string serial = l.value("serial_equivalent", std::string());
      if (!serial.empty()) out << " (a serial run's " << serial << ")";
      out << ", " << (l.value("lane_dirty_bytes", uint64_t{0}) >> 20) << " MB dirty limit per disk";
      const uint64_t alone = l.value("alone_cells", uint64_t{0});
      if (alone > 0) {
        out << "; then " << alone << " cell" << (alone == 1 ? "" : "s")
            << " that take no lanes, alone on lane 0's disk";
      }
    }
    out << "\n";
  }
  out << ShardsNote(ctx);
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

std::string RenderEnvironmentHeader(const nlohmann::json& context, const std::string& units) {
  std::string header = RenderEnvironmentHeader(context);
  if (header.empty()) return header;  // a seed's rows alone stay byte for byte the seed's
  header.insert(header.size() - 1, units + "\n");  // before the blank line that ends it
  return header;
}

std::string PageCacheMark(double mb_s, double disk_mb_s) {
  return disk_mb_s > 0 && mb_s > disk_mb_s * 1.1 ? " (page cache)" : "";
}

}  // namespace elevbench
