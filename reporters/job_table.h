#pragma once
// The table of fio jobs that `run fio` and `run replay` print: one line per job, configuration
// and direction, with the rate, the IOPS and the completion latency's p50/p99/p99.9 in ms:
//
//   Job              Configuration         Dir       MB/s       IOPS   p50 ms   p99 ms p99.9 ms
//   randread         6.18.0-mq-deadline    read      1.23      157.0    6.120   24.100   40.000

#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/results/job_result.h"

namespace elevbench {

/// One line of the table: a job's direction in one configuration, its repetitions combined.
struct JobTableRow {
  std::string job;
  std::string configuration;
  std::string direction;  ///< "read", "write", "trim"
  double mb_s = 0;        ///< harmonic mean over the repetitions
  double iops = 0;        ///< harmonic mean over the repetitions
  LatencyHistogram clat;  ///< merged over the repetitions (percentiles of all I/Os)
};

/// The media rates of the emulated disk the jobs ran on (MB/s; 0: not emulated, nothing marked).
struct DiskRates {
  double read_mb_s = 0;
  double write_mb_s = 0;
};

/// The table's header line and its lines. A read or write line faster than `disk` can move data
/// ends in " (page cache)": a buffered job's rate is then the page cache's (issue #29).
std::string RenderJobTable(const std::vector<JobTableRow>& rows, const DiskRates& disk = {});

/// The rows of one configuration's repetitions of the same jobs: per job (in first appearance)
/// and direction that moved bytes, MB/s and IOPS as harmonic means, histograms merged.
std::vector<JobTableRow> JobTableRows(const std::string& configuration,
                                      const std::vector<std::vector<JobResult>>& repetitions);

}  // namespace elevbench
