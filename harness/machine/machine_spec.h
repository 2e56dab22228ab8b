#pragma once
// `--machine SPEC`: the machine a run pretends to be, e.g. the 2003 box of the seed posts (one
// CPU, 256 MB, no swap). The spec is a named profile ("p4-2003") or "ram=SIZE,cpus=N" with either
// part optional. It is enforced with cgroups (machine_cgroups.h) and handed to the suites as the
// MachineInfo they size their loads by, so a suite that defaults to 2×RAM uses 2×256 MB.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/system_info.h"

namespace elevbench {

/// The smallest RAM a spec may ask for: below it fio and the suites' own processes would be
/// killed by the limit rather than measured under it.
inline constexpr uint64_t kMinMachineMemoryBytes = 64ULL << 20;

/// A named machine. The profiles are the boxes of the seed posts.
struct MachineProfile {
  const char* name;  ///< "p4-2003"
  uint64_t memory_bytes;
  int cpus;
  const char* description;  ///< where it comes from, for --help and the docs
};

/// Every named profile.
const std::vector<MachineProfile>& MachineProfiles();

/// "p4-2003, …": the profile names for error messages and --help.
std::string MachineProfileNames();

/// A parsed `--machine`. A part left out is not limited (0).
struct MachineSpec {
  std::string text;           ///< as given on the command line
  std::string profile;        ///< the profile's name, or empty for a ram=/cpus= spec
  uint64_t memory_bytes = 0;  ///< the RAM limit; 0 = the host's RAM, not limited
  int cpus = 0;               ///< the CPU count; 0 = the host's CPUs, not limited
  /// Which CPUs, as a cpuset list ("1", "2-3"), when the run chooses them (a lane's, with
  /// `--lanes`); empty: the highest-numbered `cpus` (ChooseCpus). Never from the command line.
  std::string cpu_list;
  /// `disk-cpus=shared`: the emulated disk's daemon runs on the machine's CPUs (in a cpuset of
  /// its own with the same CPUs), as a lane's does, instead of outside the machine (the
  /// default, `own`). A serial run's copy of a lane on a box without a CPU per lane's disk.
  bool disk_shares_cpus = false;

  /// True when the spec limits anything (an unparsed, empty spec does not).
  bool limits() const { return memory_bytes > 0 || cpus > 0; }
};

/// Parses a profile name or "ram=SIZE,cpus=N" (SIZE as ParseSizeBytes: 256M, 1G). Syntax only;
/// CheckMachineSpec checks the values against the host. False with one line in err naming the
/// bad part (unknown profile, unknown key, repeated key, bad size, bad count).
[[nodiscard]] bool ParseMachineSpec(const std::string& text, MachineSpec* spec, std::string* err);

/// Checks a parsed spec against the host: RAM from kMinMachineMemoryBytes to the host's RAM,
/// CPUs from 1 to the host's online CPUs. False with one line in err.
[[nodiscard]] bool CheckMachineSpec(const MachineSpec& spec, const MachineInfo& host,
                                    std::string* err);

/// The MachineInfo the suites see under `spec`: the host's facts with memory_bytes and cpus
/// replaced by the limits, swap 0 (the limit allows none), and `emulated` set.
MachineInfo EmulatedMachineInfo(const MachineInfo& host, const MachineSpec& spec);

/// "1 CPU, 256 MB", "2 CPUs", "512 MB": what the spec limits, for the report header.
std::string DescribeMachineLimits(int cpus, uint64_t memory_bytes);

}  // namespace elevbench
