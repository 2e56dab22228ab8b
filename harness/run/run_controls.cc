// RunJob's steps for `run --controls` (docs/controls.md): the roles' cgroups, io.cost on the
// disk (its model measured when asked) and the results context's block. The words are checked in
// run_checks.cc, the crossing named in run_labels.cc.

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/device/block_device.h"
#include "harness/machine/io_cost_measure.h"
#include "harness/run/run_job.h"

namespace elevbench {

namespace {

// The file `iocost:model=measure` measures on (docs/controls.md: 512 MiB for 10 s a run, or
// half the target's free space where that is less, in whole MiB).
constexpr uint64_t kIoCostFileBytes = 512ull << 20;
constexpr double kIoCostSecondsEach = 10;

bool AnyMeasuredModel(const std::vector<IoControl>& controls) {
  return std::any_of(controls.begin(), controls.end(), [](const IoControl& c) {
    return c.kind == IoControl::Kind::kIocost && c.iocost.model == "measure";
  });
}

}  // namespace

bool RunJob::MakeControlCgroups(std::string* err) {
  const std::vector<IoControl>& controls = checked_.controls;
  control_placements_.clear();
  for (const IoControl& c : controls) control_placements_.push_back(IoprioPlacements(c));
  bool cgroups = false, bfq = false;
  io_cost_used_ = false;
  for (const IoControl& c : controls) {
    cgroups = cgroups || c.NeedsCgroups();
    for (const SchedulerConfig& s : configs_) {
      io_cost_used_ = io_cost_used_ || c.EnablesIoCost(s.scheduler);
      bfq = bfq || (s.scheduler == "bfq" && c.kind == IoControl::Kind::kWeight);
    }
    if (configs_.empty()) io_cost_used_ = io_cost_used_ || c.EnablesIoCost("");
  }
  if (!cgroups) return true;
  if (target_.disks().empty()) {
    return Fail(err, "--controls: cannot find the block device under " + target_.directory() +
                         " to control");
  }
  uint32_t major = 0, minor = 0;
  if (!ReadDiskNumbers(sysfs_, target_.disks().front(), &major, &minor, err)) {
    return Fail(err, "--controls: the device number of " + target_.disks().front() + ": " + *err);
  }
  controlled_disk_ = std::to_string(major) + ":" + std::to_string(minor);
  role_cgroups_.RequireBfqWeight(bfq);
  for (size_t j = 0; j < controls.size(); ++j) {
    const std::string name =
        "elevbench-" + std::to_string(getpid()) + "-control" + std::to_string(j);
    if (!role_cgroups_.Create(controls[j], checked_.io_layout, name, controlled_disk_, &journal_,
                              &control_placements_[j], err)) {
      return Fail(err, "--controls " + controls[j].text + ": " + *err);
    }
  }
  std::string where;
  for (const std::string& p : role_cgroups_.paths()) where += (where.empty() ? "" : ", ") + p;
  progress_.Note("elevbench: controls' cgroups (v" + std::to_string(checked_.io_layout.version) +
                 ", disk " + controlled_disk_ + "): " + where);
  if (io_cost_used_ && !io_cost_.Prepare(controlled_disk_, &journal_, err)) {
    return Fail(err, "--controls: " + *err);
  }
  return !AnyMeasuredModel(controls) || MeasureIoCostModelOnTarget(err);
}

// iocost:model=measure: the kernel's recipe on a file of the target, under none with merges
// off (journaled, put back after), before the suite lays anything out.
bool RunJob::MeasureIoCostModelOnTarget(std::string* err) {
  const std::string disk = target_.disks().front();
  const std::string nomerges = "/sys/block/" + disk + "/queue/nomerges";
  const std::string file = target_.directory() + "/elevbench-iocost-model.dat";
  struct statvfs fs {};
  if (statvfs(target_.directory().c_str(), &fs) != 0) {
    return Fail(err, "--controls iocost:model=measure: statvfs " + target_.directory() + ": " +
                         std::strerror(errno));
  }
  const uint64_t half_free = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize / 2;
  const uint64_t file_bytes = std::min(kIoCostFileBytes, half_free / (1 << 20) * (1 << 20));
  if (file_bytes < (16ull << 20)) {
    return Fail(err, "--controls iocost:model=measure: " + target_.directory() +
                         " has too little free space for the model's file (16 MiB at least)");
  }
  std::string before;
  if (!journal_.Record(JournalEntry::File(file), err) ||
      !journal_.RecordSysfsValue(nomerges, err) || !sysfs_.Read(nomerges, &before, err) ||
      !control_->Apply(SchedulerConfig{"none", {}, ""}, err) ||
      !sysfs_.WriteVerified(nomerges, "1", err)) {
    return Fail(err, "--controls iocost:model=measure: " + *err);
  }
  progress_.Note("elevbench: measuring io.cost's model of " + disk + " on " +
                 std::to_string(file_bytes >> 20) + " MiB of " + target_.directory() +
                 " (the kernel's recipe: 6 fio runs of " +
                 std::to_string(static_cast<int>(kIoCostSecondsEach)) + " s)");
  const bool measured =
      MeasureIoCostModel("fio", file, file_bytes, kIoCostSecondsEach, &io_cost_model_, err);
  std::string cleanup_err;
  unlink(file.c_str());
  const bool put_back = sysfs_.WriteVerified(nomerges, TrimWhitespace(before), &cleanup_err);
  if (!measured) return Fail(err, "--controls iocost:model=measure: " + *err);
  if (!put_back) return Fail(err, "--controls iocost:model=measure: " + cleanup_err);
  progress_.Note("elevbench: io.cost model of " + disk + " (" + controlled_disk_ +
                 "), measured: " + io_cost_model_.Pairs());
  return true;
}

std::function<bool(std::string*)> RunJob::IoCostStep(const IoControl& control,
                                                     const std::string& scheduler) {
  if (!io_cost_used_) return {};
  const bool on = control.EnablesIoCost(scheduler);
  const IoCostSettings settings = control.iocost;
  const bool measured = control.kind == IoControl::Kind::kIocost && settings.model == "measure";
  return [this, on, settings, measured](std::string* err) {
    return io_cost_.Apply(on, settings, measured ? io_cost_model_ : IoCostModel{}, err);
  };
}

nlohmann::json RunJob::ControlsContext() const {
  nlohmann::json list = nlohmann::json::array();
  for (const IoControl& c : checked_.controls) {
    list.push_back({{"control", c.text}, {"code", c.code}});
  }
  nlohmann::json context = {{"list", list},
                            {"cgroup_version", checked_.io_layout.version},
                            {"disk", controlled_disk_},
                            {"cgroups", role_cgroups_.paths()}};
  if (io_cost_used_) {
    context["io_cost_model"] = io_cost_model_.measured() ? io_cost_model_.Pairs() : "ctrl=auto";
  }
  return context;
}

}  // namespace elevbench
