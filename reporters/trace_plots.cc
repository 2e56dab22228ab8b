#include "reporters/trace_plots.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "harness/core/strings.h"
#include "harness/stats/trace_measurements.h"
#include "reporters/gnuplot.h"

namespace elevbench {
namespace {

// One configuration's requests of one direction in one row, over all its traced cells.
struct TraceMerged {
  LatencyHistogram i2d;
  LatencyHistogram d2c;
  LatencyHistogram seek_distance;
  std::map<uint64_t, uint64_t> run_lengths;  // length → runs
};

// A variant row × direction, its configurations in the document's order.
struct TracePlotGroup {
  std::string row;
  std::string direction;
  std::vector<std::pair<std::string, TraceMerged>> by_configuration;
};

std::string TraceDatablock(const std::string& name, const std::vector<std::string>& lines) {
  std::string text = "$" + name + " << EOD\n";
  for (const std::string& line : lines) text += line + "\n";
  return text + "EOD\n";
}

std::string TraceGroupTitle(const TracePlotGroup& g) {
  return (g.row.empty() ? std::string() : g.row + ": ") + g.direction + " requests";
}

std::vector<TracePlotGroup> TracePlotGroupsOf(const ResultsDocument& doc,
                                              const std::vector<TracedCell>& cells) {
  using Key = std::pair<std::string, std::string>;  // row, direction
  std::vector<std::string> rows;                    // in order of first appearance
  std::map<Key, std::map<std::string, TraceMerged>> merged;
  for (const TracedCell& t : cells) {
    const std::string row = VariantText(t.cell->variant);
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
    for (const char* dir : {"read", "write"}) {
      const TraceDirection& d = t.trace->total.Of(dir);
      if (d.requests == 0) continue;
      TraceMerged& m = merged[{row, dir}][t.cell->identifier];
      m.i2d.Merge(d.i2d.Expand());
      m.d2c.Merge(d.d2c.Expand());
      m.seek_distance.Merge(d.seek_distance.Expand());
      for (const auto& [length, runs] : d.dispatch_run_lengths) m.run_lengths[length] += runs;
    }
  }
  std::vector<TracePlotGroup> groups;
  for (const std::string& row : rows) {
    for (const char* dir : {"read", "write"}) {
      const auto found = merged.find({row, dir});
      if (found == merged.end()) continue;
      TracePlotGroup g{row, dir, {}};
      for (const std::string& id : IdentifierOrder(doc)) {
        const auto it = found->second.find(id);
        if (it != found->second.end()) g.by_configuration.emplace_back(id, std::move(it->second));
      }
      groups.push_back(std::move(g));
    }
  }
  return groups;
}

Plot TimePlotOf(const TracePlotGroup& g) {
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

Plot DispatchRunPlotOf(const TracePlotGroup& g) {
  Plot plot;
  plot.kind = "dispatch-runs";
  plot.title = TraceGroupTitle(g) +
               ": dispatch runs, the fraction of requests dispatched in runs of at most x "
               "requests from one stream, over every traced repetition";
  std::ostringstream s;
  std::vector<std::string> clauses;
  for (size_t k = 0; k < g.by_configuration.size(); ++k) {
    const TraceMerged& m = g.by_configuration[k].second;
    double total = 0;
    for (const auto& [length, runs] : m.run_lengths) total += static_cast<double>(length * runs);
    if (total == 0) continue;
    std::vector<std::string> lines;
    double seen = 0;
    for (const auto& [length, runs] : m.run_lengths) {
      seen += static_cast<double>(length * runs);
      lines.push_back(GnuplotNumber(static_cast<double>(std::max<uint64_t>(length, 1))) + " " +
                      GnuplotNumber(seen / total));
    }
    const std::string block = "runs" + std::to_string(k);
    s << TraceDatablock(block, lines);
    clauses.push_back("$" + block + " using 1:2 with steps lw 1.5 lc " + std::to_string(k + 1) +
                      " title " + GnuplotString(g.by_configuration[k].first));
  }
  if (clauses.empty()) return plot;  // no run lengths recorded: the caption stands alone
  s << "set logscale x 2\n"
    << "set format x '%g'\n"
    << "set xlabel 'dispatch run length (requests), log scale'\n"
    << "set ylabel 'fraction of requests in runs at most this long'\n"
    << "set yrange [0:1.02]\n"
    << "set grid\n"
    << "set key right bottom\n"
    << "plot " << JoinWith(clauses, ", ") << "\n";
  plot.script = s.str();
  return plot;
}

Plot SeekPlotOf(const TracePlotGroup& g) {
  Plot plot;
  plot.kind = "seek-cdf";
  plot.title = TraceGroupTitle(g) +
               ": seek distance, the fraction of requests that started at most x sectors from "
               "where the previous one ended (0, a sequential request, is drawn at 1), over "
               "every traced repetition";
  std::ostringstream s;
  std::vector<std::string> clauses;
  for (size_t k = 0; k < g.by_configuration.size(); ++k) {
    const LatencyHistogram& h = g.by_configuration[k].second.seek_distance;
    if (h.count() == 0) continue;
    std::vector<std::string> lines;
    uint64_t seen = 0;
    const double total = static_cast<double>(h.count());
    h.ForEachNonEmptyBucket([&](uint64_t sectors, uint64_t count) {
      seen += count;
      lines.push_back(GnuplotNumber(static_cast<double>(std::max<uint64_t>(sectors, 1))) + " " +
                      GnuplotNumber(static_cast<double>(seen) / total));
    });
    const std::string block = "seek" + std::to_string(k);
    s << TraceDatablock(block, lines);
    clauses.push_back("$" + block + " using 1:2 with steps lw 1.5 lc " + std::to_string(k + 1) +
                      " title " + GnuplotString(g.by_configuration[k].first));
  }
  if (clauses.empty()) return plot;
  s << "set logscale x\n"
    << "set format x '%g'\n"
    << "set xlabel 'seek distance (sectors), log scale'\n"
    << "set ylabel 'fraction of requests at or below'\n"
    << "set yrange [0:1.02]\n"
    << "set grid\n"
    << "set key right bottom\n"
    << "plot " << JoinWith(clauses, ", ") << "\n";
  plot.script = s.str();
  return plot;
}

}  // namespace

void AddRequestTracePlots(const ResultsDocument& doc, std::vector<Plot>* plots) {
  for (const TracePlotGroup& g : TracePlotGroupsOf(doc, TracedCellsOf(doc))) {
    plots->push_back(TimePlotOf(g));
    plots->push_back(DispatchRunPlotOf(g));
    plots->push_back(SeekPlotOf(g));
  }
}

}  // namespace elevbench
