#pragma once
// fio's job entries (fio_output.h) as elevbench's job records (harness/results/job_result.h):
// the clones of one job merged.

#include <vector>

#include "harness/fio/fio_output.h"
#include "harness/results/job_result.h"

namespace elevbench {

/// One JobResult per distinct job name, in order of first appearance: clones' bytes, I/Os, CPU
/// and fsyncs summed, each direction's runtime the longest clone's, histograms merged.
std::vector<JobResult> JobResultsFromFio(const FioRunResult& run);

}  // namespace elevbench
