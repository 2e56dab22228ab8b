#pragma once
// The cat / ls -lR probes' records as measurements (harness/stats/measurement.h): per probe
// ("cat-during-write"), the probe's times and the load's throughput beside it. A probe that did
// not finish or failed is a measurement without a number (status "dnf" or "failed"). And what
// its HTML plots draw beyond them (harness/stats/plot_series.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"
#include "harness/stats/plot_series.h"

namespace elevbench {

/// The measurements of a probes results document; err names a malformed record.
[[nodiscard]] bool ProbeMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                     std::string* err);

/// The plot series of a probes results document (harness/stats/plot_series.h): per probe and
/// direction, each configuration's load-stream latencies merged over its repetitions, and the
/// probes' multi-stream loads with throughput over time. err names a malformed record.
[[nodiscard]] bool ProbePlotSeries(const ResultsDocument& doc, PlotSeries* out, std::string* err);

}  // namespace elevbench
