#pragma once
// The HTML report's plots of the request tracer's numbers (harness/results/request_trace_record.h),
// for any suite whose cells were traced, one set per variant row ("bench=3") and direction with
// requests, each from the traced cells of every repetition taken together:
//   * "trace-time": where a request's time goes, per configuration a stacked bar of the mean
//     time in the scheduler (I2D) and in the device (D2C);
//   * "dispatch-runs": the dispatch-run lengths, per configuration the fraction of requests
//     dispatched in runs of at most x requests (a step line, log x);
//   * "seek-cdf": the seek distances, per configuration the fraction of requests that started
//     at most x sectors from where the previous one ended (log x).

#include <string>
#include <vector>

#include "harness/stats/plot_series.h"
#include "reporters/plot.h"

namespace elevbench {

/// Appends the plots of the tracer's groups (harness/stats/plot_series.h TraceGroupsOf, which
/// merges the traced cells) to *plots; nothing for no groups.
void AddRequestTracePlots(const std::vector<TraceGroup>& groups, std::vector<Plot>* plots);

}  // namespace elevbench
