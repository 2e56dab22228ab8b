#pragma once
// What one fio job did, direction by direction: the plain record of the suites that run fio jobs
// they did not write themselves (`run fio` of the user's job files, `run replay` of a trace's
// processes). Clones of one job (numjobs) are one JobResult: bytes and I/Os summed, the longest
// runtime, completion latencies merged bucket by bucket from fio's json+ bins (never averaged).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {

/// One direction of one job.
struct JobDirectionResult {
  uint64_t bytes = 0;
  uint64_t ios = 0;            ///< I/Os issued (fio's total_ios)
  double runtime_seconds = 0;  ///< the longest clone's runtime of this direction
  LatencyHistogram clat;       ///< completion latency of every I/O of every clone
  /// bytes / runtime in MiB/s (2^20 bytes a second, as every `_mb_s`, docs/output-format.md), 0
  /// without runtime: the rate of all clones together.
  double MegabytesPerSecond() const;
  /// ios / runtime, 0 without runtime.
  double Iops() const;
};

/// One job (all its clones).
struct JobResult {
  std::string name;     ///< fio's jobname
  uint32_t clones = 0;  ///< entries of fio's output merged (numjobs)
  uint32_t group = 0;   ///< fio's reporting group
  JobDirectionResult read, write, trim;
  uint64_t sync_ios = 0;   ///< fsyncs (iolog `sync` actions)
  double cpu_seconds = 0;  ///< user + system CPU of all clones
  /// read + write + trim bytes, and I/Os.
  uint64_t bytes() const { return read.bytes + write.bytes + trim.bytes; }
  uint64_t ios() const { return read.ios + write.ios + trim.ios; }
};

/// {"name", "clones", "group", "read"/"write"/"trim": {"bytes", "ios", "runtime_seconds",
/// "clat": LatencyHistogram::ToJson}, "sync_ios", "cpu_seconds"}.
nlohmann::json JobResultToJson(const JobResult& job);
/// Reads JobResultToJson's form back exactly; err names the key, *job unchanged on failure.
[[nodiscard]] bool JobResultFromJson(const nlohmann::json& j, JobResult* job, std::string* err);
/// Reads the array j[key] of jobs (appended); err "<key>[i].<field>: ...".
[[nodiscard]] bool JobResultsFromJson(const nlohmann::json& j, const char* key,
                                      std::vector<JobResult>* jobs, std::string* err);

}  // namespace elevbench
