#include "harness/machine/role_cgroups.h"

#include <filesystem>

#include "harness/core/error.h"

namespace elevbench {

RolePlacements IoprioPlacements(const IoControl& control) {
  RolePlacements p;
  p.load.ioprio = control.load.IoprioValue();
  p.probe.ioprio = control.probe.IoprioValue();
  return p;
}

RoleCgroups::RoleCgroups(Sysfs sysfs, MakeCgroupDirectory make)
    : sysfs_(std::move(sysfs)),
      make_(make ? std::move(make) : MakeCgroupDirectory(MakeCgroupDirectoryPlainly)) {}

bool RoleCgroups::MakeRole(const RoleSetting& role, const IoCgroupLayout& layout,
                           const std::string& path, const std::string& device,
                           RestoreJournal* journal, ProcessPlacement* placement, std::string* err) {
  if (!MakeJournaledCgroup(sysfs_, make_, path, journal, err)) return false;
  paths_.push_back(path);
  placement->cgroup_procs.push_back(sysfs_.Map(path + "/cgroup.procs"));
  if (role.weight > 0 && !SetWeight(path, role.weight, err)) return false;
  if (role.latency_us > 0 &&
      !sysfs_.Write(path + "/io.latency", device + " target=" + std::to_string(role.latency_us),
                    err)) {
    return false;
  }
  if (role.bytes_per_second == 0) return true;  // its own cgroup, for its accounting; no limit
  const std::string bps = std::to_string(role.bytes_per_second);
  if (layout.version == 2) {
    // io.max reads back with riops=max wiops=max added: a plain write, checked by the kernel.
    return sysfs_.Write(path + "/io.max", device + " rbps=" + bps + " wbps=" + bps, err);
  }
  for (const char* file : {"/blkio.throttle.read_bps_device", "/blkio.throttle.write_bps_device"}) {
    if (!sysfs_.WriteVerified(path + file, device + " " + bps, err)) return false;
  }
  return true;
}

// io.weight (read by io.cost) and io.bfq.weight (read by bfq) alike, so the one weight holds
// under either; io.bfq.weight exists once bfq is loaded, and is required when the run has bfq.
bool RoleCgroups::SetWeight(const std::string& path, uint32_t weight, std::string* err) {
  const std::string w = std::to_string(weight);
  if (!sysfs_.WriteVerified(path + "/io.weight", "default " + w, err)) return false;
  std::error_code ec;
  if (!std::filesystem::exists(sysfs_.Map(path + "/io.bfq.weight"), ec)) {
    return !bfq_weight_required_ ||
           Fail(err, path +
                         "/io.bfq.weight is missing: bfq (CONFIG_BFQ_GROUP_IOSCHED) is not "
                         "loaded with cgroup support");
  }
  return sysfs_.WriteVerified(path + "/io.bfq.weight", "default " + w, err);
}

bool RoleCgroups::Create(const IoControl& control, const IoCgroupLayout& layout,
                         const std::string& name, const std::string& device,
                         RestoreJournal* journal, RolePlacements* placements, std::string* err) {
  *placements = IoprioPlacements(control);
  if (!control.NeedsCgroups()) return true;
  if (name.rfind("elevbench-", 0) != 0 || name.find('/') != std::string::npos) {
    return Fail(err, "cgroup name '" + name + "' must start with elevbench- and have no '/'");
  }
  if (layout.version == 0) return Fail(err, control.text + ": this host has no blk-throttle");
  const std::string base = layout.parent + "/" + name;
  return MakeRole(control.load, layout, base + "-load", device, journal, &placements->load, err) &&
         MakeRole(control.probe, layout, base + "-probe", device, journal, &placements->probe, err);
}

}  // namespace elevbench
