#include "scenarios/tiobench/tiobench_runner.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "harness/core/system_info.h"
#include "harness/engine/page_cache.h"

namespace elevbench {
namespace {

void RemoveTioFiles(const std::string& directory, uint32_t threads) {
  for (uint32_t i = 0; i < threads; ++i) unlink(TioFilePath(directory, i).c_str());
}

bool EvictTioFiles(const TioCellHooks& hooks, const std::string& directory, uint32_t threads,
                   std::string* err) {
  for (uint32_t i = 0; i < threads; ++i) {
    const std::string path = TioFilePath(directory, i);
    if (!(hooks.evict_file ? hooks.evict_file(path, err) : EvictFileFromPageCache(path, err))) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool MeasurementFromFio(TioPhase phase, uint32_t threads, const FioRunResult& run, bool serial,
                        TioPhaseMeasurement* m, std::string* err) {
  *m = TioPhaseMeasurement{};
  m->phase = phase;
  m->threads = threads;
  m->runs = 1;
  if (run.jobs.size() != threads) {
    *err = "fio reported " + std::to_string(run.jobs.size()) + " jobs for " +
           std::to_string(threads) + " threads";
    return false;
  }
  const bool writes = TioPhaseWrites(phase);
  uint64_t slowest_ms = 0;
  uint64_t total_ms = 0;
  for (const FioJobResult& job : run.jobs) {
    const FioDirectionResult& d = writes ? job.write : job.read;
    m->bytes += d.io_bytes;
    m->ios += d.total_ios;
    slowest_ms = std::max<uint64_t>(slowest_ms, d.runtime_ms);
    total_ms += d.runtime_ms;
    m->cpu_seconds += job.cpu_seconds();
    m->latency.Merge(d.clat);
  }
  m->wall_seconds = static_cast<double>(serial ? total_ms : slowest_ms) / 1000.0;
  return true;
}

void PoolTioMeasurement(const TioPhaseMeasurement& run, TioPhaseMeasurement* pooled) {
  if (pooled->runs == 0) {
    *pooled = run;
    return;
  }
  pooled->runs += run.runs;
  pooled->bytes += run.bytes;
  pooled->ios += run.ios;
  pooled->wall_seconds += run.wall_seconds;
  pooled->cpu_seconds += run.cpu_seconds;
  pooled->latency.Merge(run.latency);
}

bool RunTioCell(const TiobenchParams& params, uint32_t threads, const TioCellHooks& hooks,
                std::vector<TioPhaseMeasurement>* measurements, std::string* err) {
  measurements->clear();
  SystemFioRunner system_fio;
  FioRunner* fio = hooks.fio ? hooks.fio : &system_fio;
  const TioThreadPlan plan = PlanTioThreads(params, threads);
  std::vector<TioPhaseMeasurement> pooled(kTioExecutionOrder.size());
  bool ok = true;
  for (uint32_t run = 0; ok && run < params.numruns; ++run) {
    RemoveTioFiles(params.directory, threads);
    for (size_t i = 0; ok && i < kTioExecutionOrder.size(); ++i) {
      const TioPhase phase = kTioExecutionOrder[i];
      if (hooks.on_phase) {
        std::string desc = TioPhaseKey(phase);
        if (params.numruns > 1) {
          desc += " run " + std::to_string(run + 1) + "/" + std::to_string(params.numruns);
        }
        hooks.on_phase(desc);
      }
      FioInvocation inv;
      inv.global = TioGlobalSpec();
      inv.streams =
          TioPhaseStreams(plan, phase, params.directory, params.block_bytes, params.nofrag);
      inv.work_dir = hooks.fio_work_dir.empty() ? params.directory : hooks.fio_work_dir;
      inv.label = hooks.fio_label_prefix + "tiobench-t" + std::to_string(threads) + "-" +
                  TioPhaseKey(phase) +
                  (params.numruns > 1 ? "-run" + std::to_string(run + 1) : std::string());
      inv.timeout_seconds = hooks.phase_timeout_seconds;
      FioRunResult result;
      TioPhaseMeasurement m;
      if ((TioPhaseEvictsFirst(phase) && !EvictTioFiles(hooks, params.directory, threads, err)) ||
          !fio->Run(inv, &result, err) ||
          !MeasurementFromFio(phase, threads, result, TioPhaseSerial(phase, params.nofrag), &m,
                              err)) {
        *err = std::string(TioPhaseKey(phase)) + " at " + std::to_string(threads) +
               " threads: " + *err;
        ok = false;
        break;
      }
      PoolTioMeasurement(m, &pooled[i]);
    }
  }
  RemoveTioFiles(params.directory, threads);
  if (!ok) return false;
  *measurements = std::move(pooled);
  return true;
}

}  // namespace elevbench
