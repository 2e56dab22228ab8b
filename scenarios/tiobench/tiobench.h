#pragma once
// tiobench with the exact 2003 semantics (docs/legacy-suites.md §1): tiobench.pl divides
// the total size and random-op count by the thread count, tiotest runs the phases
// write → random write → read → random read on the same per-thread files, and the metrics are
// derived from per-call latencies, the slowest thread's wall time and the threads' summed CPU.
// This file is the pure part: planning the fio streams of a phase and deriving a row's metrics.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/fio/fio_job_file.h"

namespace elevbench {

/// The four tiotest phases.
enum class TioPhase { kSeqWrite, kRandomWrite, kSeqRead, kRandomRead };

/// Execution order of tiotest (files are written before they are read).
inline constexpr std::array<TioPhase, 4> kTioExecutionOrder = {
    TioPhase::kSeqWrite, TioPhase::kRandomWrite, TioPhase::kSeqRead, TioPhase::kRandomRead};

/// Report order of tiobench.pl (reads first).
inline constexpr std::array<TioPhase, 4> kTioReportOrder = {
    TioPhase::kSeqRead, TioPhase::kRandomRead, TioPhase::kSeqWrite, TioPhase::kRandomWrite};

/// Section title as printed by tiobench.pl ("Sequential Reads").
const char* TioPhaseTitle(TioPhase phase);
/// Stable key used in JSON ("seq_read", "random_read", "seq_write", "random_write").
const char* TioPhaseKey(TioPhase phase);
/// Inverse of TioPhaseKey; false for an unknown key.
[[nodiscard]] bool TioPhaseFromKey(const std::string& key, TioPhase* phase);
/// True for the two write phases (they end with an fsync inside the timed window).
bool TioPhaseWrites(TioPhase phase);

/// tiobench.pl's options. size and random_ops are totals over all threads, as in tiobench.pl.
struct TiobenchParams {
  std::string directory;
  uint64_t size_mb = 0;  ///< total over all threads; tiobench.pl's default is 2×RAM
  std::vector<uint32_t> threads = {1, 2, 4, 8};
  uint32_t block_bytes = 4096;
  uint64_t random_ops = 4000;  ///< "NumberRandOpsAllThreads"
  uint32_t numruns = 1;
  /// tiobench.pl --nofrag (tiotest -W): the threads write their files one after another inside
  /// the sequential-write phase's timed window, so the files are not interleaved on disk.
  bool nofrag = false;
};

/// What one tiotest invocation does per thread, after tiobench.pl's integer division.
struct TioThreadPlan {
  uint32_t threads = 0;
  uint64_t mb_per_thread = 0;          ///< int(size/threads), at least 1
  uint64_t random_ops_per_thread = 0;  ///< int(random/threads)
  uint64_t blocks_per_thread = 0;      ///< mb_per_thread · 2^20 / block
};

/// tiobench.pl's default size: 2×RAM clamped to 200…2000 MB.
uint64_t DefaultTiobenchSizeMb(uint64_t ram_bytes);

/// Checks the parameters a user can get wrong; err is one line naming the bad option.
[[nodiscard]] bool ValidateTiobenchParams(const TiobenchParams& params, std::string* err);

/// Applies tiobench.pl's division for one thread count.
TioThreadPlan PlanTioThreads(const TiobenchParams& params, uint32_t threads);

/// The fio stream (one job section with numjobs = threads) that performs `phase`: buffered psync
/// I/O, one file per thread named tiotest.<thread>.0 in `directory`, end_fsync on the write
/// phases, random offsets in [0, blocks-1) with repeats allowed, as tiotest's rand() % (blocks-1).
/// The stream itself never evicts (invalidate=0): the runner evicts the read phases' files before
/// it starts fio (TioPhaseEvictsFirst), outside fio's runtime and CPU window.
StreamSpec TioPhaseStream(const TioThreadPlan& plan, TioPhase phase, const std::string& directory,
                          uint32_t block_bytes);

/// The fio streams of a phase: TioPhaseStream, except that with `nofrag` the sequential write is
/// one single-job stream per thread (file tiotest.<k>.0), each waiting for the previous one
/// (stonewall), so the threads write one after another as tiotest -W did.
std::vector<StreamSpec> TioPhaseStreams(const TioThreadPlan& plan, TioPhase phase,
                                        const std::string& directory, uint32_t block_bytes,
                                        bool nofrag);

/// Path of thread `thread`'s file (fio's name for job `thread` of section "tiotest").
std::string TioFilePath(const std::string& directory, uint32_t thread);

/// True for the read phases: their files are evicted from the page cache (posix_fadvise
/// DONTNEED) just before fio starts, so they read from the disk on any machine, as the 2003 runs
/// did with a file set of twice the RAM. Done by elevbench, not by fio's invalidate=1, which
/// evicts inside the job's runtime and CPU window where tiotest had no such work.
bool TioPhaseEvictsFirst(TioPhase phase);

/// True when the phase's threads run one after another (their runtimes add up).
bool TioPhaseSerial(TioPhase phase, bool nofrag);

/// The fio [global] section used for every tiobench phase, LegacyToolFioGlobal(): thread mode
/// (per-thread rusage), no cache invalidation, random seeds, plain-write layout, no fadvise (as
/// tiotest), and fio's per-call bookkeeping cut to what the tiobench metrics use (docs/metrics.md,
/// "CPU columns against the real tiotest"): clat (Avg/Max/Lat% and the histogram) stays exact.
FioGlobalSpec TioGlobalSpec();

/// Raw measurement of one phase at one thread count, pooled over numruns (sums, as tiobench.pl
/// sums amount, time and CPU; latencies are pooled by merging histograms, not summed).
struct TioPhaseMeasurement {
  TioPhase phase = TioPhase::kSeqRead;
  uint32_t threads = 0;
  uint32_t runs = 0;
  uint64_t bytes = 0;        ///< bytes moved by all threads
  uint64_t ios = 0;          ///< read()/write() calls
  double wall_seconds = 0;   ///< Σ over runs of the slowest thread's phase time (incl. fsync)
  double cpu_seconds = 0;    ///< Σ over runs and threads of user+system CPU
  LatencyHistogram latency;  ///< per-call latency of every read()/write()
};

/// One row of the tiobench tables, derived from a measurement (docs/legacy-suites.md §1.3).
struct TioRowMetrics {
  double rate_mb_s = 0;         ///< MiB moved / wall seconds
  double cpu_pct = 0;           ///< 100 · CPU seconds / wall seconds, not divided by threads
  double avg_latency_ms = 0;    ///< mean over all calls
  double max_latency_ms = 0;    ///< exact maximum
  double lat_pct_over_2s = 0;   ///< percent of calls that took longer than 2 s
  double lat_pct_over_10s = 0;  ///< percent of calls that took longer than 10 s
  double cpu_eff = 0;           ///< Rate / (CPU% / 100); 0 when no CPU time was measured
};

/// Derives the table metrics from a measurement.
TioRowMetrics DeriveTioRow(const TioPhaseMeasurement& m);

}  // namespace elevbench
