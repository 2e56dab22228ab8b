#pragma once
// `run fio`'s records aggregated for its report: per job file, every job, configuration and
// direction with its repetitions combined (MB/s and IOPS as harmonic means, the completion
// latency histograms merged, so percentiles are over every I/O).

#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "scenarios/fiojobs/fiojobs_records.h"

namespace elevbench {

/// One job's direction in one configuration, its repetitions combined.
struct FioJobsRow {
  std::string job;
  std::string configuration;  ///< the records' identifier
  std::string direction;      ///< "read", "write", "trim"
  double mb_s = 0;            ///< harmonic mean over the repetitions
  double iops = 0;            ///< harmonic mean over the repetitions
  LatencyHistogram clat;      ///< merged over the repetitions (percentiles of all I/Os)
};

/// The rows of one job file.
struct FioJobsTable {
  std::string job_file;          ///< as the records name it
  std::vector<FioJobsRow> rows;  ///< by job name; within one, configurations in order
};

/// Tables per job file in order of first appearance. Within one: per configuration of `order`
/// that ran the file (identifiers; others are left out), per job (in first appearance) and
/// direction that moved bytes, a row; then the rows stably sorted by job name.
std::vector<FioJobsTable> AggregateFioJobsTables(const std::vector<FioJobsRecord>& records,
                                                 const std::vector<std::string>& order);

}  // namespace elevbench
