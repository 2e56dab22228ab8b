#include "harness/run/run_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

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
      "requests",   "reads",     "writes",      "bytes_read",  "bytes_written",
      "seeks",      "busy_ns",   "modelled_ns", "achieved_ns", "cached_bytes",
      "cpu_user_s", "cpu_sys_s", "uptime_ns"};
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

bool RunSession(Suite& suite, const SessionConfig& config, const SessionTarget& target,
                FioRunner* fio, Progress* progress, ResultsDocument* doc, size_t* failed_cells,
                std::string* err) {
  *failed_cells = 0;
  const auto stop = [&config] { return config.stop_requested && config.stop_requested(); };
  if (config.identifiers.empty() || config.labels.size() != config.identifiers.size() ||
      (!config.configs.empty() && config.configs.size() != config.identifiers.size())) {
    *err = "internal: one identifier and one label per configuration are needed";
    return false;
  }
  const bool switching = target.control != nullptr && !config.configs.empty();
  const std::vector<SuiteVariant> variants = suite.Variants();
  const AdaptiveRepetitions& adaptive = config.adaptive;
  const uint32_t repetitions = adaptive.enabled ? adaptive.max_repetitions : config.repetitions;
  // Adaptive runs take the plan of the cap and stop at the end of a round (the plan is ordered
  // by repetition), so their order is the one a fixed run of that many repetitions would have.
  const std::vector<PlannedCell> plan =
      BuildRunPlan(config.identifiers.size(), variants.size(), repetitions, config.seed);
  uint32_t rounds_done = 0;
  bool converged = false;
  // A fixed run keeps the caller's "repetitions" (what was asked, so short rows show); an
  // adaptive one records the rounds it ran.
  auto record_rounds = [&] {
    if (adaptive.enabled) {
      doc->context["repetitions"] = rounds_done;
      doc->context["repetitions_auto"] = {{"ci_width", adaptive.ci_width},
                                          {"min_repetitions", adaptive.min_repetitions},
                                          {"max_repetitions", adaptive.max_repetitions},
                                          {"converged", converged}};
    }
  };
  doc->identifiers = config.identifiers;
  doc->labels = config.labels;
  doc->complete = false;
  doc->parameters = suite.Parameters();
  if (!SaveResultsFile(config.out_path, *doc, err)) return false;
  progress->Start(doc->suite, plan.size());

  CellEnvironment env;
  env.directory = target.directory;
  env.fio = fio;
  env.work_dir = config.work_dir;
  env.timeout_seconds = config.timeout_seconds;
  env.root = config.root;
  env.drop_caches = config.drop_caches;
  env.on_phase = [&](const std::string& phase) { progress->Phase(phase); };
  TearDownGuard teardown(&suite, &env);
  progress->Phase("set-up");
  env.label_prefix = "setup-";
  if (!suite.SetUp(env, &doc->setup, err)) {
    progress->Finish();
    *err = "set-up: " + *err;
    return false;
  }
  doc->parameters = suite.Parameters();
  if (!SaveResultsFile(config.out_path, *doc, err)) return false;

  int applied = -1;  // configuration currently on the device
  for (size_t i = 0; i < plan.size(); ++i) {
    if (stop()) break;
    const PlannedCell& cell = plan[i];
    const SuiteVariant& variant = variants[cell.variant_index];
    CellRecord rec;
    rec.identifier = config.identifiers[cell.config_index];
    rec.label = config.labels[cell.config_index];
    rec.scheduler = config.configs.empty() ? "" : DisplayName(config.configs[cell.config_index]);
    rec.repetition = cell.repetition;
    rec.variant = variant.key;
    rec.started_at = NowIso8601();
    const auto started = std::chrono::steady_clock::now();
    progress->BeginCell(i, rec.identifier + " " + variant.label + " rep " +
                               std::to_string(cell.repetition + 1) + "/" +
                               (adaptive.enabled ? "≤" : "") + std::to_string(repetitions));
    std::string cell_err;
    bool ok = true;
    if (switching && static_cast<int>(cell.config_index) != applied) {
      progress->Phase("switching to " + rec.scheduler);
      ok = target.control->Apply(config.configs[cell.config_index], &cell_err);
      applied = ok ? static_cast<int>(cell.config_index) : -1;
    }
    if (ok && config.drop_caches && target.drop_caches && !variant.keep_caches) {
      progress->Phase("dropping caches");  // sync() first: seconds with much dirty data
      ok = target.drop_caches(&cell_err);
    }
    if (target.control) {
      rec.queue = target.control->Snapshot();
    } else if (target.snapshot) {
      rec.queue = target.snapshot();
    }
    nlohmann::json counters_before = target.disk_counters ? target.disk_counters() : nullptr;
    std::vector<nlohmann::json> records;
    if (ok) {
      env.label_prefix = CellPrefix(i);
      ok = suite.RunCell(variant, env, &records, &cell_err);
    }
    if (target.disk_counters) {
      rec.disk_counters = CounterDelta(counters_before, target.disk_counters());
    }
    rec.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (ok) {
      rec.status = "ok";
      for (nlohmann::json& r : records) {
        r["scheduler"] = rec.scheduler;
        r["identifier"] = rec.identifier;
        r["label"] = rec.label;
        r["repetition"] = rec.repetition;
        doc->records.push_back(std::move(r));
      }
    } else {
      rec.status = stop() ? "interrupted" : "failed";
      rec.error = cell_err;
      if (!stop()) {
        ++*failed_cells;
        progress->Note("elevbench: cell " + std::to_string(i + 1) + " (" + rec.identifier + ", " +
                       variant.label + ") failed: " + cell_err);
      }
    }
    doc->cells.push_back(std::move(rec));
    doc->summary = suite.Summarize(*doc);
    progress->EndCell();
    const bool round_end = i + 1 == plan.size() || plan[i + 1].repetition != cell.repetition;
    if (round_end) {
      rounds_done = cell.repetition + 1;
      if (adaptive.enabled && rounds_done >= adaptive.min_repetitions) {
        double widest = 0;
        std::string which;
        converged = HeadlineIntervalsConverged(*doc, config.measure, adaptive.min_repetitions,
                                               adaptive.ci_width, &widest, &which);
        char line[160];
        std::snprintf(line, sizeof line, "%.1f %%", widest * 100);
        progress->Note("elevbench: after " + std::to_string(rounds_done) +
                       " repetitions the widest 95 % interval is ±" +
                       (std::isinf(widest) ? std::string("∞") : std::string(line)) + " (" + which +
                       "); target ±" + std::to_string(adaptive.ci_width * 100).substr(0, 4) + " %" +
                       (converged ? ": done" : ""));
      }
      record_rounds();
    }
    if (!SaveResultsFile(config.out_path, *doc, err)) return false;
    if (converged) break;
  }
  progress->Finish();
  if (stop()) {
    *err = config.stop_reason ? config.stop_reason() : "stopped";
    return false;
  }
  record_rounds();
  doc->complete = true;
  return SaveResultsFile(config.out_path, *doc, err);
}

}  // namespace elevbench
