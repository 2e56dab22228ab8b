#include "harness/engine/parallel_probes.h"

#include <chrono>
#include <cstdio>

#include "harness/core/atomic_file.h"

namespace elevbench {
namespace {

// Stops and reaps every child still running (an error path); errors are ignored, the
// destructor's SIGKILL is the last resort.
void StopAll(std::vector<ChildProcess>* children) {
  for (ChildProcess& c : *children) {
    std::string ignored;
    (void)c.Stop(2, &ignored);
  }
}

}  // namespace

bool RunParallelProbes(const std::vector<ParallelProbeSpec>& probes,
                       std::vector<ParallelProbeOutcome>* outcomes, std::string* err) {
  if (probes.empty() || probes.size() > kMaxParallelProbes) {
    *err = "parallel probes: " + std::to_string(probes.size()) + " probes (1 to " +
           std::to_string(kMaxParallelProbes) + " allowed)";
    return false;
  }
  std::vector<ChildProcess> children(probes.size());
  std::vector<ParallelProbeOutcome> results(probes.size());
  std::chrono::steady_clock::time_point first;
  for (size_t i = 0; i < probes.size(); ++i) {
    ProcessOptions opts;
    opts.stdout_path = probes[i].stdout_path;
    opts.working_directory = probes[i].working_directory;
    opts.timeout_seconds = probes[i].timeout_seconds;
    opts.kill_grace_seconds = 2;
    const auto now = std::chrono::steady_clock::now();
    if (i == 0) first = now;
    results[i].start_offset_seconds = std::chrono::duration<double>(now - first).count();
    if (!children[i].Start(probes[i].argv, opts, err)) {
      *err = "probe " + std::to_string(i + 1) + ": " + *err;
      StopAll(&children);
      return false;
    }
  }
  // running() applies each child's own timeout and the interrupt rule, and reaps it when done;
  // the reads are sampled every 50 ms, and each probe is reaped as soon as it exits.
  std::vector<ChildProcess*> watched;
  for (ChildProcess& child : children) watched.push_back(&child);
  for (bool any = true; any;) {
    any = false;
    for (size_t i = 0; i < children.size(); ++i) {
      if (!children[i].running()) continue;
      any = true;
      const uint64_t sample = ProcessReadChars(children[i].pid());
      if (sample > results[i].bytes_read) results[i].bytes_read = sample;
    }
    if (any) ChildProcess::AwaitAnyExit(watched, 0.05);
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (!children[i].Wait(0, err)) {
      *err = "probe " + std::to_string(i + 1) + ": " + *err;
      StopAll(&children);
      return false;
    }
    results[i].process = children[i].result();
    results[i].pid = children[i].pid();
    results[i].dnf = results[i].process.timed_out;
  }
  *outcomes = std::move(results);
  return true;
}

}  // namespace elevbench
