#pragma once
// The table of fio jobs that `run fio` prints: one line per job, configuration and direction,
// with the rate, the IOPS and the completion latency's p50/p99/p99.9 in ms:
//
//   Job              Configuration         Dir       MB/s       IOPS   p50 ms   p99 ms p99.9 ms
//   randread         6.18.0-mq-deadline    read      1.23      157.0    6.120   24.100   40.000
//
// The rows come aggregated from the suite (scenarios/fiojobs/fiojobs_aggregate.h).

#include <string>
#include <vector>

#include "scenarios/fiojobs/fiojobs_aggregate.h"

namespace elevbench {

/// The media rates of the emulated disk the jobs ran on (MB/s; 0: not emulated, nothing marked).
struct DiskRates {
  double read_mb_s = 0;
  double write_mb_s = 0;
};

/// The table's header line and its lines, one per row as given. A read or write line faster
/// than `disk` can move data ends in " (page cache)": a buffered job's rate is then the page
/// cache's (issue #29).
std::string RenderJobTable(const std::vector<FioJobsRow>& rows, const DiskRates& disk = {});

}  // namespace elevbench
