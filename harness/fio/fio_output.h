#pragma once
// fio --output-format=json+ parser (fio 3.33 layout): per job and direction the byte and I/O
// counts, runtime, bandwidth and the completion-latency histogram from clat_ns.bins.
//
// What real fio 3.33 runs showed (recorded in tests/fixtures/fio/, Linux 6.18):
//   * clat_ns.bins is present for psync (and libaio) jobs whenever clat_percentiles=1 and the
//     direction completed I/O; it is absent (as is "percentile") when N == 0. The keys are bucket
//     midpoints in ns, so a bin can lie below the exact min (bin 740 with min 741). In every run
//     sum(bins) == clat_ns.N. total_ios can exceed N: in the ENOSPC job the failed write is
//     counted in total_ios (17) but has no latency sample (N = 16) and no bytes (16 x 64 KiB).
//   * end_fsync time IS inside job_runtime and the direction's runtime (and so in bw_bytes), but
//     in no latency: 32 MiB of buffered 64 KiB psync writes to ext4 on a loop device throttled to
//     8 MiB/s (blkio.throttle.write_bps_device) took job_runtime 4120 ms, write.runtime 4121 ms,
//     bw_bytes 8.14e6, wall clock around fio 4403 ms with end_fsync=1, and 23 ms / 24 ms /
//     1.40e9 / 304 ms without. clat max stayed 0.45 ms and the "sync" section reported
//     total_ios 0, so the fsync's duration is visible only as runtime.
//   * job_runtime and a direction's runtime can differ by a millisecond (3 vs 4 ms).
//   * fio writes error messages into the --output file BEFORE the JSON ("fio: io_u error on file
//     ...: No space left on device", "fio: file creation disallowed by allow_file_create=0");
//     the parser skips any text before the JSON object.
//   * Only I/O-time errors set a job's "error" (28 for ENOSPC). A job that failed during setup
//     (missing file with allow_file_create=0) is reported with error 0 and no I/O; fio's exit
//     status (non-zero) is the only sign of it, so callers must check both.
//   * usr_cpu/sys_cpu are percentages of job_runtime (fio stat.c: usr_time * 100 / runtime).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {

/// One direction (read or write) of one fio job.
struct FioDirectionResult {
  uint64_t io_bytes = 0;    ///< bytes transferred (json "io_bytes")
  uint64_t total_ios = 0;   ///< I/Os issued, including failed ones (json "total_ios")
  uint64_t runtime_ms = 0;  ///< time this direction ran, including end_fsync (json "runtime")
  double bw_bytes = 0;      ///< io_bytes * 1000 / runtime_ms, as fio computes it (bytes/s)
  /// Completion latency (issue to completion) from clat_ns.bins with fio's exact
  /// min/max/mean; empty when the direction did no I/O.
  LatencyHistogram clat;
};

/// One entry of fio's "jobs" array: one job clone (numjobs=N gives N entries with the same
/// name), or one reporting group under group_reporting.
struct FioJobResult {
  std::string name;  ///< "jobname"
  int error = 0;     ///< first I/O error (errno), 0 = none; see the header note on setup errors
  uint64_t job_runtime_ms = 0;  ///< "job_runtime": the job's whole run, end_fsync included
  double usr_cpu_pct = 0;       ///< user CPU, percent of job_runtime
  double sys_cpu_pct = 0;       ///< system CPU, percent of job_runtime
  uint64_t ctx = 0;             ///< context switches
  FioDirectionResult read;
  FioDirectionResult write;
  /// Discards ("trim"); zero when the output has no trim object.
  FioDirectionResult trim;
  /// fsyncs (iolog `sync` actions, fsync=N): "sync"."total_ios"; 0 when absent.
  uint64_t sync_ios = 0;
  /// Each fsync's latency ("sync"."lat_ns", with its bins under json+); empty when the job
  /// did none. A flush's cost as the application sees it (`disk calibrate`'s flush checks).
  LatencyHistogram sync_lat;
  /// The job's reporting group ("groupid"); 0 when absent.
  uint32_t group = 0;
  /// Throughput over time from fio's bandwidth log (KiB/s per interval, read and write summed),
  /// filled by the runner when the invocation asked for a log; empty otherwise.
  std::vector<double> bw_kib_s;
  /// CPU seconds used: (usr+sys)/100 * job_runtime. Why: fio reports CPU as a share of the
  /// job's runtime, but tables sum CPU time over threads.
  double cpu_seconds() const;
};

/// A whole fio run.
struct FioRunResult {
  std::string fio_version;   ///< "fio version", e.g. "fio-3.33"; empty if absent
  int64_t timestamp_ms = 0;  ///< "timestamp_ms" (Unix ms at the end of the run); 0 if absent
  std::vector<FioJobResult> jobs;
};

/// Parses fio's json+ output (the --output file). Text before the JSON object (fio warnings)
/// and after it is ignored. Requires "jobs" (array) and, per job, jobname, error, job_runtime,
/// usr_cpu, sys_cpu, ctx, and read/write objects with io_bytes, total_ios, runtime, bw_bytes
/// and clat_ns {min, max, mean, N, and bins when N > 0}; the bins must be fio bucket values
/// whose counts sum to N. unified_rw_reporting ("mixed") output is rejected. On failure returns
/// false with one line in err naming the field (e.g. "jobs[1].write.clat_ns.N: expected a
/// non-negative integer") and leaves *out unchanged. Never throws.
[[nodiscard]] bool ParseFioJsonPlus(std::string_view json_text, FioRunResult* out,
                                    std::string* err);

/// Parses one fio bandwidth log (write_bw_log with log_avg_msec: lines "msec, KiB/s, ddir, bs,
/// offset") into KiB/s per interval of `interval_ms`, summing the directions of one interval.
/// An interval is the window ending at the line's time, rounded to the nearest interval.
/// False with the line number for a malformed line.
[[nodiscard]] bool ParseFioBwLog(std::string_view text, uint32_t interval_ms,
                                 std::vector<double>* kib_s, std::string* err);

}  // namespace elevbench
