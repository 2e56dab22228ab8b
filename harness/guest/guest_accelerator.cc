#include "harness/guest/guest_accelerator.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace elevbench {

GuestAccelerator AcceleratorOf(const std::string& release, const std::string& dev_kvm_problem,
                               const std::string& start_error, const GuestOutcome& probe) {
  if (!dev_kvm_problem.empty()) return {false, dev_kvm_problem};
  if (!start_error.empty()) return {false, "the KVM probe guest could not start: " + start_error};
  if (probe.exited && probe.exit_code == 0) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", probe.wall_seconds);
    return {true, "KVM booted " + release + " to /bin/true in " + seconds + " s"};
  }
  std::string why = probe.failure.empty() ? "its command did not exit 0" : probe.failure;
  if (!probe.console_tail.empty()) why += "; console: " + probe.console_tail;
  return {false, "KVM could not run " + release + ": " + why};
}

GuestAccelerator ProbeGuestAccelerator(GuestRun run, const std::string& scratch_dir,
                                       RestoreJournal* journal) {
  const int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return AcceleratorOf(run.kernel.release,
                         std::string("no usable /dev/kvm (") + std::strerror(errno) + ")", "", {});
  }
  close(fd);
  run.kvm = true;
  run.argv = {"/bin/true"};
  run.memory_mib = 512;
  run.log_path = run.work_dir + "/guest.log";
  std::error_code ec;
  std::filesystem::create_directories(run.work_dir, ec);
  GuestLimits limits;
  limits.start_seconds = kKvmProbeSeconds;
  limits.stall_seconds = kKvmProbeSilentSeconds;
  limits.total_seconds = kKvmProbeSeconds;
  GuestOutcome outcome;
  std::string err;
  const bool started = RunGuest(
      run, limits, scratch_dir, journal, [](const std::string&) {}, &outcome, &err);
  std::filesystem::remove_all(run.work_dir, ec);
  return AcceleratorOf(run.kernel.release, "", started ? "" : err, outcome);
}

}  // namespace elevbench
