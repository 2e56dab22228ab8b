#include "harness/run/run_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "harness/core/system_info.h"
#include "harness/run/run_plan.h"
#include "harness/stats/metric_table.h"

namespace elevbench {

namespace {

// `v` (a JSON integer) as int64_t when it fits: an unsigned value above INT64_MAX does not.
bool JsonInt64(const nlohmann::json& v, int64_t* out) {
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return false;
    *out = static_cast<int64_t>(v.get<uint64_t>());
    return true;
  }
  *out = v.get<int64_t>();
  return true;
}

}  // namespace

nlohmann::json CounterDelta(const nlohmann::json& before, const nlohmann::json& after) {
  if (!after.is_object()) return after;
  if (!before.is_object()) return nlohmann::json{{"totals_since_daemon_start", after}};
  // Monotonic counters are differenced; everything else (maxima, flags, the profile) is the
  // value at the end of the cell.
  static const char* const kMonotonic[] = {
      "requests",   "reads",     "writes",      "bytes_read",      "bytes_written",
      "seeks",      "busy_ns",   "modelled_ns", "achieved_ns",     "cached_bytes",
      "cpu_user_s", "cpu_sys_s", "uptime_ns",   "failed_requests", "flushes"};
  nlohmann::json delta = nlohmann::json::object();
  for (auto it = after.begin(); it != after.end(); ++it) {
    bool monotonic = false;
    for (const char* k : kMonotonic) monotonic = monotonic || it.key() == k;
    const bool counted = monotonic && before.contains(it.key()) && before[it.key()].is_number() &&
                         it.value().is_number();
    int64_t start = 0;
    int64_t end = 0;
    int64_t difference = 0;
    // Integers are differenced exactly when both fit int64_t and so does the difference; any
    // other pair of numbers (a float on either side, a counter past 2^63) as doubles. Reading a
    // float as int64_t, or an overflowing difference, would be undefined (fuzz/disk_counters).
    if (counted && it.value().is_number_integer() && before[it.key()].is_number_integer() &&
        JsonInt64(it.value(), &end) && JsonInt64(before[it.key()], &start) &&
        !__builtin_sub_overflow(end, start, &difference)) {
      delta[it.key()] = difference;
    } else if (counted) {
      delta[it.key()] = it.value().get<double>() - before[it.key()].get<double>();
    } else {
      delta[it.key()] = it.value();
    }
  }
  return delta;
}

namespace {

// Calls the suite's TearDown when the session leaves, on every path.
class TearDownGuard {
 public:
  TearDownGuard(Suite* suite, const CellEnvironment* env) : suite_(suite), env_(env) {}
  ~TearDownGuard() { suite_->TearDown(*env_); }
  TearDownGuard(const TearDownGuard&) = delete;
  TearDownGuard& operator=(const TearDownGuard&) = delete;

 private:
  Suite* suite_;
  const CellEnvironment* env_;
};

std::string CellPrefix(size_t index) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "cell%03zu-", index + 1);
  return prefix;
}

// The relative half-width of a row's interval: +inf with fewer than two values.
double RelativeHalfWidth(const MetricRow& row) {
  const SampleSummary& s = row.summary;
  if (!s.has_spread) return std::numeric_limits<double>::infinity();
  if (s.mean == 0) return s.stddev == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::max(s.mean - s.ci_low, s.ci_high - s.mean) / std::fabs(s.mean);
}

}  // namespace

bool HeadlineIntervalsConverged(const ResultsDocument& doc, SuiteMeasurer measure, uint32_t min,
                                double ci_width, double* widest, std::string* which) {
  *widest = 0;
  which->clear();
  std::vector<Measurement> measurements;
  std::string err = "the suite has no measurer";
  if (measure == nullptr || !measure(doc, &measurements, &err)) {
    *widest = std::numeric_limits<double>::infinity();
    *which = err;
    return false;
  }
  const std::vector<MetricRow> rows = MetricRowsFrom(doc, std::move(measurements));
  bool converged = true;
  for (const MetricRow& row : rows) {
    if (!row.metric.headline) continue;
    const double w = RelativeHalfWidth(row);
    if (row.values.size() < min || w > ci_width) converged = false;
    if (w > *widest || which->empty()) {
      *widest = std::max(*widest, w);
      *which = row.section + (row.row.empty() ? "" : " " + row.row) + " " +
               (row.label.empty() ? row.identifier : row.label) + " " + row.metric.name;
    }
  }
  return converged;
}

namespace {

// Whether a session runs a share of the plan: a lane's, or a shard's.
bool RunsAShare(const SessionConfig& config) { return config.lane >= 0 || config.shard > 0; }

// The plan indices a session runs: its lane's or shard's share, or the whole plan.
std::vector<size_t> CellsOfSession(const SessionConfig& config, size_t plan_size) {
  if (RunsAShare(config)) return config.plan_cells;
  std::vector<size_t> all(plan_size);
  for (size_t i = 0; i < plan_size; ++i) all[i] = i;
  return all;
}

// One session's state and its steps; RunSession below is the sequence. The references outlive
// the object (it lives on RunSession's stack).
class SessionRun {
 public:
  SessionRun(Suite& suite, const SessionConfig& config, const SessionTarget& target, FioRunner* fio,
             Progress* progress, ResultsDocument* doc)
      : suite_(suite),
        config_(config),
        target_(target),
        progress_(progress),
        doc_(doc),
        adaptive_(config.adaptive),
        repetitions_(adaptive_.enabled ? adaptive_.max_repetitions : config.repetitions),
        variants_(suite.Variants()),
        // Adaptive runs take the plan of the cap and stop at the end of a round (the plan is
        // ordered by repetition), so their order is the one a fixed run of that many
        // repetitions would have.
        plan_(BuildRunPlan(config.identifiers.size(), variants_.size(), repetitions_, config.seed)),
        cells_(CellsOfSession(config, plan_.size())) {
    env_.directory = target.directory;
    env_.device = target.device;
    env_.journal = target.journal;
    env_.fio = fio;
    env_.work_dir = config.work_dir;
    env_.timeout_seconds = config.timeout_seconds;
    env_.root = config.root;
    env_.drop_caches = config.drop_caches;
    env_.roles_in_cgroups =
        std::any_of(config.controls.begin(), config.controls.end(), [](const SessionControl& c) {
          return !c.load.cgroup_procs.empty() || !c.probe.cgroup_procs.empty();
        });
    if (RunsAShare(config)) {  // a lane's or shard's share: the suite sets up what its cells read
      env_.runs_variant.assign(variants_.size(), false);
      for (size_t i : cells_) {
        if (i < plan_.size()) env_.runs_variant[plan_[i].variant_index] = true;
      }
    }
    env_.on_phase = [this](const std::string& phase) {
      progress_->Phase(phase);
      if (target_.tracer != nullptr) target_.tracer->Phase(phase);
    };
  }

  bool Stopped() const { return config_.stop_requested && config_.stop_requested(); }
  size_t CellCount() const { return cells_.size(); }
  bool CellsInPlan() const {
    return std::all_of(cells_.begin(), cells_.end(), [this](size_t i) { return i < plan_.size(); });
  }
  bool Converged() const { return converged_; }
  const CellEnvironment& Environment() const { return env_; }

  // The document's header, saved before set-up.
  bool SaveHeader(std::string* err) {
    doc_->identifiers = config_.identifiers;
    doc_->labels = config_.labels;
    doc_->complete = false;
    doc_->parameters = suite_.Parameters();
    return SaveResultsFile(config_.out_path, *doc_, err);
  }

  // The suite's set-up and the parameters it settled on, saved.
  bool SetUp(std::string* err) {
    progress_->Start(config_.lane >= 0   ? doc_->suite + "/lane" + std::to_string(config_.lane)
                     : config_.shard > 0 ? doc_->suite + "/shard" + std::to_string(config_.shard)
                                         : doc_->suite,
                     cells_.size());
    progress_->Phase("set-up");
    env_.label_prefix = "setup-";
    if (!suite_.SetUp(env_, &doc_->setup, err)) {
      progress_->Finish(/*stopped=*/true);
      *err = "set-up: " + *err;
      return false;
    }
    doc_->parameters = suite_.Parameters();
    return SaveResultsFile(config_.out_path, *doc_, err);
  }

  // Cell i of the plan, recorded in the document (ok, failed or interrupted), then the end of
  // its round; the results file is rewritten.
  bool RunCell(size_t n, size_t* failed_cells, std::string* err) {
    const size_t i = cells_[n];  // the cell's index in the run's plan
    const PlannedCell& cell = plan_[i];
    const SuiteVariant& variant = variants_[cell.variant_index];
    CellRecord rec = StartRecord(cell, variant);
    rec.plan_index = i;
    const auto started = std::chrono::steady_clock::now();
    progress_->BeginCell(n, rec.identifier + " " + variant.label + " rep " +
                                std::to_string(cell.repetition + 1) + "/" +
                                (adaptive_.enabled ? "≤" : "") + std::to_string(repetitions_));
    std::string cell_err;
    bool ok = PrepareDevice(cell, variant, rec, &cell_err);
    rec.queue = QueueSnapshot();
    const nlohmann::json counters_before =
        target_.disk_counters ? target_.disk_counters() : nullptr;
    std::vector<nlohmann::json> records;
    if (ok) {
      env_.label_prefix = CellPrefix(i);
      const bool controlled = !config_.controls.empty();
      env_.load_placement =
          controlled ? config_.controls[cell.config_index].load : ProcessPlacement{};
      env_.probe_placement =
          controlled ? config_.controls[cell.config_index].probe : ProcessPlacement{};
      ok = RunTracedCell(variant, &records, &rec, &cell_err);
    }
    if (target_.disk_counters) {
      rec.disk_counters = CounterDelta(counters_before, target_.disk_counters());
    }
    std::string lost_why;
    const bool lost = target_.lost && target_.lost(&lost_why);
    if (lost) {
      ok = false;
      cell_err = lost_why;
    }
    rec.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (ok) {
      rec.status = "ok";
      rec.record_count = records.size();
      AppendRecords(rec, &records);
    } else {
      const std::string cause =
          target_.failure_cause && !lost ? target_.failure_cause(rec.disk_counters) : std::string();
      if (!cause.empty()) cell_err = cause + ": " + cell_err;
      rec.status = Stopped() && !lost ? "interrupted" : "failed";
      rec.error = cell_err;
      if (!Stopped() && !lost) {
        ++*failed_cells;
        progress_->Note("elevbench: cell " + std::to_string(i + 1) + " (" + rec.identifier + ", " +
                        variant.label + ") failed: " + cell_err);
      }
    }
    doc_->cells.push_back(std::move(rec));
    doc_->summary = suite_.Summarize(*doc_);
    progress_->EndCell();
    if (n + 1 == cells_.size() || plan_[cells_[n + 1]].repetition != cell.repetition) {
      EndRound(cell);
    }
    if (!SaveResultsFile(config_.out_path, *doc_, err)) return false;
    if (lost) *err = lost_why;
    return !lost;
  }

  // After the last cell or a stop: complete, or the stop's reason as the error.
  bool Finish(std::string* err) {
    progress_->Finish(Stopped());
    if (Stopped()) {
      *err = config_.stop_reason ? config_.stop_reason() : "stopped";
      return false;
    }
    RecordRounds();
    doc_->complete = true;
    return SaveResultsFile(config_.out_path, *doc_, err);
  }

 private:
  CellRecord StartRecord(const PlannedCell& cell, const SuiteVariant& variant) const {
    CellRecord rec;
    rec.identifier = config_.identifiers[cell.config_index];
    rec.label = config_.labels[cell.config_index];
    if (!config_.configuration_labels.empty()) {
      rec.configuration_label = config_.configuration_labels[cell.config_index];
    }
    rec.scheduler = config_.configs.empty() ? "" : DisplayName(config_.configs[cell.config_index]);
    if (!config_.controls.empty()) rec.control = config_.controls[cell.config_index].text;
    rec.repetition = cell.repetition;
    rec.variant = variant.key;
    rec.started_at = NowIso8601();
    rec.lane = config_.lane;
    rec.shard = config_.shard;
    return rec;
  }

  // The cell's configuration on the device, selected afresh, and the caches dropped. Every cell
  // starts with a new instance of its scheduler (Apply goes through another scheduler when the
  // same one is on), so that no cell inherits the state an earlier cell left in the scheduler
  // and a result does not depend on the shuffled order; a lane, which never changes
  // configuration, then starts its cells as a serial run does (docs/architecture.md).
  bool PrepareDevice(const PlannedCell& cell, const SuiteVariant& variant, const CellRecord& rec,
                     std::string* err) {
    const bool switching = target_.control != nullptr && !config_.configs.empty();
    if (switching) {
      progress_->Phase("switching to " + rec.scheduler);
      if (!target_.control->Apply(config_.configs[cell.config_index], err)) return false;
    }
    if (!config_.controls.empty() && config_.controls[cell.config_index].before_cell) {
      progress_->Phase("setting the control");
      if (!config_.controls[cell.config_index].before_cell(err)) return false;
    }
    if (config_.fresh_fs && !variant.keep_caches && !FreshFilesystem(err)) return false;
    if (config_.drop_caches && target_.drop_caches && !variant.keep_caches) {
      progress_->Phase("dropping caches");  // the target's syncfs first: seconds when dirty
      return target_.drop_caches(err);
    }
    return true;
  }

  // --fresh-fs: the filesystem made again and the suite's files laid out on it again, before the
  // first cell too: its filesystem was made on the disk's image before the disk served it, the
  // others' through the disk, and every cell's is made the same way.
  bool FreshFilesystem(std::string* err) {
    if (!target_.remake_filesystem) {
      *err = "--fresh-fs: the target's filesystem cannot be made again";
      return false;
    }
    progress_->Phase("making a fresh filesystem");
    if (!target_.remake_filesystem(err)) return false;
    progress_->Phase("set-up");
    env_.label_prefix = "setup-";
    if (!suite_.SetUp(env_, &doc_->setup, err)) {
      *err = "set-up on the fresh filesystem: " + *err;
      return false;
    }
    return true;
  }

  // The suite's cell, between the tracer's BeginCell and EndCell when the run traces.
  bool RunTracedCell(const SuiteVariant& variant, std::vector<nlohmann::json>* records,
                     CellRecord* rec, std::string* err) {
    CellTracer* tracer = target_.tracer;
    std::string trace_err;
    const bool tracing = tracer != nullptr && tracer->BeginCell(env_.label_prefix, &trace_err);
    const bool ok = suite_.RunCell(variant, env_, records, err);
    if (tracer != nullptr) {
      rec->request_trace = tracer->EndCell();
      if (!tracing) {
        RequestTraceRecord untraced;
        untraced.summarised = false;
        untraced.complete = false;
        untraced.problem = "not traced: " + trace_err;
        rec->request_trace = std::move(untraced);
      }
    }
    return ok;
  }

  std::map<std::string, std::string> QueueSnapshot() const {
    if (target_.control) return target_.control->Snapshot();
    if (target_.snapshot) return target_.snapshot();
    return {};
  }

  // The suite's records with the cell's common header fields, and, when the scheduler's log was
  // traced, how many of its queues bfq merged in the cell: a bimodal spread explains itself.
  void AppendRecords(const CellRecord& rec, std::vector<nlohmann::json>* records) {
    const std::optional<RequestTraceRecord>& trace = rec.request_trace;
    const bool logged = trace && !trace->scheduler_messages.empty();
    for (nlohmann::json& r : *records) {
      if (logged) {
        const auto merges = trace->scheduler_messages.find("queue_merge");
        r["scheduler_queue_merges"] =
            merges == trace->scheduler_messages.end() ? 0 : merges->second;
      }
      WriteRecordHeader(CellHeader(rec), &r);
      doc_->records.push_back(std::move(r));
    }
  }

  // A round (one repetition of every cell) ended: with adaptive repetitions, whether every
  // headline interval is narrow enough, said in a note.
  void EndRound(const PlannedCell& cell) {
    rounds_done_ = cell.repetition + 1;
    if (adaptive_.enabled && rounds_done_ >= adaptive_.min_repetitions) {
      double widest = 0;
      std::string which;
      converged_ = HeadlineIntervalsConverged(*doc_, config_.measure, adaptive_.min_repetitions,
                                              adaptive_.ci_width, &widest, &which);
      char line[160];
      std::snprintf(line, sizeof line, "%.1f %%", widest * 100);
      progress_->Note("elevbench: after " + std::to_string(rounds_done_) +
                      " repetitions the widest 95 % interval is ±" +
                      (std::isinf(widest) ? std::string("∞") : std::string(line)) + " (" + which +
                      "); target ±" + std::to_string(adaptive_.ci_width * 100).substr(0, 4) + " %" +
                      (converged_ ? ": done" : ""));
    }
    RecordRounds();
  }

  // A fixed run keeps the caller's "repetitions" (what was asked, so short rows show); an
  // adaptive one records the rounds it ran.
  void RecordRounds() {
    if (!adaptive_.enabled) return;
    doc_->context["repetitions"] = rounds_done_;
    doc_->context["repetitions_auto"] = {{"ci_width", adaptive_.ci_width},
                                         {"min_repetitions", adaptive_.min_repetitions},
                                         {"max_repetitions", adaptive_.max_repetitions},
                                         {"converged", converged_}};
  }

  Suite& suite_;
  const SessionConfig& config_;
  const SessionTarget& target_;
  Progress* progress_;
  ResultsDocument* doc_;
  const AdaptiveRepetitions& adaptive_;
  const uint32_t repetitions_;
  const std::vector<SuiteVariant> variants_;
  const std::vector<PlannedCell> plan_;
  const std::vector<size_t> cells_;  // the plan indices this session runs, in order
  CellEnvironment env_;
  uint32_t rounds_done_ = 0;
  bool converged_ = false;
};

}  // namespace

bool RunSession(Suite& suite, const SessionConfig& config, const SessionTarget& target,
                FioRunner* fio, Progress* progress, ResultsDocument* doc, size_t* failed_cells,
                std::string* err) {
  *failed_cells = 0;
  if (config.identifiers.empty() || config.labels.size() != config.identifiers.size() ||
      (!config.configs.empty() && config.configs.size() != config.identifiers.size()) ||
      (!config.configuration_labels.empty() &&
       config.configuration_labels.size() != config.identifiers.size()) ||
      (!config.controls.empty() && config.controls.size() != config.identifiers.size())) {
    *err = "internal: one identifier and one label per configuration are needed";
    return false;
  }
  SessionRun run(suite, config, target, fio, progress, doc);
  if (!run.CellsInPlan()) {
    *err = "internal: a lane's or shard's cells are not all in the plan";
    return false;
  }
  if (!run.SaveHeader(err)) return false;
  TearDownGuard teardown(&suite, &run.Environment());
  if (!run.SetUp(err)) return false;
  for (size_t i = 0; i < run.CellCount() && !run.Stopped(); ++i) {
    if (!run.RunCell(i, failed_cells, err)) return false;
    if (run.Converged()) break;
  }
  return run.Finish(err);
}

}  // namespace elevbench
