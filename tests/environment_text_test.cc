// The environment header's machine line: a run held to a smaller machine by --machine says so
// after the host's facts; a results file without that block renders as it always did.

#include "reporters/environment_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace elevbench {
namespace {

nlohmann::json HostContext() {
  return {
      {"cpus", 2}, {"cpu_model", "AMD EPYC"}, {"memory_bytes", 24105ULL << 20}, {"swap_bytes", 0}};
}

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(EnvironmentTextTest, WithoutAnEmulatedMachineTheLineIsTheHosts) {
  EXPECT_EQ(FirstLine(RenderEnvironmentHeader(HostContext())),
            "Machine is SMP 2x AMD EPYC, 24105MB no swap");
}

TEST(EnvironmentTextTest, AnEmulatedMachineFollowsTheHostsFacts) {
  nlohmann::json ctx = HostContext();
  ctx["emulated_machine"] = {
      {"profile", "p4-2003"}, {"memory_bytes", 256ULL << 20}, {"cpus", 1}, {"cgroup_version", 1}};
  EXPECT_EQ(FirstLine(RenderEnvironmentHeader(ctx)),
            "Machine is SMP 2x AMD EPYC, 24105MB no swap (emulated: 1 CPU, 256 MB)");
  ctx["emulated_machine"] = {{"spec", "cpus=2"}, {"memory_bytes", 0}, {"cpus", 2}};
  EXPECT_EQ(FirstLine(RenderEnvironmentHeader(ctx)),
            "Machine is SMP 2x AMD EPYC, 24105MB no swap (emulated: 2 CPUs)");
  ctx["emulated_machine"] = {{"spec", "ram=1G"}, {"memory_bytes", 1ULL << 30}, {"cpus", 0}};
  EXPECT_EQ(FirstLine(RenderEnvironmentHeader(ctx)),
            "Machine is SMP 2x AMD EPYC, 24105MB no swap (emulated: 1024 MB)");
}

TEST(EnvironmentTextTest, AMalformedBlockAddsNothing) {
  for (const nlohmann::json& bad :
       {nlohmann::json("p4-2003"), nlohmann::json{{"cpus", "one"}, {"memory_bytes", -5}},
        nlohmann::json::object()}) {
    nlohmann::json ctx = HostContext();
    ctx["emulated_machine"] = bad;
    EXPECT_EQ(FirstLine(RenderEnvironmentHeader(ctx)),
              "Machine is SMP 2x AMD EPYC, 24105MB no swap")
        << bad.dump();
  }
}

// --lanes: the header says how many disks ran at once and which machine a lane is, as the
// serial run's --machine that would measure the same (docs/lanes.md, like with like).
TEST(EnvironmentTextTest, LanesSayWhichMachineALaneIs) {
  nlohmann::json ctx = HostContext();
  ctx["lanes"] = {{"count", 2},
                  {"asked", "auto"},
                  {"cpus_per_lane", 1},
                  {"serial_equivalent", "--machine cpus=1"},
                  {"lane_dirty_bytes", 50332549}};
  const std::string text = RenderEnvironmentHeader(ctx);
  EXPECT_NE(text.find("Lanes: 2 emulated disks at once, as many as --lanes auto allowed; each in "
                      "its own cpuset of 1 CPU (a serial run's --machine cpus=1), 48 MB dirty "
                      "limit per disk\n"),
            std::string::npos)
      << text;
  ctx["lanes"]["alone_cells"] = 24;  // a composite's parts that take no lanes
  EXPECT_NE(RenderEnvironmentHeader(ctx).find("48 MB dirty limit per disk; then 24 cells that "
                                              "take no lanes, alone on lane 0's disk\n"),
            std::string::npos)
      << RenderEnvironmentHeader(ctx);
  ctx["lanes"] = {{"count", 1}, {"asked", "auto"}};
  EXPECT_NE(RenderEnvironmentHeader(ctx).find("Lanes: 1 (serial run), as many as --lanes auto "
                                              "allowed\n"),
            std::string::npos);
}

// A serial emulated run: the header says whether its disk had a strict limit of its own, as a
// lane's, or the machine-wide one alone (a kernel before 6.2), since Bench 2 moves with it.
TEST(EnvironmentTextTest, SerialRunSaysHowItsDiskWasThrottled) {
  nlohmann::json ctx = HostContext();
  ctx["disk_writeback"] = {{"strict_limit", true}, {"dirty_bytes", 50331648}};
  EXPECT_NE(RenderEnvironmentHeader(ctx).find(
                "Emulated disk writeback: 48 MB dirty limit of its own (strict, as a lane's)\n"),
            std::string::npos)
      << RenderEnvironmentHeader(ctx);
  ctx["disk_writeback"] = {{"strict_limit", false}, {"why", "no per-device limits"}};
  EXPECT_NE(RenderEnvironmentHeader(ctx).find("Emulated disk writeback: the machine-wide dirty "
                                              "limit alone (no per-device limits)\n"),
            std::string::npos)
      << RenderEnvironmentHeader(ctx);
}

// `run --kernels`: a line a kernel, its guest, its CPU against the host's, and a failure.
TEST(EnvironmentTextTest, EveryKernelUnderTestHasALineWithItsGuest) {
  nlohmann::json ctx = HostContext();
  ctx["kernels"] = {{{"label", "6.1.0-50-cloud"},
                     {"release", "6.1.0-50-cloud-amd64"},
                     {"accelerator", "tcg"},
                     {"vcpus", 2},
                     {"memory_mib", 6656},
                     {"cpu_probe_seconds", 2.5},
                     {"host_cpu_probe_seconds", 0.5},
                     {"failure", ""}},
                    {{"label", "new"},
                     {"release", "6.12.118+deb12-cloud-amd64"},
                     {"accelerator", "tcg"},
                     {"vcpus", 1},
                     {"memory_mib", 768},
                     {"failure", "the guest made no progress for 1800 s; stopped"}},
                    {{"label", "ic"},
                     {"release", "6.1.0-50-cloud-amd64"},
                     {"accelerator", "tcg"},
                     {"clock", "instructions"},
                     {"vcpus", 1},
                     {"memory_mib", 6656},
                     {"cpu_probe_seconds", 5.6},
                     {"host_cpu_probe_seconds", 0.5},
                     {"failure", ""}}};
  const std::string h = RenderEnvironmentHeader(ctx);
  EXPECT_NE(h.find("Kernel 6.1.0-50-cloud: 6.1.0-50-cloud-amd64 in a QEMU TCG guest, 2 vCPU, "
                   "6656 MiB; its CPU 5.0x slower than the host's (a shell loop)\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("Kernel new: 6.12.118+deb12-cloud-amd64 in a QEMU TCG guest, 1 vCPU, 768 MiB; "
                   "failed: the guest made no progress for 1800 s; stopped\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("Kernel ic: 6.1.0-50-cloud-amd64 in a QEMU TCG guest, on the instruction "
                   "clock (1 ns an instruction), 1 vCPU, 6656 MiB; its CPU 11.2x slower than the "
                   "host's in guest time (a shell loop)\n"),
            std::string::npos)
      << h;
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// `run --shard I/N` says which slice it ran; a merged document names every shard's box
// (docs/ci.md: boxes differ, and the header shows how).
TEST(EnvironmentTextTest, AShardAndTheBoxesOfMergedShardsAreNamed) {
  nlohmann::json shard = HostContext();
  shard["hostname"] = "boxa";
  shard["kernel"] = "6.18.44";
  shard["shard"] = {{"index", 1}, {"count", 2}, {"cells", 8}, {"plan_cells", 16}};
  EXPECT_NE(RenderEnvironmentHeader(shard).find(
                "Shard 1/2: 8 of the plan's 16 cells (`elevbench merge` joins the shards)\n"),
            std::string::npos)
      << RenderEnvironmentHeader(shard);
  nlohmann::json other = shard;
  other["hostname"] = "boxb";
  other["cpu_model"] = "Intel Xeon";
  other["shard"]["index"] = 2;
  nlohmann::json merged = HostContext();
  merged["shards"] = {{{"shard", 1}, {"file", "a.json"}, {"complete", true}, {"context", shard}},
                      {{"shard", 2}, {"file", "b.json"}, {"complete", false}, {"context", other}}};
  EXPECT_NE(RenderEnvironmentHeader(merged).find(
                "Shards: 2 merged, one box each (every cell records its shard):\n"
                "  Shard 1/2: boxa, AMD EPYC, 2 CPUs, kernel 6.18.44, 8 cells\n"
                "  Shard 2/2: boxb, Intel Xeon, 2 CPUs, kernel 6.18.44, 8 cells (unfinished)\n"),
            std::string::npos)
      << RenderEnvironmentHeader(merged);
}

}  // namespace
}  // namespace elevbench
