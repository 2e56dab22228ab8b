#include "harness/machine/machine_spec.h"

#include "harness/core/error.h"
#include "harness/device/scratch_device.h"

namespace elevbench {
namespace {

// A CPU count: plain decimal digits, 1 to 4096 (checked against the host later).
bool ParseCpuCount(const std::string& text, int* cpus) {
  if (text.empty() || text.size() > 4 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *cpus = std::stoi(text);
  return true;
}

}  // namespace

const std::vector<MachineProfile>& MachineProfiles() {
  static const std::vector<MachineProfile> kProfiles = {
      {"p4-2003", 256ULL << 20, 1,
       "the box of the 2003 seed posts: UP Pentium 4 2.0 GHz, 256 MiB RAM, no swap"},
  };
  return kProfiles;
}

std::string MachineProfileNames() {
  std::string names;
  for (const MachineProfile& p : MachineProfiles())
    names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

bool ParseMachineSpec(const std::string& text, MachineSpec* spec, std::string* err) {
  MachineSpec out;
  out.text = text;
  if (text.empty()) {
    return Fail(err, "--machine: empty spec (a profile: " + MachineProfileNames() +
                         "; or ram=SIZE,cpus=N)");
  }
  if (text.find('=') == std::string::npos) {
    for (const MachineProfile& p : MachineProfiles()) {
      if (text != p.name) continue;
      out.profile = p.name;
      out.memory_bytes = p.memory_bytes;
      out.cpus = p.cpus;
      *spec = out;
      return true;
    }
    return Fail(err, "--machine: unknown profile '" + text + "' (" + MachineProfileNames() +
                         "; or ram=SIZE,cpus=N)");
  }
  bool seen_ram = false, seen_cpus = false;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    start = comma + 1;
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (eq == std::string::npos || value.empty()) {
      return Fail(err, "--machine: '" + part + "' is not key=value (ram=SIZE,cpus=N)");
    }
    if (key == "ram") {
      if (seen_ram) return Fail(err, "--machine: ram given twice");
      seen_ram = true;
      std::string size_err;
      if (!ParseSizeBytes(value, &out.memory_bytes, &size_err)) {
        return Fail(err, "--machine ram: " + size_err);
      }
    } else if (key == "cpus") {
      if (seen_cpus) return Fail(err, "--machine: cpus given twice");
      seen_cpus = true;
      if (!ParseCpuCount(value, &out.cpus)) {
        return Fail(err, "--machine cpus: '" + value + "' is not a CPU count");
      }
      if (out.cpus < 1) return Fail(err, "--machine cpus=0: a machine needs at least 1 CPU");
    } else if (key == "disk-cpus" && (value == "shared" || value == "own")) {
      out.disk_shares_cpus = value == "shared";
    } else if (key == "disk-cpus") {
      return Fail(err, "--machine disk-cpus: '" + value + "' is not shared or own");
    } else {
      return Fail(err, "--machine: unknown key '" + key + "' (ram=SIZE,cpus=N,disk-cpus=shared)");
    }
  }
  *spec = out;
  return true;
}

namespace {

// "64 KiB" below a mebibyte (which MiB would print as 0), else "256 MiB".
std::string MachineMemoryText(uint64_t bytes) {
  if (bytes < (1ULL << 20)) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

bool CheckMachineSpec(const MachineSpec& spec, const MachineInfo& host, std::string* err) {
  if (spec.cpus != 0 && (spec.cpus < 1 || spec.cpus > host.cpus)) {
    return Fail(err, "--machine cpus=" + std::to_string(spec.cpus) + ": this machine has " +
                         std::to_string(host.cpus) + " online CPU(s); give 1 to " +
                         std::to_string(host.cpus));
  }
  if (spec.memory_bytes != 0 && spec.memory_bytes < kMinMachineMemoryBytes) {
    return Fail(err, "--machine ram=" + MachineMemoryText(spec.memory_bytes) + " is below the " +
                         MachineMemoryText(kMinMachineMemoryBytes) + " a run needs");
  }
  if (spec.memory_bytes != 0 && spec.memory_bytes > host.memory_bytes) {
    return Fail(err, "--machine ram=" + MachineMemoryText(spec.memory_bytes) +
                         " is more than this machine's " + MachineMemoryText(host.memory_bytes));
  }
  return true;
}

MachineInfo EmulatedMachineInfo(const MachineInfo& host, const MachineSpec& spec) {
  MachineInfo m = host;
  if (!spec.limits()) return m;
  m.emulated = true;
  m.emulated_profile = spec.profile.empty() ? spec.text : spec.profile;
  if (spec.cpus > 0) m.cpus = spec.cpus;
  if (spec.memory_bytes > 0) {
    m.memory_bytes = spec.memory_bytes;
    m.swap_bytes = 0;
  }
  return m;
}

std::string DescribeMachineLimits(int cpus, uint64_t memory_bytes) {
  std::string text;
  if (cpus > 0) text = std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs");
  if (memory_bytes > 0) {
    text += (text.empty() ? "" : ", ") + std::to_string(memory_bytes >> 20) + " MB";
  }
  return text;
}

}  // namespace elevbench
