#include "harness/run/run_policy.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>

#include "harness/device/block_device.h"
#include "harness/device/device_control.h"

namespace elevbench {

bool ParseRepetitionsOption(const std::string& text, uint32_t max_repetitions, double ci_width_pct,
                            uint32_t* repetitions, AdaptiveRepetitions* adaptive,
                            std::string* err) {
  if (text == "auto") {
    adaptive->enabled = true;
    adaptive->max_repetitions = max_repetitions;
    adaptive->ci_width = ci_width_pct / 100;
    *repetitions = max_repetitions;
    return true;
  }
  size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != text.size() || n < 1 || n > 1000 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    *err = "--repetitions must be a number from 1 to 1000 or 'auto', not '" + text + "'";
    return false;
  }
  *repetitions = static_cast<uint32_t>(n);
  return true;
}

namespace {

// How to need less: only tiobench, nickbench and orasim have a --size.
std::string SmallerLoadHint(const std::string& suite) {
  if (suite == "tiobench" || suite == "nickbench" || suite == "orasim") return "a smaller --size";
  if (suite == "replay") return "a shorter trace";
  return "fewer or smaller loads";
}

}  // namespace

bool SizeTargetForSuite(const std::string& suite, uint64_t needed, bool emulated_size_given,
                        bool default_scratch, TargetOptions* t, std::string* err) {
  const uint64_t fitting = std::max<uint64_t>(needed + (192ULL << 20), 1ULL << 30);
  if (t->emulated && !emulated_size_given) {
    t->emulated_options.size_bytes = std::max<uint64_t>(t->emulated_options.size_bytes, fitting);
  }
  for (const auto& [flag, bytes] :
       {std::pair<const char*, uint64_t>{"--scratch", t->scratch_bytes},
        {"--emulated", t->emulated ? t->emulated_options.size_bytes : 0}}) {
    if (bytes > 0 && bytes < needed) {
      *err = suite + " needs " + std::to_string(needed >> 20) + " MiB, which does not fit on the " +
             std::to_string(bytes >> 20) + " MiB device of " + flag + "; give a larger device or " +
             SmallerLoadHint(suite);
      return false;
    }
  }
  struct statvfs fs {};
  if (!t->directory.empty() && statvfs(t->directory.c_str(), &fs) == 0 &&
      static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize < needed) {
    *err = suite + " needs " + std::to_string(needed >> 20) + " MiB, but --dir " + t->directory +
           " has " + std::to_string((static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize) >> 20) +
           " MiB free; free some space or give " + SmallerLoadHint(suite);
    return false;
  }
  if (default_scratch) t->scratch_bytes = fitting;
  return true;
}

std::string DefaultResultsPath(const std::string& suite, const std::string& host) {
  std::string compact;
  for (char c : NowIso8601()) {
    if (c != '-' && c != ':') compact += c;
  }
  return "results/" + compact + "-" + host + "-" + suite + ".json";
}

std::string GlobalCacheDropNote(bool root, bool drop_caches) {
  if (drop_caches) return "; all caches dropped before each cell";
  return root ? " (--no-drop-caches: no global drop)" : " (not root: no global drop)";
}

namespace {

// The context's "devices": each disk of the target, named as what elevbench made of it.
nlohmann::json TargetDevicesJson(const RunTarget& target) {
  nlohmann::json devices = nlohmann::json::array();
  for (const std::string& d : target.disks()) {
    BlockDeviceInfo info;
    std::string err;
    if (!ReadBlockDevice(d, SystemPaths{}, &info, &err)) continue;
    nlohmann::json dj = ToJson(info);
    if (target.emulated()) {
      dj["model"] = "elevbench emulated " + target.stack().profile.name + " disk";
    } else if (target.created_device()) {
      dj["model"] = "elevbench scratch loop device";
    }
    devices.push_back(dj);
  }
  return devices;
}

}  // namespace

nlohmann::json RunContextJson(const RunContextFacts& f) {
  const RunTarget& target = *f.target;
  const MachineInfo& machine = f.machine;
  nlohmann::json context = {
      {"elevbench_version", ELEVBENCH_VERSION},
      {"command_line", f.command_line},
      {"kernel", machine.kernel},
      {"hostname", machine.hostname},
      {"cpus", machine.cpus},
      {"cpu_model", machine.cpu_model},
      {"memory_bytes", machine.memory_bytes},
      {"swap_bytes", machine.swap_bytes},
      {"fio_version", f.fio_version},
      {"start_time", NowIso8601()},
      {"root", f.root},
      {"target", target.description()},
      {"filesystem", target.description().is_object()
                         ? target.description().value("filesystem", std::string())
                         : std::string()},
      {"devices", TargetDevicesJson(target)},
      {"switching", f.switching},
      {"pinned_queue", f.switching ? f.pinned : std::vector<std::pair<std::string, std::string>>{}},
      {"seed", f.seed},
      {"drop_caches", f.drop_caches},
      {"timeout_seconds", f.timeout_seconds},
      {"cache_policy", f.cache_policy},
  };
  if (!f.emulated_machine.is_null()) context["emulated_machine"] = f.emulated_machine;
  if (target.emulated()) {
    context["vm_settings"] = f.vm_settings.empty() ? EmulatedVmSettings() : f.vm_settings;
    if (!f.disk_writeback.is_null()) context["disk_writeback"] = f.disk_writeback;
    context["emulated_queue"] = EmulatedQueueSettingsJson(target.stack());
  }
  return context;
}

}  // namespace elevbench
