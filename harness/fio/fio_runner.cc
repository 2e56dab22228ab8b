#include "harness/fio/fio_runner.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "harness/core/atomic_file.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

// Seconds fio gets to end its jobs and write its output after SIGTERM before it is killed: a
// buffered writer on the emulated disk may still be flushing.
constexpr double kFioStopGraceSeconds = 60;

std::string JobPath(const FioInvocation& inv) { return inv.work_dir + "/" + inv.label + ".fio"; }
std::string OutputPath(const FioInvocation& inv) {
  return inv.work_dir + "/" + inv.label + ".json";
}
std::string BwLogPrefix(const FioInvocation& inv) { return inv.work_dir + "/" + inv.label; }

// Writes the job file (with the bandwidth log options when asked) and returns fio's argv.
bool PrepareFio(const FioInvocation& inv, std::vector<std::string>* argv, std::string* err) {
  FioGlobalSpec global = inv.global;
  if (inv.bw_log_interval_ms > 0) {
    global.extra.emplace_back("write_bw_log", BwLogPrefix(inv));
    global.extra.emplace_back("log_avg_msec", std::to_string(inv.bw_log_interval_ms));
    global.extra.emplace_back("per_job_logs", "1");
  }
  std::string job_text = inv.job_text;
  if (job_text.empty() && !WriteFioJobFile(global, inv.streams, &job_text, err)) {
    *err = "fio job: " + *err;
    return false;
  }
  if (!WriteFileAtomically(JobPath(inv), job_text, err)) return false;
  if (!ProgramInPath("fio")) {
    *err = "fio is not installed (run scripts/install-deps)";
    return false;
  }
  *argv = {"fio", "--output-format=json+", "--output=" + OutputPath(inv), JobPath(inv)};
  return true;
}

// Where the invocation's files are: its first stream's directory, else fio's working directory.
std::string FioDirectory(const FioInvocation& inv) {
  for (const StreamSpec& stream : inv.streams) {
    if (!stream.directory.empty()) return stream.directory;
  }
  return "fio's working directory";
}

// Whether a fio that exited non-zero ran out of space: a job's error 28 in its output, or
// ENOSPC's text on its stderr (an error while laying out its files leaves no job error).
bool FioRanOutOfSpace(const FioInvocation& inv, const ProcessResult& pr) {
  if (pr.error_output.find(std::strerror(ENOSPC)) != std::string::npos ||
      pr.output.find(std::strerror(ENOSPC)) != std::string::npos) {
    return true;
  }
  std::string text, ignored;
  FioRunResult parsed;
  if (!ReadWholeFile(OutputPath(inv), &text, &ignored) ||
      !ParseFioJsonPlus(text, &parsed, &ignored)) {
    return false;
  }
  for (const FioJobResult& job : parsed.jobs) {
    if (job.error == ENOSPC) return true;
  }
  return false;
}

// The jobs of a failed fio that say what failed, from its output when it wrote one:
// "job NAME: error 22 (Invalid argument)", joined by "; "; empty when none says.
std::string FailedJobs(const FioInvocation& inv) {
  std::string text, ignored;
  if (!ReadWholeFile(OutputPath(inv), &text, &ignored)) return "";
  // Read loosely: a fio that failed may have written jobs without their I/O statistics.
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("jobs") || !doc["jobs"].is_array()) return "";
  std::string out;
  for (const nlohmann::json& job : doc["jobs"]) {
    const int error = job.is_object() ? job.value("error", 0) : 0;
    if (error == 0) continue;
    out += (out.empty() ? "job " : "; job ") + job.value("jobname", std::string("?")) + ": error " +
           std::to_string(error) + " (" + std::strerror(error) + ")";
  }
  return out;
}

// Up to `n` last non-empty lines of `text`, joined by " | ".
std::string LastLines(const std::string& text, size_t n) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) {
    out += (out.empty() ? "" : " | ") + lines[i];
  }
  return out;
}

// The common end of a fio run: checks how it ended, parses its output and bandwidth logs.
// `stopped` says that we ended it with SIGTERM (its exit status then means nothing).
bool FinishFio(const FioInvocation& inv, const ProcessResult& pr, bool stopped,
               FioRunResult* result, std::string* err) {
  if (pr.interrupted) {
    *err = "fio interrupted";
    return false;
  }
  if (pr.timed_out) {
    *err = "fio timed out after " + std::to_string(static_cast<int>(inv.timeout_seconds)) + " s";
    return false;
  }
  if (!stopped && pr.term_signal != 0) {
    // Not ours (an interrupt or a timeout is said above): someone else killed it.
    *err = "fio killed by signal " + std::to_string(pr.term_signal);
    return false;
  }
  if (!stopped && pr.exit_code != 0) {
    if (FioRanOutOfSpace(inv, pr)) {
      *err = "no space left on " + FioDirectory(inv);
      return false;
    }
    // Which job failed and how (a replay's job is a traced process), then fio's last words.
    std::string why = FailedJobs(inv);
    std::string said = LastLines(pr.error_output, 3);
    if (said.empty()) said = LastLines(pr.output, 3);
    if (!said.empty()) why += (why.empty() ? "" : "; fio said: ") + said;
    *err =
        "fio failed (exit " + std::to_string(pr.exit_code) + ")" + (why.empty() ? "" : ": " + why);
    return false;
  }
  std::string text;
  if (!ReadWholeFile(OutputPath(inv), &text, err)) return false;
  if (!ParseFioJsonPlus(text, result, err)) {
    *err = "fio output " + OutputPath(inv) + ": " + *err;
    return false;
  }
  for (const FioJobResult& job : result->jobs) {
    if (job.error == ENOSPC) {
      *err = "no space left on " + FioDirectory(inv);
      return false;
    }
    if (job.error != 0) {
      *err = "fio job " + job.name + " reported error " + std::to_string(job.error) + " (" +
             std::strerror(job.error) + ")";
      return false;
    }
  }
  if (inv.bw_log_interval_ms > 0) {
    for (size_t i = 0; i < result->jobs.size(); ++i) {
      // fio numbers the per-job logs from 1 in the order of the jobs in its output.
      const std::string path = BwLogPrefix(inv) + "_bw." + std::to_string(i + 1) + ".log";
      std::string log;
      if (!ReadWholeFile(path, &log, err) ||
          !ParseFioBwLog(log, inv.bw_log_interval_ms, &result->jobs[i].bw_kib_s, err)) {
        *err = "fio bandwidth log " + path + ": " + *err;
        return false;
      }
    }
  }
  return true;
}

ProcessOptions FioProcessOptions(const FioInvocation& inv) {
  ProcessOptions opts;
  opts.timeout_seconds = inv.timeout_seconds;
  opts.kill_grace_seconds = kFioStopGraceSeconds;
  opts.placement = inv.placement;
  return opts;
}

// Seconds Stop waits for a just-started fio to catch SIGTERM before it sends it anyway.
constexpr double kFioHandlerWaitSeconds = 5;

// Whether process `pid` catches `signal` (its /proc status SigCgt mask); false when it is gone.
bool CatchesSignal(pid_t pid, int signal) {
  std::string status, ignored;
  if (!ReadWholeFile("/proc/" + std::to_string(pid) + "/status", &status, &ignored)) return false;
  const size_t at = status.find("SigCgt:");
  unsigned long long mask = 0;
  if (at == std::string::npos || std::sscanf(status.c_str() + at, "SigCgt: %llx", &mask) != 1) {
    return false;
  }
  return (mask >> (signal - 1)) & 1ULL;
}

class SystemFioBackground : public FioBackground {
 public:
  explicit SystemFioBackground(FioInvocation inv) : inv_(std::move(inv)) {}
  ~SystemFioBackground() override {
    if (child_.running()) {
      std::string ignored;
      (void)child_.Stop(0, &ignored);
    }
  }

  bool Launch(const std::vector<std::string>& argv, std::string* err) {
    return child_.Start(argv, FioProcessOptions(inv_), err);
  }

  uint64_t BytesDone() override {
    std::string text, ignored;
    if (!ReadWholeFile("/proc/" + std::to_string(child_.pid()) + "/io", &text, &ignored)) return 0;
    unsigned long long rchar = 0, wchar = 0;
    const size_t r = text.find("rchar:"), w = text.find("wchar:");
    if (r == std::string::npos || w == std::string::npos) return 0;
    std::sscanf(text.c_str() + r, "rchar: %llu", &rchar);
    std::sscanf(text.c_str() + w, "wchar: %llu", &wchar);
    return rchar + wchar;
  }

  bool Running() override { return child_.running(); }

  bool Stop(FioRunResult* result, std::string* err) override {
    const bool was_running = child_.running();
    if (was_running) {
      // A fio stopped as soon as it started (a quick foreground, --warmup 0) may not have set
      // its handler yet, and SIGTERM would kill it before it writes its output: wait (bounded)
      // until it catches SIGTERM or has ended.
      const auto until =
          std::chrono::steady_clock::now() + std::chrono::duration<double>(kFioHandlerWaitSeconds);
      while (child_.running() && !CatchesSignal(child_.pid(), SIGTERM) &&
             std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      // SIGTERM to fio alone (not its group): fio ends its jobs and reports.
      if (child_.running()) kill(child_.pid(), SIGTERM);
      if (!child_.Wait(kFioStopGraceSeconds, err) && !child_.Stop(0, err)) return false;
    } else if (!child_.Wait(-1, err)) {
      return false;
    }
    return FinishFio(inv_, child_.result(), was_running, result, err);
  }

 private:
  FioInvocation inv_;
  ChildProcess child_;
};

}  // namespace

bool RunFio(const FioInvocation& inv, FioRunResult* result, std::string* err) {
  std::vector<std::string> argv;
  if (!PrepareFio(inv, &argv, err)) return false;
  ProcessResult pr;
  if (!RunProcess(argv, FioProcessOptions(inv), &pr, err)) {
    *err = "fio: " + *err;
    return false;
  }
  return FinishFio(inv, pr, /*stopped=*/false, result, err);
}

bool SystemFioRunner::Start(const FioInvocation& inv, std::unique_ptr<FioBackground>* running,
                            std::string* err) {
  std::vector<std::string> argv;
  if (!PrepareFio(inv, &argv, err)) return false;
  auto background = std::make_unique<SystemFioBackground>(inv);
  if (!background->Launch(argv, err)) {
    *err = "fio: " + *err;
    return false;
  }
  *running = std::move(background);
  return true;
}

bool FioVersion(std::string* version, std::string* err) {
  std::string out;
  if (!RunChecked({"fio", "--version"}, &out, err)) return false;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  *version = out;
  return true;
}

}  // namespace elevbench
