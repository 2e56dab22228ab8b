#include "scenarios/replay/replay_suite.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "harness/core/error.h"
#include "harness/core/plain_range.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/sysfs.h"
#include "harness/trace/block_capture.h"
#include "harness/trace/tracefs.h"
#include "scenarios/replay/replay_cautions.h"
#include "scenarios/replay/replay_fidelity.h"
#include "scenarios/replay/replay_lag.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_records.h"
#include "scenarios/replay/replayer.h"

namespace elevbench {
namespace {

bool TraceHasWrites(const BlockTrace& trace) {
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kWrite || r.op == BlockTraceOp::kDiscard) return true;
  }
  return false;
}

// From the first byte the trace touches to the last: what a target must hold (offsets are
// shifted when they do not fit as recorded, replay_plan.h).
uint64_t TraceSpanBytes(const BlockTrace& trace) {
  uint64_t first = UINT64_MAX, end = 0;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kFlush) continue;
    first = std::min(first, r.sector * 512);
    end = std::max(end, (r.sector + r.sectors) * 512);
  }
  return first == UINT64_MAX ? 0 : end - first;
}

// The device's size from sysfs ("/dev/loop9" -> /sys/block/loop9/size).
bool DeviceBytes(const std::string& device, uint64_t* bytes, std::string* err) {
  std::string size;
  const std::string name = std::filesystem::path(device).filename();
  if (!Sysfs().Read("/sys/block/" + name + "/size", &size, err)) return false;
  *bytes = std::strtoull(size.c_str(), nullptr, 10) * 512;
  return *bytes > 0;
}

// The I/Os the dependent replayer times after a completion (replay_ios.h); with `woken`, only
// those after another I/O's than their predecessor's (another process's, mostly).
uint64_t DependentIos(const ReplayPlan& plan, bool woken = false) {
  uint64_t n = 0;
  for (const ReplayJob& job : plan.jobs) n += woken ? job.woken_ios : job.dependent_ios;
  return n;
}

class ReplaySuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--trace", trace_path_, "The block trace to replay (made by `capture`)")
        ->type_name("FILE")
        ->required();
    speed_option_ = cmd->add_option("--speed", options_.speed,
                                    "Time scale of the replay: 2 = twice as fast (default 1: as "
                                    "recorded; not with --no-stall, which keeps no time)")
                        ->check(PlainRange(0.001, 1000.0, "times"));
    cmd->add_flag("--no-stall", options_.no_stall,
                  "Issue every I/O as soon as the one before it is done, in order (no waits, "
                  "so no --speed; default off)");
    cmd->add_option("--fit", fit_,
                    "auto (default): offsets as recorded, else shifted to start at 0; scale: "
                    "also scale a span larger than the target onto it (changes seeks)")
        ->check(PlainWords({"auto", "scale"}));
    cmd->add_option("--replayer", replayer_word_,
                    "dependent (default): an I/O its process issued after one before it completed "
                    "is issued after that one completes in the replay (elevbench's io_uring "
                    "engine), so a faster scheduler finishes sooner; fio: every I/O at its "
                    "recorded time, fio's iolog (open loop: a replay under a slower scheduler "
                    "runs late, docs/replay.md §3)")
        ->check(PlainWords({"fio", "dependent"}));
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    if (options_.no_stall && speed_option_ != nullptr && speed_option_->count() > 0) {
      // #45: accepted and passed over: --no-stall issues every I/O without a wait to scale.
      return Fail(err,
                  "--speed scales the recorded waits, which --no-stall drops (each I/O goes as "
                  "soon as the one before it is done): give one of them");
    }
    options_.fit = fit_ == "scale" ? ReplayFit::kScale : ReplayFit::kAuto;
    replayer_ = MakeReplayer(replayer_word_);
    if (!ReadBlockTraceFile(trace_path_, &trace_, err)) return false;
    if (trace_.records.empty()) {
      *err = trace_path_ + ": the trace has no bios to replay";
      return false;
    }
    return true;
  }

  uint64_t BytesNeeded() const override { return TraceSpanBytes(trace_); }

  bool WantsRawDevice() const override { return true; }

  std::vector<HostPathUse> HostPaths() const override {
    if (trace_path_.empty()) return {};
    return {{"--trace", trace_path_}};
  }

  bool CheckTarget(const TargetFacts& facts, std::string* err) override {
    if (facts.raw_user_device && TraceHasWrites(trace_) && !facts.allow_writes) {
      *err = trace_path_ + " has writes: replaying it onto " + facts.user_device +
             " destroys its data; add --allow-writes if that is what you want";
      return false;
    }
    ReplayMapping mapping;
    if (facts.raw_bytes > 0 &&
        !MapReplayOffsets(trace_, facts.raw_bytes, options_.fit, &mapping, err)) {
      return false;
    }
    if (geteuid() != 0) {
      *err = "run replay needs root: it replays onto a block device";
      return false;
    }
    return true;
  }

  nlohmann::json Parameters() const override {
    return {{"trace", trace_path_},
            {"trace_device", trace_.header.device},
            {"trace_source", trace_.header.source},
            {"trace_scheduler", trace_.header.scheduler},
            {"trace_kernel", trace_.header.kernel},
            {"trace_records", trace_.records.size()},
            {"speed", options_.speed},
            {"no_stall", options_.no_stall},
            {"fit", fit_},
            {"replayer", replayer_->Name()},
            {"lag_bound_ms", kReplayLagBoundMs},
            {"verdict_cautions", ReplayCautions(trace_, Options())}};
  }

  std::vector<SuiteVariant> Variants() const override { return {{"replay", {{"trace", "all"}}}}; }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    if (env.device.empty()) {
      *err = "run replay needs a block device (--emulated, --scratch or --device)";
      return false;
    }
    uint64_t bytes = 0;
    if (!DeviceBytes(env.device, &bytes, err) ||
        !ReadDiskNumbers(Sysfs(), env.device, &major_, &minor_, err) ||
        !PlanReplay(trace_, env.device, bytes, Options(), &plan_, err)) {
      return false;
    }
    if (!replayer_->Prepare(plan_, env, {TraceHasWrites(trace_), options_.no_stall}, err)) {
      return false;
    }
    *setup = {{"device", env.device},
              {"device_bytes", bytes},
              {"mapping", plan_.mapping.mode},
              {"shift_bytes", plan_.mapping.shift_bytes},
              {"scale", plan_.mapping.scale},
              {"span_bytes", plan_.mapping.span_bytes},
              {"jobs", plan_.jobs.size()},
              {"replayer", replayer_->Name()},
              {"dependent_ios", DependentIos(plan_)},
              {"woken_ios", DependentIos(plan_, true)}};
    return true;
  }

  bool RunCell(const SuiteVariant&, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override;

  std::string CachePolicy(const std::string& global_drop) const override {
    if (replayer_->ReplaysBufferedWriters() && HasBufferedWriters(trace_)) {
      return "O_DIRECT I/O on the raw device, but the trace's buffered writers write through its "
             "page cache (each ends with fdatasync)" +
             global_drop;
    }
    return "O_DIRECT I/O on the raw device: the page cache is not involved" + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    std::vector<ReplayRecord> records;
    std::string err;
    nlohmann::json rows = nlohmann::json::array();
    if (!ReplayRecordsFromDocument(doc, &records, &err)) return {{"cells", rows}};
    for (const ReplayRecord& r : records) {
      rows.push_back(
          {{"identifier", r.identifier},
           {"repetition", r.repetition},
           {"replay_seconds", r.replay_seconds},
           {"read_p99_ms", static_cast<double>(r.ReadLatency().ValueAtPercentile(99)) / 1e6},
           {"lag_p99_ms", r.lag_p99_ms}});
    }
    return {{"cells", rows},
            {"fidelity", FidelityToJson(FidelityOf(records, trace_.header.scheduler))}};
  }

 private:
  // Starts the lag's capture of the target's bios (needs the journal: root).
  // False with *problem (one line) when the replay's bios cannot be traced.
  bool StartLagCapture(const CellEnvironment& env, BlockCapture* capture, std::string* raw,
                       std::string* problem) {
    if (env.journal == nullptr) return Fail(problem, "not root");
    *raw = env.work_dir + "/" + env.label_prefix + "replay-bios.trace";
    return capture->Start(env.journal, major_, minor_, *raw, problem, RequestEvents());
  }

  // The options as the replayer chosen takes them: only one with the page cache in its path
  // replays buffered writers as such.
  ReplayOptions Options() const {
    ReplayOptions o = options_;
    o.buffered_writers = replayer_->ReplaysBufferedWriters();
    return o;
  }
  void FillRecord(const std::vector<JobResult>& jobs, const BlockTrace* replayed,
                  ReplayRecord* rec) const;

  std::string trace_path_;
  CLI::Option* speed_option_ = nullptr;  // --speed, to refuse it given beside --no-stall
  std::string fit_ = "auto";
  std::string replayer_word_ = "dependent";                       // --replayer
  std::unique_ptr<Replayer> replayer_ = MakeDependentReplayer();  // made of it in Prepare
  ReplayOptions options_;
  BlockTrace trace_;
  ReplayPlan plan_;
  uint32_t major_ = 0, minor_ = 0;  // the target's device number, for the lag's trace
};

// Each job's bios timed by the kernel (their latency_ns, bio_timing.h), and their span; fio's
// job processes are mapped to jobs by the bios the lag matched.
void AddKernelLatencies(const std::vector<BlockTraceRecord>& replayed, const ReplayLag& lag,
                        ReplayRecord* rec) {
  std::vector<KernelSpan> spans(rec->processes.size());
  for (const BlockTraceRecord& r : replayed) {
    const auto job = lag.job_of_pid.find(r.pid);
    if (r.latency_ns < 0 || job == lag.job_of_pid.end() || job->second >= rec->processes.size()) {
      continue;
    }
    ReplayProcess& p = rec->processes[job->second];
    const auto ns = static_cast<uint64_t>(r.latency_ns);
    if (r.op == BlockTraceOp::kRead) p.kernel_read.Record(ns);
    if (r.op == BlockTraceOp::kWrite) p.kernel_write.Record(ns);
    spans[job->second].Add(r);
  }
  for (size_t i = 0; i < rec->processes.size(); ++i) {
    if (spans[i].Seconds() > 0) rec->processes[i].replay_span_seconds = spans[i].Seconds();
  }
}

// A buffered writer's pages' bios as the kernel traced them (the flusher's, its fdatasync's):
// its write latencies. Its span stays its own, first write to the end of its fdatasync.
void AddWritebackLatencies(const ReplayBiosByQueuer& bios, ReplayRecord* rec) {
  for (size_t i = 0; i < bios.writeback.size(); ++i) {
    const BlockTraceRecord& r = bios.writeback[i];
    const int32_t job = bios.writer_job[i];
    if (r.latency_ns < 0 || job < 0 || static_cast<size_t>(job) >= rec->processes.size()) continue;
    rec->processes[static_cast<size_t>(job)].kernel_write.Record(
        static_cast<uint64_t>(r.latency_ns));
  }
}

void ReplaySuite::FillRecord(const std::vector<JobResult>& jobs, const BlockTrace* replayed,
                             ReplayRecord* rec) const {
  rec->trace_ops = plan_.trace_ops;
  rec->trace_bytes = plan_.trace_bytes;
  rec->trace_seconds = plan_.duration_seconds;
  rec->trace_span_seconds = plan_.trace_span_seconds;
  rec->mapping = plan_.mapping.mode;
  // The flusher's writes of the buffered writers' pages are theirs, not the schedule's.
  const ReplayBiosByQueuer bios =
      replayed != nullptr ? SplitReplayBios(plan_, replayed->records) : ReplayBiosByQueuer{};
  ReplayLag lag;
  if (replayed != nullptr) lag = MeasureReplayLag(plan_.scheduled, bios.replayer);
  uint64_t fallback_ops = 0;
  for (size_t i = 0; i < plan_.jobs.size(); ++i) {
    const ReplayJob& planned = plan_.jobs[i];
    ReplayProcess p;
    p.pid = planned.pid;
    p.comm = planned.comm;
    p.ioengine = replayer_->IoEngineOf(planned);
    p.replayed_as = replayer_->ReplayedAsOf(planned);
    p.until_readers_end = planned.buffered && planned.buffered->until_readers_end;
    p.trace_ops = planned.ops;
    p.trace_bytes = planned.bytes;
    p.trace_read_p50_ms = planned.trace_read_p50_ms;
    p.trace_span_seconds = planned.trace_span_seconds;
    if (i < lag.first_ms.size()) p.first_lag_ms = lag.first_ms[i];
    for (const JobResult& j : jobs) {
      if (j.name == planned.name) p.job = j;
    }
    if (planned.buffered) {  // its writes went through the page cache: not bios of the trace
      if (p.job.write.runtime_seconds > 0) p.replay_span_seconds = p.job.write.runtime_seconds;
      rec->buffered_ops += planned.ops;
      rec->buffered_bytes += planned.bytes;
      rec->processes.push_back(std::move(p));
      continue;
    }
    const uint64_t fio_ios = p.job.ios() + p.job.sync_ios -
                             std::min<uint64_t>(p.job.ios() + p.job.sync_ios, planned.added_syncs);
    rec->fio_ops += fio_ios;
    rec->fio_bytes += p.job.bytes();
    // Without the kernel's view: a job that issued every planned I/O replayed its records.
    fallback_ops += fio_ios == planned.ios ? planned.ops : fio_ios;
    rec->added_syncs += planned.added_syncs;
    rec->fua_writes += planned.fua_writes;
    rec->journal_log_writes += planned.journal_log_steps.size();
    rec->journal_wait_ios += planned.journal_wait_steps.size();
    rec->processes.push_back(std::move(p));
  }
  rec->replayed_ops = fallback_ops;
  rec->replayed_bytes = rec->fio_bytes;
  if (replayed == nullptr) return;
  rec->replayed_ops = lag.matched_records;
  rec->replayed_bytes = lag.matched_bytes;
  rec->lag_measured = true;
  rec->lag_matched = lag.matched;
  rec->lag_unmatched = lag.unmatched;
  rec->missed_reads = lag.missed_records[static_cast<size_t>(BlockTraceOp::kRead)];
  rec->missed_writes = lag.missed_records[static_cast<size_t>(BlockTraceOp::kWrite)];
  rec->missed_discards = lag.missed_records[static_cast<size_t>(BlockTraceOp::kDiscard)];
  rec->missed_flushes = lag.missed_records[static_cast<size_t>(BlockTraceOp::kFlush)];
  rec->lag_mean_ms = lag.mean_ms;
  rec->lag_p99_ms = lag.p99_ms;
  rec->lag_max_ms = lag.max_ms;
  rec->keeps_time = !options_.no_stall && lag.p99_ms <= kReplayLagBoundMs;
  if (!replayed->records.empty()) rec->replay_seconds = KernelSpanSeconds(replayed->records);
  AddKernelLatencies(bios.replayer, lag, rec);
  AddWritebackLatencies(bios, rec);
}

bool ReplaySuite::RunCell(const SuiteVariant&, const CellEnvironment& env,
                          std::vector<nlohmann::json>* records, std::string* err) {
  BlockCapture capture;
  std::string raw, lag_problem;
  const bool lag = StartLagCapture(env, &capture, &raw, &lag_problem);
  if (env.on_phase) env.on_phase("replay");
  const auto start = std::chrono::steady_clock::now();
  ReplayRun run;
  const bool ran = replayer_->Run(plan_, env, &run, err);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BlockTrace replayed;
  std::string lag_err;
  const bool lag_ok = lag && capture.Stop(&replayed, &lag_err);
  if (!ran) {
    if (!raw.empty()) unlink(raw.c_str());
    return false;
  }
  ReplayRecord rec;
  rec.replay_seconds = seconds;
  rec.fio_seconds = seconds;
  FillRecord(run.jobs, lag_ok ? &replayed : nullptr, &rec);
  rec.journal_wait_seconds = run.journal_wait_seconds;
  if (!lag_ok) rec.lag_problem = lag ? "stopping the trace: " + lag_err : lag_problem;
  if (!raw.empty()) unlink(raw.c_str());
  records->push_back(ReplayRecordToJson(rec));
  return true;
}

}  // namespace

std::unique_ptr<Suite> MakeReplaySuite() { return std::make_unique<ReplaySuite>(); }

}  // namespace elevbench
