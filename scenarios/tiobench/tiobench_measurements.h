#pragma once
// tiobench's records as measurements (harness/stats/measurement.h): one per phase × threads ×
// table column, the section being the phase ("seq_read") and the row "threads=N"; and its
// latency histograms for the HTML plots (harness/stats/plot_series.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"
#include "harness/stats/plot_series.h"

namespace elevbench {

/// The measurements of a tiobench results document, section by section in the tables' order
/// (seq_read, random_read, seq_write, random_write), records in execution order within each;
/// err names a malformed record.
[[nodiscard]] bool TiobenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                        std::string* err);

/// The latency groups of a tiobench results document (harness/stats/plot_series.h): per phase
/// and thread count, each configuration's per-call histograms merged over its repetitions. err
/// names a malformed record.
[[nodiscard]] bool TiobenchPlotSeries(const ResultsDocument& doc, PlotSeries* out,
                                      std::string* err);

}  // namespace elevbench
