#pragma once
// io.cost on the target's disk for the cells of `run --controls` that need it (docs/controls.md):
// `iocost` always, `weight` under a scheduler other than bfq (io.weight means nothing without
// io.cost). io.cost is a property of the disk, not of a cgroup: the root cgroup's io.cost.qos
// and io.cost.model hold one line per disk, so each cell turns it on or off before it runs, as
// the scheduler is switched. Both lines are journaled before the first write (their values
// then, or the defaults `enable=0` and `ctrl=auto` for a disk without a line), so the end of
// the run and `elevbench restore` after a kill put them back.

#include <string>

#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "harness/machine/io_controls.h"

namespace elevbench {

/// The io.cost.model line of a measured or given linear model: "7:3 ctrl=user model=linear
/// rbps=… rseqiops=… rrandiops=… wbps=… wseqiops=… wrandiops=…".
struct IoCostModel {
  uint64_t rbps = 0, rseqiops = 0, rrandiops = 0;
  uint64_t wbps = 0, wseqiops = 0, wrandiops = 0;
  bool measured() const { return rbps > 0; }
  /// The pairs after the device: "ctrl=user model=linear rbps=…"; "ctrl=auto" when unmeasured.
  std::string Pairs() const;
};

/// Switches io.cost on one disk between cells.
class IoCostSwitch {
 public:
  explicit IoCostSwitch(Sysfs sysfs = Sysfs()) : sysfs_(std::move(sysfs)) {}

  /// Journals the disk `device` ("7:3")'s io.cost.qos and io.cost.model lines. Nothing is
  /// written. False with one line in err (no io.cost on this kernel: the files are missing).
  [[nodiscard]] bool Prepare(const std::string& device, RestoreJournal* journal, std::string* err);

  /// Turns io.cost on with `settings` (the model `model` when measured, else the kernel's; QoS
  /// the kernel's or the latency target) or off ("enable=0"), each write read back.
  [[nodiscard]] bool Apply(bool on, const IoCostSettings& settings, const IoCostModel& model,
                           std::string* err);

 private:
  // The disk's current line of `file` under the root, or `fallback` pairs when it has none.
  std::string CurrentLine(const std::string& file, const std::string& fallback) const;

  Sysfs sysfs_;
  std::string device_;
};

}  // namespace elevbench
