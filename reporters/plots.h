#pragma once
// The plots of the HTML report, as gnuplot scripts with their data inline:
//   * throughput per configuration with 95 % CI whiskers: every headline rate (a metric averaged
//     with the harmonic mean), one clustered bar chart per section, or one for the whole suite
//     when each section has a single row (nickbench's benches);
//   * times per repetition with DNF marked: every headline metric in seconds (the probes'
//     elapsed time), a point per finished repetition, a red mark at the cut-off for a DNF;
//   * latency CDFs from histograms merged over repetitions (harness/stats/plot_series.h), beside
//     the tail (fraction of calls slower than x, log scale), where schedulers differ;
//   * per-stream throughput over time of multi-stream runs, one panel per configuration;
//   * of traced cells, the request tracer's time in scheduler and device, dispatch-run lengths
//     and seek distances (reporters/trace_plots.h).
// The first two come from the tidy measurements and so exist for every suite; the latency and
// stream plots from the series a suite aggregates from its records (tiobench, nickbench,
// probes); the last from the cells' request_trace, so they exist for every suite whose run was
// traced.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "reporters/gnuplot.h"
#include "reporters/plot.h"
#include "reporters/report_tables.h"

namespace elevbench {

/// The plots of a file, in the order above, from its measurements and its plot series as its
/// suite and the tracer aggregated them (NamedResults::plots); nothing here merges or averages.
std::vector<Plot> PlotsOf(const NamedResults& file);

/// Runs gnuplot for every plot and fills its svg (ids prefixed with `id_prefix` and the plot's
/// number) or its error; one failed plot does not stop the others.
void DrawPlots(std::vector<Plot>* plots, const std::string& id_prefix,
               const GnuplotOptions& options);

}  // namespace elevbench
