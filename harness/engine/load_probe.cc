#include "harness/engine/load_probe.h"

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/interrupt.h"
#include "harness/core/oom_kills.h"

namespace elevbench {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Sleep(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

FioInvocation LoadInvocation(const LoadSpec& load, const std::string& work_dir,
                             const std::string& label, double timeout_seconds) {
  FioInvocation inv;
  inv.global = load.global;
  inv.streams = load.streams;
  inv.work_dir = work_dir;
  inv.label = label;
  inv.timeout_seconds = timeout_seconds;
  inv.bw_log_interval_ms = load.bw_log_interval_ms;
  inv.placement = load.placement;
  return inv;
}

bool CheckOneJobPerStream(const LoadSpec& load, std::string* err) {
  for (const StreamSpec& s : load.streams) {
    if (s.numjobs != 1) {
      *err = "load stream " + s.name + " has numjobs " + std::to_string(s.numjobs) +
             "; a load has one job per stream";
      return false;
    }
  }
  return true;
}

// Waits until the load has run `seconds` and moved `bytes`; false if it ended or we were
// interrupted first.
bool WaitForWarmUp(FioBackground* running, double seconds, uint64_t bytes,
                   std::chrono::steady_clock::time_point started, std::string* err) {
  while (Since(started) < seconds || (bytes > 0 && running->BytesDone() < bytes)) {
    if (InterruptRequested()) {
      *err = "interrupted during the warm-up";
      return false;
    }
    if (!running->Running()) {
      *err = "the load ended during its warm-up";
      return false;
    }
    Sleep(0.05);
  }
  return true;
}

// Runs the probe to its end or its timeout, sampling how much it has read.
bool RunProbe(const ProbeSpec& spec, ProbeOutcome* outcome, std::string* err) {
  ProcessOptions opts;
  opts.stdout_path = spec.stdout_path;
  opts.working_directory = spec.working_directory;
  opts.timeout_seconds = spec.timeout_seconds;
  opts.kill_grace_seconds = 2;
  opts.placement = spec.placement;
  uint64_t oom_kills_before = 0;
  const bool oom_known = ReadOwnOomKillCount(&oom_kills_before);
  ChildProcess child;
  if (spec.on_start) spec.on_start();
  if (!child.Start(spec.argv, opts, err)) {
    *err = "probe: " + *err;
    return false;
  }
  // running() enforces the timeout (and an interrupt) while we sample the probe's reads, and
  // reaps the probe as soon as it exits: its wall time ends at its exit, not at a sample.
  while (child.running()) {
    const uint64_t sample = ProcessReadChars(child.pid());
    if (sample > outcome->bytes_read) outcome->bytes_read = sample;
    ChildProcess::AwaitAnyExit({&child}, spec.sample_seconds);
  }
  const bool waited = child.Wait(0, err);
  if (spec.on_end) spec.on_end();
  if (!waited) {
    *err = "probe: " + *err;
    return false;
  }
  outcome->process = child.result();
  outcome->dnf = outcome->process.timed_out;
  uint64_t oom_kills_after = 0;
  outcome->oom_killed = oom_known && !outcome->dnf && outcome->process.term_signal == SIGKILL &&
                        ReadOwnOomKillCount(&oom_kills_after) && oom_kills_after > oom_kills_before;
  return true;
}

}  // namespace

bool RunForegroundProbe(const ProbeSpec& probe, ProbeOutcome* outcome, std::string* err) {
  *outcome = ProbeOutcome{};
  return RunProbe(probe, outcome, err);
}

std::vector<StreamResult> StreamResultsFromFio(const FioRunResult& run,
                                               uint32_t bw_log_interval_ms) {
  std::vector<StreamResult> streams;
  for (const FioJobResult& job : run.jobs) {
    StreamResult s;
    s.name = job.name;
    s.bytes_read = job.read.io_bytes;
    s.bytes_written = job.write.io_bytes;
    s.direction = s.bytes_read > 0 && s.bytes_written > 0 ? "readwrite"
                  : s.bytes_written > 0                   ? "write"
                                                          : "read";
    s.runtime_seconds = static_cast<double>(job.job_runtime_ms) / 1000.0;
    s.cpu_seconds = job.cpu_seconds();
    s.latency = job.read.clat;
    s.latency.Merge(job.write.clat);
    s.throughput_kib_s = job.bw_kib_s;
    s.throughput_interval_ms = job.bw_kib_s.empty() ? 0 : bw_log_interval_ms;
    streams.push_back(std::move(s));
  }
  return streams;
}

bool RunLoadToFirstEnd(FioRunner* fio, const LoadSpec& load, const std::string& work_dir,
                       const std::string& label, double timeout_seconds,
                       std::vector<StreamResult>* streams, double* elapsed_seconds,
                       std::string* err) {
  if (!CheckOneJobPerStream(load, err)) return false;
  FioInvocation inv = LoadInvocation(load, work_dir, label, timeout_seconds);
  inv.global.exitall = true;  // the run ends when the first stream ends
  FioRunResult run;
  if (!fio->Run(inv, &run, err)) return false;
  if (run.jobs.size() != load.streams.size()) {
    *err = "fio reported " + std::to_string(run.jobs.size()) + " jobs for " +
           std::to_string(load.streams.size()) + " streams";
    return false;
  }
  *streams = StreamResultsFromFio(run, load.bw_log_interval_ms);
  double elapsed = 0;
  for (const StreamResult& s : *streams) elapsed = std::max(elapsed, s.runtime_seconds);
  *elapsed_seconds = elapsed;
  return true;
}

bool RunLoadWithProbe(FioRunner* fio, const LoadSpec& load, const ProbeSpec& probe,
                      const std::string& work_dir, const std::string& label,
                      LoadProbeResult* result, std::string* err) {
  *result = LoadProbeResult{};
  if (!CheckOneJobPerStream(load, err)) return false;
  std::unique_ptr<FioBackground> running;
  if (!fio->Start(LoadInvocation(load, work_dir, label, 0), &running, err)) return false;
  const auto started = std::chrono::steady_clock::now();
  std::string probe_err;
  bool probe_ok =
      WaitForWarmUp(running.get(), probe.warmup_seconds, probe.warmup_bytes, started, &probe_err);
  result->probe.warmup_seconds = Since(started);
  if (probe_ok && probe.evict) probe_ok = probe.evict(&probe_err);
  if (probe_ok) probe_ok = RunProbe(probe, &result->probe, &probe_err);
  // The load is stopped on every path; its failure comes second to the probe's.
  FioRunResult run;
  std::string load_err;
  const bool load_ok = running->Stop(&run, &load_err);
  if (!probe_ok) {
    *err = probe_err;
    return false;
  }
  if (!load_ok) {
    *err = "load: " + load_err;
    return false;
  }
  result->load = StreamResultsFromFio(run, load.bw_log_interval_ms);
  return true;
}

bool RunLoadAround(FioRunner* fio, const LoadSpec& load, double warmup_seconds,
                   uint64_t warmup_bytes, const std::function<bool(std::string*)>& foreground,
                   const std::string& work_dir, const std::string& label,
                   std::vector<StreamResult>* streams, double* warmup_done, std::string* err) {
  if (!CheckOneJobPerStream(load, err)) return false;
  std::unique_ptr<FioBackground> running;
  if (!fio->Start(LoadInvocation(load, work_dir, label, 0), &running, err)) return false;
  const auto started = std::chrono::steady_clock::now();
  std::string fg_err;
  bool fg_ok = WaitForWarmUp(running.get(), warmup_seconds, warmup_bytes, started, &fg_err);
  *warmup_done = Since(started);
  if (fg_ok) fg_ok = foreground(&fg_err);
  FioRunResult run;
  std::string load_err;
  const bool load_ok = running->Stop(&run, &load_err);
  if (!fg_ok) {
    *err = fg_err;
    return false;
  }
  if (!load_ok) {
    *err = "load: " + load_err;
    return false;
  }
  *streams = StreamResultsFromFio(run, load.bw_log_interval_ms);
  return true;
}

}  // namespace elevbench
