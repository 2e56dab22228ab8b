#include "reporters/trace_plots.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "harness/core/strings.h"
#include "reporters/gnuplot.h"

namespace elevbench {
namespace {

std::string TraceDatablock(const std::string& name, const std::vector<std::string>& lines) {
  std::string text = "$" + name + " << EOD\n";
  for (const std::string& line : lines) text += line + "\n";
  return text + "EOD\n";
}

std::string TraceGroupTitle(const TraceGroup& g) {
  return (g.row.empty() ? std::string() : g.row + ": ") + g.direction + " requests";
}

Plot TimePlotOf(const TraceGroup& g) {
  Plot plot;
  plot.kind = "trace-time";
  plot.title = TraceGroupTitle(g) +
               ": mean time of a request in the scheduler (I2D, inserted to dispatched) and in "
               "the device (D2C, dispatched to completed), ms, over every traced repetition";
  std::vector<std::string> lines;
  for (const auto& [id, m] : g.by_configuration) {
    lines.push_back(GnuplotDataString(id) + " " + GnuplotNumber(m.i2d.mean_ns() / 1e6) + " " +
                    GnuplotNumber(m.d2c.mean_ns() / 1e6));
  }
  std::ostringstream s;
  s << TraceDatablock("time", lines) << "set style data histogram\n"
    << "set style histogram rowstacked\n"
    << "set style fill solid 0.75 border -1\n"
    << "set boxwidth 0.6\n"
    << "set key outside right top\n"
    << "set grid ytics\n"
    << "set yrange [0:*]\n"
    << "set ylabel 'ms per request'\n"
    << "plot $time using 2:xtic(1) title 'I2D: in the scheduler', '' using 3 title "
       "'D2C: in the device'\n";
  plot.script = s.str();
  plot.width =
      static_cast<int>(std::clamp<size_t>(300 + g.by_configuration.size() * 90, 640, 1280));
  return plot;
}

// One configuration's cumulative distribution: (x, fraction of requests at or below x) in
// ascending x; empty when the configuration has nothing to draw.
using CdfPoints = std::vector<std::pair<uint64_t, double>>;

// How a step-CDF plot of a group is labelled; the points come from each configuration.
struct StepCdfPlotSpec {
  const char* kind;
  const char* what;      // the title after the group's
  const char* block;     // datablock name stem; the configuration's index is appended
  const char* logscale;  // "x" or "x 2"
  const char* xlabel;
  const char* ylabel;
};

// One step line a configuration (x drawn at least at 1, for the log scale); only the caption
// when no configuration has points.
Plot StepCdfPlotOf(const TraceGroup& g, const StepCdfPlotSpec& spec,
                   const std::function<CdfPoints(const TraceTotals&)>& points_of) {
  Plot plot;
  plot.kind = spec.kind;
  plot.title = TraceGroupTitle(g) + spec.what;
  std::ostringstream s;
  std::vector<std::string> clauses;
  for (size_t k = 0; k < g.by_configuration.size(); ++k) {
    const CdfPoints points = points_of(g.by_configuration[k].second);
    if (points.empty()) continue;
    std::vector<std::string> lines;
    for (const auto& [x, fraction] : points) {
      lines.push_back(GnuplotNumber(static_cast<double>(std::max<uint64_t>(x, 1))) + " " +
                      GnuplotNumber(fraction));
    }
    const std::string block = spec.block + std::to_string(k);
    s << TraceDatablock(block, lines);
    clauses.push_back("$" + block + " using 1:2 with steps lw 1.5 lc " + std::to_string(k + 1) +
                      " title " + GnuplotString(g.by_configuration[k].first));
  }
  if (clauses.empty()) return plot;  // nothing recorded: the caption stands alone
  s << "set logscale " << spec.logscale << "\n"
    << "set format x '%g'\n"
    << "set xlabel '" << spec.xlabel << "'\n"
    << "set ylabel '" << spec.ylabel << "'\n"
    << "set yrange [0:1.02]\n"
    << "set grid\n"
    << "set key right bottom\n"
    << "plot " << JoinWith(clauses, ", ") << "\n";
  plot.script = s.str();
  return plot;
}

Plot DispatchRunPlotOf(const TraceGroup& g) {
  static const StepCdfPlotSpec kSpec{
      "dispatch-runs",
      ": dispatch runs, the fraction of requests dispatched in runs of at most x requests from "
      "one stream, over every traced repetition",
      "runs",
      "x 2",
      "dispatch run length (requests), log scale",
      "fraction of requests in runs at most this long"};
  return StepCdfPlotOf(g, kSpec, [](const TraceTotals& m) {
    double total = 0;
    for (const auto& [length, runs] : m.run_lengths) total += static_cast<double>(length * runs);
    CdfPoints points;
    if (total == 0) return points;
    double seen = 0;
    for (const auto& [length, runs] : m.run_lengths) {
      seen += static_cast<double>(length * runs);
      points.emplace_back(length, seen / total);
    }
    return points;
  });
}

Plot SeekPlotOf(const TraceGroup& g) {
  static const StepCdfPlotSpec kSpec{
      "seek-cdf",
      ": seek distance, the fraction of requests that started at most x sectors from where the "
      "previous one ended (0, a sequential request, is drawn at 1), over every traced repetition",
      "seek",
      "x",
      "seek distance (sectors), log scale",
      "fraction of requests at or below"};
  return StepCdfPlotOf(g, kSpec, [](const TraceTotals& m) {
    CdfPoints points;
    const LatencyHistogram& h = m.seek_distance;
    if (h.count() == 0) return points;
    uint64_t seen = 0;
    const double total = static_cast<double>(h.count());
    h.ForEachNonEmptyBucket([&](uint64_t sectors, uint64_t count) {
      seen += count;
      points.emplace_back(sectors, static_cast<double>(seen) / total);
    });
    return points;
  });
}

}  // namespace

void AddRequestTracePlots(const std::vector<TraceGroup>& groups, std::vector<Plot>* plots) {
  for (const TraceGroup& g : groups) {
    plots->push_back(TimePlotOf(g));
    plots->push_back(DispatchRunPlotOf(g));
    plots->push_back(SeekPlotOf(g));
  }
}

}  // namespace elevbench
