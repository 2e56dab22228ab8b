#include "scenarios/tiobench/tiobench.h"

#include <algorithm>

namespace elevbench {

const char* TioPhaseTitle(TioPhase phase) {
  switch (phase) {
    case TioPhase::kSeqWrite:
      return "Sequential Writes";
    case TioPhase::kRandomWrite:
      return "Random Writes";
    case TioPhase::kSeqRead:
      return "Sequential Reads";
    case TioPhase::kRandomRead:
      return "Random Reads";
  }
  return "?";
}

const char* TioPhaseKey(TioPhase phase) {
  switch (phase) {
    case TioPhase::kSeqWrite:
      return "seq_write";
    case TioPhase::kRandomWrite:
      return "random_write";
    case TioPhase::kSeqRead:
      return "seq_read";
    case TioPhase::kRandomRead:
      return "random_read";
  }
  return "?";
}

bool TioPhaseFromKey(const std::string& key, TioPhase* phase) {
  for (TioPhase p : kTioExecutionOrder) {
    if (key == TioPhaseKey(p)) {
      *phase = p;
      return true;
    }
  }
  return false;
}

bool TioPhaseWrites(TioPhase phase) {
  return phase == TioPhase::kSeqWrite || phase == TioPhase::kRandomWrite;
}

uint64_t DefaultTiobenchSizeMb(uint64_t ram_bytes) {
  uint64_t mb = 2 * (ram_bytes >> 20);
  return std::clamp<uint64_t>(mb, 200, 2000);
}

bool ValidateTiobenchParams(const TiobenchParams& params, std::string* err) {
  if (params.size_mb == 0) {
    *err = "--size must be a positive number of MiB";
    return false;
  }
  if (params.threads.empty()) {
    *err = "--threads needs at least one thread count";
    return false;
  }
  for (uint32_t t : params.threads) {
    if (t == 0 || t > 4096) {
      *err = "--threads values must be between 1 and 4096 (got " + std::to_string(t) + ")";
      return false;
    }
  }
  if (params.block_bytes < 512 || params.block_bytes % 512 != 0 ||
      params.block_bytes > (64u << 20)) {
    *err = "--block must be a multiple of 512 bytes between 512 and 64 MiB";
    return false;
  }
  if (params.numruns == 0 || params.numruns > 1000) {
    *err = "--numruns must be between 1 and 1000";
    return false;
  }
  for (uint32_t t : params.threads) {
    if (params.random_ops < t) {
      // fio's job would get no number_ios: an unbounded random phase.
      *err = "--random " + std::to_string(params.random_ops) +
             ": fewer random operations than threads (" + std::to_string(t) +
             "); each thread needs one at least";
      return false;
    }
    TioThreadPlan plan = PlanTioThreads(params, t);
    if (plan.blocks_per_thread < 2) {
      *err = "--block is larger than half of each thread's file (" +
             std::to_string(plan.mb_per_thread) + " MB at " + std::to_string(t) + " threads)";
      return false;
    }
  }
  return true;
}

TioThreadPlan PlanTioThreads(const TiobenchParams& params, uint32_t threads) {
  TioThreadPlan plan;
  plan.threads = threads;
  plan.mb_per_thread = std::max<uint64_t>(1, params.size_mb / threads);
  plan.random_ops_per_thread = params.random_ops / threads;
  plan.blocks_per_thread = (plan.mb_per_thread << 20) / params.block_bytes;
  return plan;
}

StreamSpec TioPhaseStream(const TioThreadPlan& plan, TioPhase phase, const std::string& directory,
                          uint32_t block_bytes) {
  StreamSpec s;
  s.name = "tiotest";
  s.directory = directory;
  s.block_size_bytes = block_bytes;
  s.numjobs = plan.threads;
  s.ioengine = "psync";
  s.direct = false;
  s.random_repeats = true;
  const bool random = phase == TioPhase::kRandomWrite || phase == TioPhase::kRandomRead;
  s.rw = std::string(random ? "rand" : "") + (TioPhaseWrites(phase) ? "write" : "read");
  s.end_fsync = TioPhaseWrites(phase);
  const uint64_t file_bytes = plan.blocks_per_thread * block_bytes;
  if (!random) {
    s.file_size_bytes = file_bytes;
    return s;
  }
  // tiotest: offset = (rand() % (blocks-1)) · block — the last block is never chosen.
  s.file_size_bytes = file_bytes - block_bytes;
  s.number_ios = plan.random_ops_per_thread;
  // fio would stop after one region's worth of bytes; tiotest does all its ops.
  s.extra.emplace_back("io_size", std::to_string(plan.random_ops_per_thread * block_bytes));
  return s;
}

std::string TioFilePath(const std::string& directory, uint32_t thread) {
  return directory + "/tiotest." + std::to_string(thread) + ".0";
}

// The files were just written and fsynced, so every page is clean and goes; metadata stays
// cached, as on the 2003 box whose 2xRAM file set evicted the data but not the indirect blocks.
bool TioPhaseEvictsFirst(TioPhase phase) { return !TioPhaseWrites(phase); }

bool TioPhaseSerial(TioPhase phase, bool nofrag) { return nofrag && phase == TioPhase::kSeqWrite; }

std::vector<StreamSpec> TioPhaseStreams(const TioThreadPlan& plan, TioPhase phase,
                                        const std::string& directory, uint32_t block_bytes,
                                        bool nofrag) {
  StreamSpec all = TioPhaseStream(plan, phase, directory, block_bytes);
  if (!TioPhaseSerial(phase, nofrag)) return {all};
  std::vector<StreamSpec> streams;
  for (uint32_t k = 0; k < plan.threads; ++k) {
    StreamSpec s = all;
    s.name = "tiotest-w" + std::to_string(k);
    s.filename = "tiotest." + std::to_string(k) + ".0";  // TioFilePath's name, as the others use
    s.numjobs = 1;
    s.stonewall = k > 0;
    streams.push_back(s);
  }
  return streams;
}

FioGlobalSpec TioGlobalSpec() { return LegacyToolFioGlobal(); }

TioRowMetrics DeriveTioRow(const TioPhaseMeasurement& m) {
  TioRowMetrics r;
  const double mib = static_cast<double>(m.bytes) / (1024.0 * 1024.0);
  if (m.wall_seconds > 0) {
    r.rate_mb_s = mib / m.wall_seconds;
    r.cpu_pct = 100.0 * m.cpu_seconds / m.wall_seconds;
  }
  const uint64_t calls = m.latency.count();
  if (calls > 0) {
    r.avg_latency_ms = m.latency.mean_ns() / 1e6;
    r.max_latency_ms = static_cast<double>(m.latency.max_ns()) / 1e6;
    r.lat_pct_over_2s = 100.0 * static_cast<double>(m.latency.CountAbove(2'000'000'000ULL)) / calls;
    r.lat_pct_over_10s =
        100.0 * static_cast<double>(m.latency.CountAbove(10'000'000'000ULL)) / calls;
  }
  if (r.cpu_pct > 0) r.cpu_eff = r.rate_mb_s / (r.cpu_pct / 100.0);
  return r;
}

}  // namespace elevbench
