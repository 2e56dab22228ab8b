#include "harness/engine/process_load.h"

#include <time.h>

#include <algorithm>
#include <chrono>

#include "harness/core/interrupt.h"

namespace elevbench {
namespace {

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

constexpr auto kPollInterval = std::chrono::milliseconds(10);
// An iteration that fails faster than this is followed by a pause of this length, so a command
// that cannot work (a missing directory) does not spin a CPU away from the foreground job.
constexpr double kFastFailureSeconds = 0.1;

}  // namespace

RepeatedCommandLoad::~RepeatedCommandLoad() {
  if (thread_.joinable()) {
    RepeatedCommandResult ignored;
    std::string err;
    (void)Stop(&ignored, &err);
  }
}

bool RepeatedCommandLoad::Start(const RepeatedCommandSpec& spec, std::string* err) {
  if (thread_.joinable()) {
    *err = "the repeated-command load is already running";
    return false;
  }
  if (spec.argv.empty()) {
    *err = "the repeated-command load has no command";
    return false;
  }
  spec_ = spec;
  result_ = RepeatedCommandResult{};
  error_.clear();
  completed_ = 0;
  stop_requested_ = false;
  first_started_ = false;
  started_at_ = Now();
  running_ = true;
  thread_ = std::thread([this] { Supervise(); });
  std::unique_lock<std::mutex> lock(mutex_);
  wake_.wait(lock, [this] { return first_started_; });
  lock.unlock();
  if (result_.started == 0) {  // the first iteration could not be started: nothing runs
    thread_.join();
    *err = error_;
    return false;
  }
  return true;
}

// Runs one iteration to its end, or until Stop; true to go on with the next one.
bool RepeatedCommandLoad::RunIteration(ChildProcess* child, bool first) {
  ProcessOptions opts;
  opts.stdout_path = spec_.stdout_path;
  opts.working_directory = spec_.working_directory;
  opts.kill_grace_seconds = spec_.kill_grace_seconds;
  opts.placement = spec_.placement;
  std::string err;
  const bool started = child->Start(spec_.argv, opts, &err);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (started) ++result_.started;
    if (!started) error_ = "load: " + err;
    if (first) first_started_ = true;
  }
  if (first) wake_.notify_all();
  if (!started) return false;
  const double iteration_start = Now();
  bool stopped = false;
  while (child->running()) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, kPollInterval, [this] { return stop_requested_; })) {
      lock.unlock();
      stopped = true;
      if (!child->Stop(spec_.kill_grace_seconds, &err)) error_ = "load: " + err;
      break;
    }
  }
  if (!stopped && !child->Wait(0, &err)) {  // running() false: reaped, or waiting failed
    error_ = "load: " + err;
    return false;
  }
  const ProcessResult& p = child->result();
  AddProcessUsage(p.usage, &result_.usage);
  if (stopped || p.interrupted) {
    result_.cut_short = true;
    return false;
  }
  const bool success = p.term_signal == 0 &&
                       std::find(spec_.success_exit_codes.begin(), spec_.success_exit_codes.end(),
                                 p.exit_code) != spec_.success_exit_codes.end();
  if (success) {
    ++result_.completed;
    completed_ = result_.completed;
  } else {
    ++result_.failed;
    result_.last_failure_exit_code = p.exit_code;
    result_.last_failure_signal = p.term_signal;
    result_.last_failure_output = LastLine(p.error_output);
    if (Now() - iteration_start < kFastFailureSeconds) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait_for(lock, std::chrono::duration<double>(kFastFailureSeconds),
                     [this] { return stop_requested_; });
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return !stop_requested_ && !InterruptRequested();
}

void RepeatedCommandLoad::Supervise() {
  bool first = true;
  for (;;) {
    ChildProcess child;
    const bool go_on = RunIteration(&child, first);
    first = false;
    if (!go_on) break;
  }
  result_.usage.elapsed_seconds = Now() - started_at_;
  running_ = false;
}

bool RepeatedCommandLoad::Stop(RepeatedCommandResult* result, std::string* err) {
  if (!thread_.joinable()) {
    *result = result_;
    if (!error_.empty()) *err = error_;
    return error_.empty();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  wake_.notify_all();
  thread_.join();
  *result = result_;
  if (!error_.empty()) {
    *err = error_;
    return false;
  }
  return true;
}

bool RunCommandLoadWithProbe(const RepeatedCommandSpec& load, const ProbeSpec& probe,
                             RepeatedCommandResult* load_result, ProbeOutcome* probe_outcome,
                             std::string* err) {
  *probe_outcome = ProbeOutcome{};
  RepeatedCommandLoad running;
  if (!running.Start(load, err)) return false;
  const double started = Now();
  std::string probe_err;
  bool probe_ok = true;
  while (Now() - started < probe.warmup_seconds) {
    if (InterruptRequested()) {
      probe_err = "interrupted during the warm-up";
      probe_ok = false;
      break;
    }
    if (!running.Running()) {
      probe_err = "the load ended during its warm-up";
      probe_ok = false;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double warmup = Now() - started;
  if (probe_ok && probe.evict) probe_ok = probe.evict(&probe_err);
  if (probe_ok) probe_ok = RunForegroundProbe(probe, probe_outcome, &probe_err);
  probe_outcome->warmup_seconds = warmup;
  // The load is stopped on every path; its failure comes second to the probe's.
  std::string load_err;
  const bool load_ok = running.Stop(load_result, &load_err);
  if (!probe_ok) {
    *err = probe_err;
    return false;
  }
  if (!load_ok) {
    *err = load_err;
    return false;
  }
  return true;
}

}  // namespace elevbench
