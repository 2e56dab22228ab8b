#pragma once
// The fakes of the tests, in one place (the library holds no test code): a fio that runs
// nothing, a kernel's scheduler attribute on a fake sysfs tree, and a cgroup kernel on a fake
// /sys/fs/cgroup. Each records what it was asked and answers as the test tells it to.

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/core/strings.h"
#include "harness/device/sysfs.h"
#include "harness/fio/fio_runner.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/results/request_trace_record.h"
#include "harness/run/run_session.h"
#include "harness/trace/block_trace_file.h"

namespace elevbench::testing {

// ---- fio ---------------------------------------------------------------------------------

/// What fio "measured" for `invocation` after `elapsed_seconds` of the fake's wall time: 0 for
/// Run (the fake returns at once), the time since Start for a background's Stop. It appends the
/// jobs to `result`, whose jobs the fake has cleared. A plain function of its inputs, so a
/// test states the numbers its assertions are derived from.
using FakeFioMeasure = std::function<void(const FioInvocation& invocation, double elapsed_seconds,
                                          FioRunResult* result)>;

/// The default measure: each clone of a stream (numjobs) ran 1 s at 10 % user CPU and moved its
/// stream's bytes (number_ios blocks, else 800 KiB when time-based, else the whole file), every
/// I/O taking 100 us. Time-independent, so repeated runs give identical numbers.
inline void MeasureOneSecondPerJob(const FioInvocation& invocation, double /*elapsed_seconds*/,
                                   FioRunResult* result) {
  for (const StreamSpec& s : invocation.streams) {
    for (uint32_t k = 0; k < s.numjobs; ++k) {
      FioJobResult job;
      job.name = s.name;
      job.job_runtime_ms = 1000;
      job.usr_cpu_pct = 10;
      FioDirectionResult& d = s.rw.find("write") != std::string::npos ? job.write : job.read;
      d.io_bytes = s.number_ios   ? s.number_ios * s.block_size_bytes
                   : s.runtime_ms ? 100 * 8192
                                  : s.file_size_bytes;
      d.total_ios = d.io_bytes / s.block_size_bytes;
      d.runtime_ms = 1000;
      d.clat.Record(100'000, d.total_ios);
      result->jobs.push_back(job);
    }
  }
}

/// One FakeFio::Start call and what became of the background it returned.
struct FakeFioStart {
  FioInvocation invocation;
  bool refused = false;  ///< Start failed with FakeFio::start_error: there was no background
  bool stopped = false;  ///< the background's Stop() was called
};

/// A fio that runs nothing, for the suites, the session loop and the load-vs-probe engine
/// (FioRunner is their only way to fio). It records every Run and Start in order, failed ones
/// included, and answers with `measure`. Backgrounds run until stopped (or end at once with
/// `backgrounds_end`) and must not outlive the fake, which they report their Stop() to.
class FakeFio : public FioRunner {
 public:
  /// The error of a Run listed in `failing_runs`.
  static constexpr const char* kRunError = "fake fio failure";

  /// Records the invocation; fails the calls listed in `failing_runs`, else measures with 0 s.
  [[nodiscard]] bool Run(const FioInvocation& invocation, FioRunResult* result,
                         std::string* err) override;
  /// Records the invocation; fails with `start_error` when it is set, else starts a background
  /// whose Stop() measures over the time since this call.
  [[nodiscard]] bool Start(const FioInvocation& invocation, std::unique_ptr<FioBackground>* running,
                           std::string* err) override;

  // What the test tells the fake.
  FakeFioMeasure measure = MeasureOneSecondPerJob;
  std::vector<size_t> failing_runs;  ///< numbers (from 1) of the Run calls that fail (kRunError)
  std::string start_error;           ///< non-empty: every Start fails with this message
  bool backgrounds_end = false;      ///< a started fio ends by itself at once (Running() false)
  double bytes_per_second = 0;       ///< a background's BytesDone(): this rate over its time

  // What the test reads.
  std::vector<FioInvocation> runs;   ///< every Run, in call order
  std::vector<FakeFioStart> starts;  ///< every Start, in call order

 private:
  class Background;
};

/// A started fake fio: runs until Stop() (unless the fake's backgrounds end at once), counting
/// bytes at the fake's rate; Stop() marks its FakeFioStart stopped and measures.
class FakeFio::Background : public FioBackground {
 public:
  Background(FakeFio* fio, size_t index)
      : fio_(fio), index_(index), start_(std::chrono::steady_clock::now()) {}
  uint64_t BytesDone() override {
    return static_cast<uint64_t>(Seconds() * fio_->bytes_per_second);
  }
  bool Running() override { return !fio_->backgrounds_end && !fio_->starts[index_].stopped; }
  bool Stop(FioRunResult* result, std::string*) override {
    fio_->starts[index_].stopped = true;
    result->jobs.clear();
    fio_->measure(fio_->starts[index_].invocation, Seconds(), result);
    return true;
  }

 private:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  FakeFio* fio_;
  size_t index_;  // into fio_->starts, which may grow (and move) while this runs
  std::chrono::steady_clock::time_point start_;
};

inline bool FakeFio::Run(const FioInvocation& invocation, FioRunResult* result, std::string* err) {
  runs.push_back(invocation);
  for (size_t failing : failing_runs) {
    if (failing == runs.size()) {
      *err = kRunError;
      return false;
    }
  }
  result->jobs.clear();
  measure(invocation, 0, result);
  return true;
}

inline bool FakeFio::Start(const FioInvocation& invocation, std::unique_ptr<FioBackground>* running,
                           std::string* err) {
  starts.push_back({invocation, !start_error.empty(), false});
  if (!start_error.empty()) {
    *err = start_error;
    return false;
  }
  *running = std::make_unique<Background>(this, starts.size() - 1);
  return true;
}

// ---- sysfs: the queue/scheduler attribute ---------------------------------------------------

/// A write hook that makes plain files behave like the kernel's queue/scheduler attribute:
/// writing a listed name rewrites the line with that name bracketed; an unlisted name fails with
/// "Invalid argument" and changes nothing. Other paths are written plainly.
inline Sysfs::WriteHook MakeFakeKernelWriteHook() {
  return [](const std::string& mapped, const std::string& system_path, std::string_view value,
            std::string* err) {
    if (!Sysfs::IsSchedulerPath(system_path)) {
      return Sysfs::PlainWrite(mapped, system_path, value, err);
    }
    Sysfs plain("/");
    std::string line;
    if (!plain.Read(mapped, &line, err)) return false;
    std::vector<std::string> available;
    std::string current;
    if (!ParseSchedulerLine(line, &available, &current, err)) return false;
    std::string want = TrimWhitespace(value);
    std::string rewritten;
    bool found = false;
    for (const std::string& name : available) {
      if (!rewritten.empty()) rewritten += ' ';
      if (name == want) {
        rewritten += "[" + name + "]";
        found = true;
      } else {
        rewritten += name;
      }
    }
    if (!found) {
      *err = "write " + system_path + ": " + strerror(EINVAL);
      return false;
    }
    return Sysfs::PlainWrite(mapped, system_path, rewritten + " \n", err);
  };
}

// ---- cgroups ------------------------------------------------------------------------------
// A fake cgroup kernel on a fake tree laid out like /sys/fs/cgroup (v1 memory + cpuset
// hierarchies, or v2): a new directory gets the control files the kernel would give it, and a
// pid written to a cgroup.procs leaves every other cgroup of its hierarchy, as a move does. A v1
// cpuset without memory nodes refuses tasks (ENOSPC), as the kernel does.

/// Writes `value` and a newline to `path`, making its directories: one file of a fake sysfs or
/// cgroup tree.
inline void PutFakeFile(const std::string& path, const std::string& value) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << value << "\n";
}

/// Builds the fake tree under `root` ("<root>/sys/fs/cgroup/…"). v1: memory and cpuset
/// hierarchies with CPUs `cpus` and this process in memory cgroup "/outer" (cpuset "/"); v2: a
/// unified hierarchy offering and enabling memory and cpuset. Returns the /proc/self/cgroup text.
inline std::string MakeFakeCgroupTree(const std::string& root, int version,
                                      const std::string& cpus = "0-3") {
  namespace fs = std::filesystem;
  const std::string base = root + "/sys/fs/cgroup";
  const auto put = PutFakeFile;
  if (version == 2) {
    put(base + "/cgroup.controllers", "cpuset cpu io memory pids");
    put(base + "/cgroup.subtree_control", "cpuset memory pids");
    put(base + "/cgroup.procs", "");
    put(base + "/cpuset.cpus.effective", cpus);
    put(base + "/user.slice/cgroup.procs", "4242");
    return "0::/user.slice\n";
  }
  for (const std::string& dir : {base + "/memory", base + "/memory/outer"}) {
    put(dir + "/memory.limit_in_bytes", "9223372036854771712");
    put(dir + "/memory.memsw.limit_in_bytes", "9223372036854771712");
    put(dir + "/cgroup.procs", "");
  }
  put(base + "/memory/outer/cgroup.procs", "4242");
  put(base + "/cpuset/cpuset.cpus", cpus);
  put(base + "/cpuset/cpuset.effective_cpus", cpus);
  put(base + "/cpuset/cpuset.mems", "0");
  put(base + "/cpuset/cpuset.effective_mems", "0");
  put(base + "/cpuset/cgroup.procs", "4242");
  return "5:pids:/\n4:memory:/outer\n3:cpuset:/\n0::/\n";
}

/// The kernel's part of mkdir in a cgroup hierarchy: the directory and its control files.
inline MachineCgroups::MakeDirectory FakeCgroupMkdir() {
  return [](const std::string& mapped, std::string* err) {
    if (mkdir(mapped.c_str(), 0755) != 0) {
      *err = std::string("mkdir: ") + strerror(errno);
      return false;
    }
    auto put = [&](const char* name, const char* value) {
      std::ofstream(mapped + "/" + name) << value;
    };
    put("cgroup.procs", "");
    if (mapped.find("/sys/fs/cgroup/memory/") != std::string::npos) {
      put("memory.limit_in_bytes", "9223372036854771712\n");
      put("memory.memsw.limit_in_bytes", "9223372036854771712\n");
    } else if (mapped.find("/sys/fs/cgroup/blkio/") != std::string::npos) {
      put("blkio.throttle.read_bps_device", "");
      put("blkio.throttle.write_bps_device", "");
    } else if (mapped.find("/sys/fs/cgroup/cpuset/") != std::string::npos) {
      put("cpuset.cpus", "\n");
      put("cpuset.mems", "\n");
    } else {
      put("memory.max", "max\n");
      put("memory.swap.max", "max\n");
      put("cpuset.cpus", "\n");
      put("io.max", "");
      put("io.weight", "default 100\n");  // the io controller; io.bfq.weight only with bfq
      put("io.latency", "");
    }
    return true;
  };
}

/// Adds the I/O controller to a fake tree of MakeFakeCgroupTree's: v1, a blkio hierarchy with
/// blk-throttle, this process in its cgroup "/outer"; v2, `io` enabled for children. Returns
/// the /proc/self/cgroup text.
inline std::string AddFakeIoController(const std::string& root, int version) {
  namespace fs = std::filesystem;
  const std::string base = root + "/sys/fs/cgroup";
  const auto put = PutFakeFile;
  if (version == 2) {
    put(base + "/cgroup.subtree_control", "cpuset io memory pids");
    return "0::/user.slice\n";
  }
  for (const std::string& dir : {base + "/blkio", base + "/blkio/outer"}) {
    put(dir + "/blkio.throttle.read_bps_device", "");
    put(dir + "/blkio.throttle.write_bps_device", "");
    put(dir + "/cgroup.procs", "");
  }
  return "6:blkio:/outer\n5:pids:/\n4:memory:/outer\n3:cpuset:/\n0::/\n";
}

/// Writes plainly, except a pid written to ".../cgroup.procs", which moves it: it leaves every
/// cgroup.procs of the same hierarchy and is appended to the one written.
inline Sysfs::WriteHook FakeCgroupWriteHook() {
  return [](const std::string& mapped, const std::string& system_path, std::string_view value,
            std::string* err) {
    namespace fs = std::filesystem;
    const std::string kProcs = "/cgroup.procs";
    if (mapped.size() < kProcs.size() ||
        mapped.compare(mapped.size() - kProcs.size(), kProcs.size(), kProcs) != 0) {
      return Sysfs::PlainWrite(mapped, system_path, value, err);
    }
    const std::string dir = mapped.substr(0, mapped.size() - kProcs.size());
    std::ifstream mems_in(dir + "/cpuset.mems");
    std::string mems;
    if (mems_in && !(mems_in >> mems)) {
      *err = "write " + system_path + ": " + strerror(ENOSPC);
      return false;
    }
    // The hierarchy: /sys/fs/cgroup/<name> for v1, /sys/fs/cgroup for v2.
    const size_t at = mapped.find("/sys/fs/cgroup");
    const size_t next = mapped.find('/', at + 15);
    const bool v1 =
        mapped.find("/sys/fs/cgroup/memory") == at || mapped.find("/sys/fs/cgroup/cpuset") == at;
    const std::string hierarchy = v1 ? mapped.substr(0, next) : mapped.substr(0, at + 14);
    const std::string pid = std::string(value);
    for (const auto& entry : fs::recursive_directory_iterator(hierarchy)) {
      if (entry.path().filename() != "cgroup.procs") continue;
      std::ifstream in(entry.path());
      std::vector<std::string> kept;
      for (std::string p; in >> p;) {
        if (p != pid) kept.push_back(p);
      }
      in.close();
      std::ofstream out(entry.path(), std::ios::trunc);
      for (const std::string& p : kept) out << p << "\n";
    }
    std::ofstream(mapped, std::ios::app) << pid << "\n";
    return true;
  };
}

/// A request tracer that records what the session asked of it and hands back a fixed request
/// trace per cell: raw_events the cell's label prefix, one phase per phase announced (the k-th
/// with k read requests, so the order shows) and bfq's queue merges.
class FakeTracer : public CellTracer {
 public:
  bool fail_begin = false;          ///< BeginCell fails ("no tracefs")
  uint64_t queue_merges = 0;        ///< reported as scheduler_messages.queue_merge
  std::vector<std::string> begun;   ///< label prefixes, in call order
  std::vector<std::string> phases;  ///< of every cell, in call order
  int open_cells = 0;               ///< BeginCell without EndCell so far

  bool BeginCell(const std::string& prefix, std::string* err) override {
    begun.push_back(prefix);
    if (fail_begin) {
      *err = "no tracefs";
      return false;
    }
    ++open_cells;
    cell_phases_.clear();
    return true;
  }
  void Phase(const std::string& name) override {
    phases.push_back(name);
    cell_phases_.push_back(name);
  }
  std::optional<RequestTraceRecord> EndCell() override {
    if (open_cells == 0) return std::nullopt;
    --open_cells;
    RequestTraceRecord trace;
    trace.mode = TraceMode::kSummary;
    trace.complete = true;
    trace.raw_events = begun.back();
    for (size_t i = 0; i < cell_phases_.size(); ++i) {
      trace.phases[cell_phases_[i]].read.requests = i + 1;
    }
    trace.scheduler_messages["queue_merge"] = queue_merges;
    return trace;
  }

 private:
  std::vector<std::string> cell_phases_;
};

// The request tracer's account of one direction (a DIR object of CellRecord::request_trace, as
// docs/reports.md describes it): `requests` requests, each `latency_ns` in the scheduler (I2D)
// and as long in the device (D2C), dispatched in runs of `run` requests, `seek_share` of them
// after a seek of 100000 sectors.
inline nlohmann::json FakeTraceDirection(uint64_t requests, uint64_t run, double seek_share,
                                         uint64_t latency_ns = 1000000) {
  LatencyHistogram time, twice, seeks;
  time.Record(latency_ns, requests);
  twice.Record(2 * latency_ns, requests);
  const auto seeking = static_cast<uint64_t>(seek_share * static_cast<double>(requests));
  seeks.Record(0, requests - seeking);
  seeks.Record(100000, seeking);
  nlohmann::json runs = nlohmann::json::object();
  if (requests > 0) runs[std::to_string(run)] = requests / run;
  return {{"requests", requests},
          {"bytes", requests * 65536},
          {"direct_issues", 0},
          {"q2c", twice.ToJson()},
          {"i2d", time.ToJson()},
          {"d2c", time.ToJson()},
          {"dispatches", requests},
          {"mean_dispatch_run", requests > 0 ? static_cast<double>(run) : 0.0},
          {"dispatch_run_lengths", runs},
          {"seek_share", seek_share},
          {"mean_seek_sectors", seeking > 0 ? 100000.0 : 0.0},
          {"seek_distance", seeks.ToJson()},
          {"merges", 0},
          {"requeues", 0},
          {"mean_request_kib", requests > 0 ? 64.0 : 0.0}};
}

// A request_trace object read into its record (throws what cannot be read: the test fails).
inline RequestTraceRecord FakeTraceRecord(const nlohmann::json& j) {
  RequestTraceRecord trace;
  std::string err;
  if (!RequestTraceRecordFromJson(j, &trace, &err)) throw std::invalid_argument(err);
  return trace;
}

// A whole request_trace object of a cell with the given read and write accounts.
inline nlohmann::json FakeRequestTrace(nlohmann::json read, nlohmann::json write) {
  const uint64_t requests = read["requests"].get<uint64_t>() + write["requests"].get<uint64_t>();
  return {{"mode", "summary"},
          {"events", 5 * requests},
          {"dropped_events", 0},
          {"complete", true},
          {"raw_events", "cell000-requests.trace.gz"},
          {"read", std::move(read)},
          {"write", std::move(write)},
          {"processes", nlohmann::json::array()},
          {"queued", {{"mean", 2.5}, {"max", 4}, {"series", {{0.1, 2}, {0.2, 3}}}}}};
}

/// A version 2 block trace of a 1 GiB loop9, 4 s long, whose writeback was traced, with
/// `dirtiers` and no records yet: the header the replay's tests build their captures on.
inline BlockTrace FakeVersion2Trace(std::vector<BlockTraceDirtier> dirtiers) {
  BlockTrace t;
  t.header.version = 2;
  t.header.writeback_traced = true;
  t.header.device = "loop9";
  t.header.device_bytes = 1ULL << 30;
  t.header.duration_ns = 4000000000;
  t.header.dirtiers = std::move(dirtiers);
  return t;
}

}  // namespace elevbench::testing
