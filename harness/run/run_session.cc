#include "harness/run/run_session.h"

#include <chrono>
#include <cstdio>

#include "harness/core/interrupt.h"
#include "harness/run/run_plan.h"
#include "harness/core/system_info.h"
#include "scenarios/tiobench/tiobench_runner.h"

namespace elevbench {

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
    if (counted && it.value().is_number_float()) {
      delta[it.key()] = it.value().get<double>() - before[it.key()].get<double>();
    } else if (counted) {
      delta[it.key()] = it.value().get<int64_t>() - before[it.key()].get<int64_t>();
    } else {
      delta[it.key()] = it.value();
    }
  }
  return delta;
}

bool RunTiobenchSession(const SessionConfig& config, const SessionTarget& target,
                        Progress* progress, ResultsDocument* doc, size_t* failed_cells,
                        std::string* err) {
  *failed_cells = 0;
  const size_t config_count = config.configs.empty() ? 1 : config.configs.size();
  const std::vector<PlannedCell> plan =
      BuildRunPlan(config_count, config.params.threads, config.repetitions, config.seed);
  doc->identifiers = config.identifiers;
  doc->complete = false;
  if (!SaveResultsFile(config.out_path, *doc, err)) return false;
  progress->Start("tiobench", plan.size());

  int applied = -1;  // configuration currently on the device
  for (size_t i = 0; i < plan.size(); ++i) {
    if (InterruptRequested()) break;
    const PlannedCell& cell = plan[i];
    CellRecord rec;
    rec.identifier = config.identifiers[cell.config_index];
    rec.scheduler = config.configs.empty() ? "" : DisplayName(config.configs[cell.config_index]);
    rec.repetition = cell.repetition;
    rec.threads = cell.threads;
    rec.started_at = NowIso8601();
    const auto started = std::chrono::steady_clock::now();
    progress->BeginCell(i, rec.identifier + " threads=" + std::to_string(cell.threads) + " rep " +
                               std::to_string(cell.repetition + 1) + "/" +
                               std::to_string(config.repetitions));
    std::string cell_err;
    bool ok = true;
    if (target.control && static_cast<int>(cell.config_index) != applied) {
      progress->Phase("switching to " + rec.scheduler);
      ok = target.control->Apply(config.configs[cell.config_index], &cell_err);
      applied = ok ? static_cast<int>(cell.config_index) : -1;
    }
    if (ok && config.drop_caches) ok = DropCaches(&cell_err);
    if (target.control) {
      rec.queue = target.control->Snapshot();
    } else if (target.snapshot) {
      rec.queue = target.snapshot();
    }
    nlohmann::json counters_before = target.disk_counters ? target.disk_counters() : nullptr;
    std::vector<TioPhaseMeasurement> measurements;
    if (ok) {
      TiobenchParams params = config.params;
      params.directory = target.directory;
      TioCellHooks hooks;
      hooks.on_phase = [&](const std::string& phase) { progress->Phase(phase); };
      hooks.fio_work_dir = config.fio_work_dir;
      char prefix[32];
      std::snprintf(prefix, sizeof prefix, "cell%03zu-", i + 1);
      hooks.fio_label_prefix = prefix;
      hooks.phase_timeout_seconds = config.phase_timeout_seconds;
      ok = RunTioCell(params, cell.threads, hooks, &measurements, &cell_err);
    }
    if (target.disk_counters) {
      rec.disk_counters = CounterDelta(counters_before, target.disk_counters());
    }
    rec.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (ok) {
      rec.status = "ok";
      for (const TioPhaseMeasurement& m : measurements) {
        TioRecord r;
        r.scheduler = rec.scheduler;
        r.identifier = rec.identifier;
        r.repetition = cell.repetition;
        r.measurement = m;
        r.metrics = DeriveTioRow(m);
        doc->records.push_back(std::move(r));
      }
    } else {
      rec.status = InterruptRequested() ? "interrupted" : "failed";
      rec.error = cell_err;
      if (!InterruptRequested()) {
        ++*failed_cells;
        progress->Note("elevbench: cell " + std::to_string(i + 1) + " (" + rec.identifier + ", " +
                       std::to_string(cell.threads) + " threads) failed: " + cell_err);
      }
    }
    doc->cells.push_back(std::move(rec));
    progress->EndCell();
    if (!SaveResultsFile(config.out_path, *doc, err)) return false;
  }
  progress->Finish();
  if (InterruptRequested()) {
    *err = "interrupted by signal " + std::to_string(InterruptSignal());
    return false;
  }
  doc->complete = true;
  return SaveResultsFile(config.out_path, *doc, err);
}

}  // namespace elevbench
