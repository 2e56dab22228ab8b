#pragma once
// One figure of the HTML report: what reporters/plots.h (the plots of the measurements and the
// plot series) and reporters/trace_plots.h (the request tracer's) both make, in a header of its
// own so that neither of the two includes the other for it.

#include <string>

namespace elevbench {

/// One figure of the report: a gnuplot script with its data inline, and after DrawPlots
/// (reporters/plots.h) its SVG or why there is none.
struct Plot {
  /// "throughput", "times", "latency-cdf", "stream-throughput", "trace-time", "dispatch-runs",
  /// "seek-cdf"
  std::string kind;
  std::string title;   ///< caption, plain text
  std::string note;    ///< what the caption should add (configurations not measured); may be ""
  std::string script;  ///< gnuplot commands after the terminal and output lines, data inline
  int width = 720;     ///< SVG size in px
  int height = 400;
  std::string svg;    ///< after DrawPlots: the SVG for inline use; empty when drawing failed
  std::string error;  ///< after DrawPlots: why there is no SVG
};

}  // namespace elevbench
