#pragma once
// Which accelerator a run's guests use (docs/kernels.md, "The accelerator"): KVM where the
// host's KVM runs a stock kernel, TCG where it does not. Probed once a run, by booting the first
// kernel under KVM with /bin/true as its command: some hosts' /dev/kvm (kvm_pvm on this
// project's machines) runs only guests built for it, and a stock kernel stops at once with
// "KVM internal error", which only a boot shows.

#include <string>

#include "harness/device/restore_journal.h"
#include "harness/guest/guest_vm.h"

namespace elevbench {

/// The accelerator chosen, and why (for the results' context and the progress line).
struct GuestAccelerator {
  bool kvm = false;
  std::string why;  ///< one line: "no /dev/kvm", "KVM booted … in 1.4 s", "KVM could not …"
};

/// The probe's budget: a stock kernel under a working KVM reaches /bin/true within seconds.
inline constexpr double kKvmProbeSeconds = 60;
/// How long the probe's console may stay silent: a working KVM prints the init script's first
/// line within seconds, while a KVM that cannot run the kernel (kvm_pvm on this project's
/// machines, 6 December 2026) runs QEMU on with no output at all, which otherwise cost every
/// `--kernels` run the whole kKvmProbeSeconds.
inline constexpr double kKvmProbeSilentSeconds = 10;

/// The choice from what was found: `dev_kvm_problem` (why /dev/kvm cannot be opened read-write;
/// empty when it can) and, when it could, the probe guest's start error (empty: it started)
/// and outcome. KVM only when the probe's command ran and exited 0.
GuestAccelerator AcceleratorOf(const std::string& release, const std::string& dev_kvm_problem,
                               const std::string& start_error, const GuestOutcome& probe);

/// Opens /dev/kvm, and when it opens boots `run` (its argv replaced by /bin/true, its memory
/// 512 MiB, its log in `run.work_dir`, made here and removed after; its scratch files under
/// `scratch_dir`, journaled in `journal`) under KVM within kKvmProbeSeconds. Never fails:
/// whatever goes wrong chooses TCG and says why.
GuestAccelerator ProbeGuestAccelerator(GuestRun run, const std::string& scratch_dir,
                                       RestoreJournal* journal);

}  // namespace elevbench
