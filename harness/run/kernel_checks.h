#pragma once
// The checks of `run --kernels`'s choices that need no job (kernels_job.h): what a kernel must
// offer (the guest's needs, the schedulers of --schedulers, what each control needs, from its
// config), what the host must have (the tools a guest needs, the Debian packages known), and
// the host-side flags a guest run takes (--lanes, --machine's CPUs on the instruction clock).
// Each refuses in one line, before anything is made.

#include <cstddef>
#include <string>
#include <vector>

#include "harness/device/scheduler_config.h"
#include "harness/guest/kernel_cache.h"
#include "harness/machine/io_controls.h"
#include "harness/run/kernel_rows.h"
#include "harness/run/run_config.h"

namespace elevbench {

/// Whether kernel `release`, offering `features` (its config's), can give each control of
/// --controls under each scheduler of `configs` (IoControl::NeededController: a weight under bfq
/// needs bfq's cgroup weights, elsewhere io.cost; iocost io.cost; …). One line naming the
/// control, the kernel and the config option it lacks, and the scheduler only when what the
/// control needs depends on it (a weight).
[[nodiscard]] bool CheckKernelControls(const std::string& release, const KernelFeatures& features,
                                       const std::vector<SchedulerConfig>& configs,
                                       const std::vector<IoControl>& controls, std::string* err);

/// What a kernel (`c` on the command line) must offer: virtiofs, loop and FUSE for the guest,
/// the filesystem `fs` the run makes in it (ext2, ext4, xfs; empty or "none": none is made),
/// every scheduler of --schedulers (`configs`) and what each control needs
/// (CheckKernelControls), read from its config. One line naming the flag and the kernel, before
/// any guest boots: never a mount's failure from inside one.
[[nodiscard]] bool CheckKernelOffers(const KernelChoice& c, const std::string& release,
                                     const KernelFeatures& f, const std::string& fs,
                                     const std::vector<SchedulerConfig>& configs,
                                     const std::vector<IoControl>& controls, std::string* err);

/// --machine's CPUs against the instruction clock's one vCPU, from the words alone: before
/// root, the kernels' fetch and the results' folder (issue 57 §4.1: refused once <out>.fio/ was
/// made, which stayed in the working directory).
[[nodiscard]] bool CheckInstructionClockCpus(const RunConfig& config, bool instruction_clock,
                                             std::string* err);

/// Every Debian package of `choices` that is not cached yet is one this machine's package lists
/// know, asked before any is fetched (issue 57 §4.2: apt-get's own lines, once the kernels
/// before it were fetched). Without apt-cache the tools' check names apt.
[[nodiscard]] bool CheckKernelPackagesKnown(const std::vector<KernelChoice>& choices,
                                            std::string* err);

/// What a guest needs on the host (QEMU, virtiofsd, busybox, cpio, xz; apt-get and dpkg-deb
/// when a choice is a Debian package: a run of builds alone does without them), each refused
/// with the package that brings it (scripts/install-deps).
[[nodiscard]] bool CheckGuestTools(const std::vector<KernelChoice>& choices, std::string* err);

/// --lanes with --kernels (`text`, empty: one): guests at once, at most one per CPU and one per
/// kernel of `kernels` ("auto": as many as both allow), into *lanes. The run in each guest is
/// serial, so the flag is the host's alone.
[[nodiscard]] bool ParseGuestLanes(const std::string& text, size_t kernels, int* lanes,
                                   std::string* err);

}  // namespace elevbench
