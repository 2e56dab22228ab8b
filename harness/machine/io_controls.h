#pragma once
// The I/O controls of `run --controls` (docs/controls.md): what besides the elevator protects
// one program from another's I/O. A control is a configuration beside the scheduler: the plan
// crosses --schedulers with --controls, and each role of a suite with a load and a probe gets
// the control's setting: an I/O priority class (ioprio_set(2), honoured by mq-deadline and bfq)
// or a blk-throttle limit (cgroup v1 blkio.throttle.*_bps_device, v2 io.max) on its own cgroup.
//
// This file parses the words, names them (the short codes that labels and identifiers carry)
// and checks what this kernel's cgroups offer; role_cgroups.h makes the cgroups.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device/sysfs.h"

namespace elevbench {

/// The two roles of a load-vs-probe suite.
enum class IoRole { kLoad, kProbe };

/// What a control sets for one role.
struct RoleSetting {
  /// The I/O priority class (IOPRIO_CLASS_RT 1, BE 2, IDLE 3), 0 for "leave it".
  int ioprio_class = 0;
  int ioprio_level = -1;          ///< 0..7 for rt and be; -1: the kernel's default level (4)
  uint64_t bytes_per_second = 0;  ///< blk-throttle's read and write limit; 0: none
  /// The role cgroup's weight (1..1000) in io.weight (io.cost) and io.bfq.weight (bfq); 0:
  /// the default (100).
  uint32_t weight = 0;
  uint64_t latency_us = 0;  ///< io.latency's target in µs; 0: none
  /// ioprio_set(2)'s value (class << 13 | level), -1 when the role keeps its priority.
  int IoprioValue() const;
};

/// How `iocost` enables io.cost on the target's disk (the root cgroup's io.cost.model and
/// io.cost.qos lines for it).
struct IoCostSettings {
  /// "auto": the kernel's own coefficients for the device's class (io.cost.model ctrl=auto);
  /// "measure": measured on the target before the first cell with the kernel's recipe
  /// (tools/cgroup/iocost_coef_gen.py's six fio runs) and written with ctrl=user.
  std::string model = "auto";
  /// 0: io.cost.qos ctrl=auto; else rpct=95 rlat=N wpct=95 wlat=N (µs), the latency targets at
  /// which io.cost slows the device's issuing down.
  uint64_t qos_latency_us = 0;
};

/// One control of --controls.
struct IoControl {
  enum class Kind { kNone, kIonice, kThrottle, kWeight, kIocost, kIolatency };
  Kind kind = Kind::kNone;
  std::string text;  ///< as given: "ionice:load=idle"
  /// The short code labels and identifiers carry ("idle", "thr10M", "idle-prt"); empty for
  /// none, so a run's `none` rows keep today's names.
  std::string code;
  RoleSetting load;
  RoleSetting probe;
  IoCostSettings iocost;  ///< kIocost's
  /// Every control but none and ionice puts each role in a cgroup of its own.
  bool NeedsCgroups() const { return kind != Kind::kNone && kind != Kind::kIonice; }
  /// Whether the cells of this control run with io.cost enabled on the disk under `scheduler`:
  /// always for iocost; for weight unless the scheduler is bfq, whose io.bfq.weight needs no
  /// io.cost (and io.weight means nothing without it).
  bool EnablesIoCost(const std::string& scheduler) const;
  /// What the kernel must offer (KernelFeatures::io_controllers' names: "throttle", "iocost",
  /// "iolatency", "bfq-weight") for this control under `scheduler`; empty for none and ionice.
  std::string NeededController(const std::string& scheduler) const;
};

/// Parses one control word: `none`, `ionice:ROLE=CLASS[,ROLE=CLASS]` (CLASS idle, be, be:N, rt,
/// rt:N), `throttle:ROLE=RATE[,ROLE=RATE]` (RATE in bytes/s as 10M: K/M/G powers of 1024),
/// `weight:ROLE=W[,ROLE=W]` (W 1..1000), `iocost[:ROLE=W,…,model=auto|measure,qos=LAT]`,
/// `iolatency:ROLE=LAT[,ROLE=LAT]` (LAT as 10ms or 500us). The last three need cgroup v2's io
/// controller: refused ("needs cgroup v2's io controller, which this host lacks") when `io_v2`
/// is false, once their values passed (a bad one is named on any host). One line in err.
[[nodiscard]] bool ParseIoControl(std::string_view word, bool io_v2, IoControl* control,
                                  std::string* err);

/// Parses --controls: words separated by ';' or by ',' before a word with a ':' kind or
/// `none` ("none,ionice:load=idle,throttle:load=10M"); each as ParseIoControl. Empty: {none}.
/// Refuses a control given twice (by its code), naming both words when they are two spellings
/// of it ("'iocost' and 'iocost:model=auto' are the same control (iocost)"). err starts with
/// "--controls: ".
[[nodiscard]] bool ParseIoControls(std::string_view list, bool io_v2,
                                   std::vector<IoControl>* controls, std::string* err);

/// Whether any control of `controls` sets something (is not `none`).
bool AnyControl(const std::vector<IoControl>& controls);

/// Where the role cgroups of the controls go.
struct IoCgroupLayout {
  int version = 0;     ///< 1 (blkio) or 2 (io); 0: neither (only ionice can be given)
  std::string parent;  ///< the cgroup the roles' cgroups are made under
  /// The unified hierarchy's root offers `io` (cgroup.controllers), enabled for children or
  /// not: weight, iocost and iolatency can be parsed; they need version 2 to run.
  bool io_v2_offered = false;
};

/// Finds the I/O controller on the tree under `sysfs` and in /proc/self/cgroup's text: v2 when
/// the unified hierarchy's root offers `io` (and enables it for children), else v1's blkio
/// hierarchy with blk-throttle (under this process's blkio cgroup), else version 0.
IoCgroupLayout DetectIoCgroupLayout(const Sysfs& sysfs, std::string_view proc_self_cgroup);

/// Whether this host can give every control: a throttle needs blk-throttle (a layout of version
/// 1 or 2; in v2 `io` enabled in the root's cgroup.subtree_control); weight, iocost and
/// iolatency a layout of version 2, iocost and weight also the root's io.cost.qos
/// (`io_cost_offered`). One line naming the first control it cannot give, err starting with
/// "--controls ".
[[nodiscard]] bool CheckIoControlsOffered(const std::vector<IoControl>& controls,
                                          const IoCgroupLayout& layout, bool io_v2_offered,
                                          bool io_cost_offered, std::string* err);

/// A scheduler's label with a control's code: "DL" + "idle" -> "DL+idle"; the label alone for
/// none.
std::string ControlledLabel(const std::string& label, const IoControl& control);

/// An identifier with a control's code, lowercase: "6.18.44-dl" + "thr10M" ->
/// "6.18.44-dl-thr10m"; the identifier alone for none.
std::string ControlledIdentifier(const std::string& identifier, const IoControl& control);

}  // namespace elevbench
