#include "harness/core/interrupt.h"

#include <signal.h>

#include <atomic>

namespace elevbench {
namespace {

std::atomic<int> g_signal{0};
std::atomic<pid_t> g_child{0};

void OnSignal(int sig) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, sig);
  pid_t child = g_child.load();
  if (child > 0) kill(-child, SIGTERM);
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

bool InterruptRequested() { return g_signal.load() != 0; }

int InterruptSignal() { return g_signal.load(); }

void SetForegroundChild(pid_t pid) { g_child.store(pid); }

void ResetInterruptForTesting() { g_signal.store(0); }

}  // namespace elevbench
