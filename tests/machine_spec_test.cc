// `--machine SPEC`: the parser, the bounds against the host, and the MachineInfo the suites see.

#include "harness/machine/machine_spec.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

MachineInfo Host() {
  MachineInfo host;
  host.kernel = "6.18.44";
  host.hostname = "box";
  host.cpus = 4;
  host.cpu_model = "AMD EPYC";
  host.memory_bytes = 8ULL << 30;
  host.swap_bytes = 1ULL << 30;
  return host;
}

TEST(MachineSpecTest, TheP4ProfileIsTheSeedsBox) {
  MachineSpec spec;
  std::string err;
  ASSERT_TRUE(ParseMachineSpec("p4-2003", &spec, &err)) << err;
  EXPECT_EQ(spec.profile, "p4-2003");
  EXPECT_EQ(spec.memory_bytes, 256ULL << 20);
  EXPECT_EQ(spec.cpus, 1);
  EXPECT_TRUE(spec.limits());
}

TEST(MachineSpecTest, RamAndCpusEitherPartOptional) {
  MachineSpec spec;
  std::string err;
  ASSERT_TRUE(ParseMachineSpec("ram=512M,cpus=2", &spec, &err)) << err;
  EXPECT_EQ(spec.memory_bytes, 512ULL << 20);
  EXPECT_EQ(spec.cpus, 2);
  EXPECT_EQ(spec.profile, "");
  ASSERT_TRUE(ParseMachineSpec("cpus=1,ram=1G", &spec, &err)) << err;
  EXPECT_EQ(spec.memory_bytes, 1ULL << 30);
  EXPECT_EQ(spec.cpus, 1);
  ASSERT_TRUE(ParseMachineSpec("ram=1.5G", &spec, &err)) << err;
  EXPECT_EQ(spec.memory_bytes, 3ULL << 29);
  EXPECT_EQ(spec.cpus, 0);  // not limited
  ASSERT_TRUE(ParseMachineSpec("cpus=3", &spec, &err)) << err;
  EXPECT_EQ(spec.memory_bytes, 0u);
  EXPECT_EQ(spec.cpus, 3);
  EXPECT_EQ(spec.text, "cpus=3");
  EXPECT_FALSE(spec.disk_shares_cpus);  // the disk outside the machine by default
  ASSERT_TRUE(ParseMachineSpec("cpus=1,disk-cpus=shared", &spec, &err)) << err;
  EXPECT_TRUE(spec.disk_shares_cpus);
  ASSERT_TRUE(ParseMachineSpec("cpus=1,disk-cpus=own", &spec, &err)) << err;
  EXPECT_FALSE(spec.disk_shares_cpus);
}

TEST(MachineSpecTest, BadSpecsNameTheirBadPart) {
  const struct {
    const char* text;
    const char* needle;
  } kCases[] = {
      {"", "empty spec"},
      {"p3-1999", "unknown profile 'p3-1999'"},
      {"P4-2003", "unknown profile"},
      {"ram=12Q", "bad size '12Q'"},
      {"ram=-1G", "ram"},
      {"ram=", "not key=value"},
      {"ram=256M,", "not key=value"},
      {",cpus=1", "not key=value"},
      {"cpus=x", "'x' is not a CPU count"},
      {"cpus=-1", "not a CPU count"},
      {"cpus=1.5", "not a CPU count"},
      {"cpus=0", "at least 1 CPU"},
      {"cpus=1,cpus=2", "cpus given twice"},
      {"ram=1G,ram=2G", "ram given twice"},
      {"swap=1G", "unknown key 'swap'"},
      {"cpus=1,disk-cpus=yes", "disk-cpus: 'yes' is not shared or own"},
      {"p4-2003,ram=1G", "'p4-2003' is not key=value"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.text);
    MachineSpec spec;
    spec.cpus = 77;  // untouched on failure
    std::string err;
    EXPECT_FALSE(ParseMachineSpec(c.text, &spec, &err));
    EXPECT_NE(err.find(c.needle), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
    EXPECT_EQ(spec.cpus, 77);
  }
}

TEST(MachineSpecTest, BoundsAreTheHostsCpusAndRam) {
  const MachineInfo host = Host();
  std::string err;
  MachineSpec spec;
  ASSERT_TRUE(ParseMachineSpec("ram=64M,cpus=4", &spec, &err)) << err;
  EXPECT_TRUE(CheckMachineSpec(spec, host, &err)) << err;
  ASSERT_TRUE(ParseMachineSpec("ram=8G", &spec, &err)) << err;
  EXPECT_TRUE(CheckMachineSpec(spec, host, &err)) << err;

  ASSERT_TRUE(ParseMachineSpec("cpus=5", &spec, &err)) << err;
  EXPECT_FALSE(CheckMachineSpec(spec, host, &err));
  EXPECT_NE(err.find("4 online CPU(s)"), std::string::npos) << err;
  ASSERT_TRUE(ParseMachineSpec("ram=63M", &spec, &err)) << err;
  EXPECT_FALSE(CheckMachineSpec(spec, host, &err));
  EXPECT_NE(err.find("below the 64 MiB"), std::string::npos) << err;
  ASSERT_TRUE(ParseMachineSpec("ram=9G", &spec, &err)) << err;
  EXPECT_FALSE(CheckMachineSpec(spec, host, &err));
  EXPECT_NE(err.find("more than this machine's 8192 MiB"), std::string::npos) << err;
}

TEST(MachineSpecTest, TheSuitesSeeTheLimitsAndNoSwap) {
  MachineSpec spec;
  std::string err;
  ASSERT_TRUE(ParseMachineSpec("p4-2003", &spec, &err)) << err;
  const MachineInfo m = EmulatedMachineInfo(Host(), spec);
  EXPECT_TRUE(m.emulated);
  EXPECT_EQ(m.emulated_profile, "p4-2003");
  EXPECT_EQ(m.memory_bytes, 256ULL << 20);
  EXPECT_EQ(m.cpus, 1);
  EXPECT_EQ(m.swap_bytes, 0u);
  EXPECT_EQ(m.kernel, "6.18.44");  // the rest is the host's
  EXPECT_EQ(m.cpu_model, "AMD EPYC");

  ASSERT_TRUE(ParseMachineSpec("cpus=2", &spec, &err)) << err;
  const MachineInfo cpus_only = EmulatedMachineInfo(Host(), spec);
  EXPECT_EQ(cpus_only.emulated_profile, "cpus=2");
  EXPECT_EQ(cpus_only.cpus, 2);
  EXPECT_EQ(cpus_only.memory_bytes, 8ULL << 30);  // RAM not limited
  EXPECT_EQ(cpus_only.swap_bytes, 1ULL << 30);

  const MachineInfo plain = EmulatedMachineInfo(Host(), MachineSpec{});
  EXPECT_FALSE(plain.emulated);
  EXPECT_EQ(plain.cpus, 4);
}

TEST(MachineSpecTest, LimitsDescribedForTheHeader) {
  EXPECT_EQ(DescribeMachineLimits(1, 256ULL << 20), "1 CPU, 256 MB");
  EXPECT_EQ(DescribeMachineLimits(2, 0), "2 CPUs");
  EXPECT_EQ(DescribeMachineLimits(0, 1ULL << 30), "1024 MB");
  EXPECT_EQ(DescribeMachineLimits(0, 0), "");
}

}  // namespace
}  // namespace elevbench
