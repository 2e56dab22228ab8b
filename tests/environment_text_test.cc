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

}  // namespace
}  // namespace elevbench
