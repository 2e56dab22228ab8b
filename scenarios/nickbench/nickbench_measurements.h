#pragma once
// nickbench's records as measurements (harness/stats/measurement.h): per bench ("bench3"), the
// IO rate, the bench's own metric and the streams' fairness; and what its HTML plots draw beyond
// them (harness/stats/plot_series.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"
#include "harness/stats/plot_series.h"

namespace elevbench {

/// The measurements of a nickbench results document; err names a malformed record.
[[nodiscard]] bool NickbenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                         std::string* err);

/// The plot series of a nickbench results document (harness/stats/plot_series.h): per bench and
/// direction, each configuration's stream latencies merged over its streams and repetitions, and
/// the benches' multi-stream runs with throughput over time. err names a malformed record.
[[nodiscard]] bool NickbenchPlotSeries(const ResultsDocument& doc, PlotSeries* out,
                                       std::string* err);

}  // namespace elevbench
