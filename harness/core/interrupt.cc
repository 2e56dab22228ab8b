#include "harness/core/interrupt.h"

#include <signal.h>

#include <atomic>
#include <cerrno>

namespace elevbench {
namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_fault{false};

// A fixed table, so the handler reads it without locks or allocation. 0 marks a free slot.
std::atomic<pid_t> g_groups[kMaxChildGroups];
static_assert(std::atomic<pid_t>::is_always_lock_free, "the handler needs lock-free slots");

void TerminateChildGroups() {
  for (std::atomic<pid_t>& slot : g_groups) {
    pid_t pgid = slot.load();
    if (pgid > 0) kill(-pgid, SIGTERM);
  }
}

void OnSignal(int sig) {
  const int saved_errno = errno;
  int expected = 0;
  g_signal.compare_exchange_strong(expected, sig);
  TerminateChildGroups();
  errno = saved_errno;
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: waits return EINTR and the caller checks the flag
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  // A closed terminal or pipe must not kill us halfway through a restore.
  signal(SIGPIPE, SIG_IGN);
}

bool InterruptRequested() { return g_signal.load() != 0 || g_fault.load(); }

void RequestFaultStop() {
  g_fault.store(true);
  TerminateChildGroups();
}

bool FaultStopRequested() { return g_fault.load(); }

int InterruptSignal() { return g_signal.load(); }

bool RegisterChildGroup(pid_t pgid) {
  if (pgid <= 0) return false;
  for (std::atomic<pid_t>& slot : g_groups) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pgid)) return true;
  }
  return false;
}

void UnregisterChildGroup(pid_t pgid) {
  if (pgid <= 0) return;
  for (std::atomic<pid_t>& slot : g_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

int RegisteredChildGroupCount() {
  int n = 0;
  for (const std::atomic<pid_t>& slot : g_groups) n += slot.load() > 0;
  return n;
}

void ResetInterruptForTesting() {
  g_signal.store(0);
  g_fault.store(false);
}

}  // namespace elevbench
