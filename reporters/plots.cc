#include "reporters/plots.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "harness/core/append_unique.h"
#include "harness/core/strings.h"
#include "harness/stats/metric_table.h"
#include "reporters/trace_plots.h"

namespace elevbench {
namespace {

constexpr const char* kDnfColour = "'#d62728'";

std::string SectionRowLabel(const std::string& section, const std::string& row) {
  return row.empty() ? section : section + " " + row;
}

// A datablock "$name << EOD … EOD" from lines.
std::string Datablock(const std::string& name, const std::vector<std::string>& lines) {
  std::string text = "$" + name + " << EOD\n";
  for (const std::string& line : lines) text += line + "\n";
  return text + "EOD\n";
}

// One clustered bar chart: clusters (x labels) × configurations, mean with CI whiskers.
Plot BarPlot(const std::string& title, const MetricInfo& metric,
             const std::vector<std::string>& cluster_labels,
             const std::vector<std::string>& configurations,
             const std::map<std::pair<size_t, std::string>, const MetricRow*>& cells) {
  Plot plot;
  plot.kind = "throughput";
  plot.title = title;
  std::vector<std::string> shown;  // configurations with at least one number
  std::vector<std::string> absent;
  for (const std::string& id : configurations) {
    bool any = false;
    for (size_t c = 0; c < cluster_labels.size(); ++c) {
      const auto it = cells.find({c, id});
      any = any || (it != cells.end() && it->second->summary.n > 0);
    }
    (any ? shown : absent).push_back(id);
  }
  bool unbounded = false;
  std::vector<std::string> lines;
  for (size_t c = 0; c < cluster_labels.size(); ++c) {
    std::string line = GnuplotDataString(cluster_labels[c]);
    for (const std::string& id : shown) {
      const auto it = cells.find({c, id});
      if (it == cells.end() || it->second->summary.n == 0) {
        line += " NaN NaN NaN";
        continue;
      }
      const SampleSummary& s = it->second->summary;
      double low = s.mean;
      double high = s.mean;
      if (s.has_spread) {
        low = s.ci_low;
        high = s.ci_high;
        if (!std::isfinite(high)) {
          unbounded = true;
          high = s.mean;
        }
      }
      line += " " + GnuplotNumber(s.mean) + " " + GnuplotNumber(low) + " " + GnuplotNumber(high);
    }
    lines.push_back(line);
  }
  if (!absent.empty()) plot.note = "Not measured: " + JoinWith(absent, ", ") + ".";
  if (unbounded)
    plot.note += std::string(plot.note.empty() ? "" : " ") +
                 "An interval without upper end is drawn without its upper whisker.";
  if (shown.empty()) return plot;  // nothing to draw: the caption says why
  std::ostringstream s;
  s << Datablock("bars", lines) << "set style data histogram\n"
    << "set style histogram errorbars gap 1 lw 1\n"
    << "set style fill solid 0.75 border -1\n"
    << "set key outside right top\n"
    << "set grid ytics\n"
    << "set yrange [0:*]\n"
    << "set ylabel " << GnuplotString(metric.name + " (" + metric.unit + ")") << "\n";
  if (cluster_labels.size() > 4) s << "set xtics rotate by -25\n";
  std::vector<std::string> clauses;
  for (size_t i = 0; i < shown.size(); ++i) {
    const size_t col = 2 + 3 * i;
    std::string clause = i == 0 ? "$bars" : "''";
    clause += " using " + std::to_string(col) + ":" + std::to_string(col + 1) + ":" +
              std::to_string(col + 2) + (i == 0 ? ":xtic(1)" : "") + " title " +
              GnuplotString(shown[i]);
    clauses.push_back(clause);
  }
  s << "plot " << JoinWith(clauses, ", ") << "\n";
  plot.script = s.str();
  plot.width = static_cast<int>(
      std::clamp<size_t>(200 + cluster_labels.size() * (shown.size() + 1) * 16, 640, 1280));
  return plot;
}

void AddThroughputPlots(const std::vector<MetricRow>& rows, std::vector<Plot>* plots) {
  std::vector<std::string> metric_names;
  for (const MetricRow& r : rows) {
    if (r.metric.headline && r.metric.mean == MeanKind::kHarmonic) {
      AppendUnique(&metric_names, r.metric.name);
    }
  }
  for (const std::string& name : metric_names) {
    MetricInfo info;
    std::vector<std::string> sections;
    std::map<std::string, std::vector<std::string>> row_keys;
    std::vector<std::string> configurations;
    for (const MetricRow& r : rows) {
      if (r.metric.name != name) continue;
      info = r.metric;
      AppendUnique(&sections, r.section);
      AppendUnique(&row_keys[r.section], r.row);
      AppendUnique(&configurations, r.identifier);
    }
    const bool one_row_each = std::all_of(sections.begin(), sections.end(),
                                          [&](const auto& s) { return row_keys[s].size() <= 1; });
    const std::string what =
        name + " (" + info.unit + "): harmonic mean over repetitions, whiskers: 95 % CI";
    if (one_row_each) {
      std::vector<std::string> labels;
      std::map<std::pair<size_t, std::string>, const MetricRow*> cells;
      for (const MetricRow& r : rows) {
        if (r.metric.name != name) continue;
        const size_t c = std::find(sections.begin(), sections.end(), r.section) - sections.begin();
        cells[{c, r.identifier}] = &r;
      }
      for (const std::string& s : sections) labels.push_back(SectionRowLabel(s, row_keys[s][0]));
      plots->push_back(BarPlot(what, info, labels, configurations, cells));
      continue;
    }
    for (const std::string& section : sections) {
      const std::vector<std::string>& keys = row_keys[section];
      std::map<std::pair<size_t, std::string>, const MetricRow*> cells;
      for (const MetricRow& r : rows) {
        if (r.metric.name != name || r.section != section) continue;
        const size_t c = std::find(keys.begin(), keys.end(), r.row) - keys.begin();
        cells[{c, r.identifier}] = &r;
      }
      plots->push_back(BarPlot(section + ": " + what, info, keys, configurations, cells));
    }
  }
}

// One time metric's points per repetition: x is the cluster (section, row) offset by the
// configuration's place in it.
struct TimePoints {
  std::vector<std::pair<std::string, std::string>> clusters;  // (section, row)
  std::vector<std::string> configurations;
  std::map<std::string, std::vector<std::string>> ok;  // identifier → "x y" lines
  std::vector<std::string> dnf;
  std::set<std::string> failed;  // "identifier at section row", no time to draw
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0;
};

TimePoints TimePointsOf(const std::vector<Measurement>& measurements,
                        const std::vector<std::string>& order, const std::string& name) {
  TimePoints p;
  p.configurations = order;
  for (const Measurement& m : measurements) {
    if (m.metric.name != name) continue;
    AppendUnique(&p.clusters, {m.section, m.row});
    AppendUnique(&p.configurations, m.identifier);
  }
  const double n_config = static_cast<double>(p.configurations.size());
  for (const Measurement& m : measurements) {
    if (m.metric.name != name) continue;
    const size_t c =
        std::find(p.clusters.begin(), p.clusters.end(), std::make_pair(m.section, m.row)) -
        p.clusters.begin();
    const size_t k = std::find(p.configurations.begin(), p.configurations.end(), m.identifier) -
                     p.configurations.begin();
    const double x =
        static_cast<double>(c) + (static_cast<double>(k) - (n_config - 1) / 2) * 0.8 / n_config;
    const std::string point = GnuplotNumber(x) + " " + GnuplotNumber(m.value);
    if (m.status == "ok") {
      p.ok[m.identifier].push_back(point);
    } else if (m.status == "dnf") {
      p.dnf.push_back(point);
    } else {
      p.failed.insert(m.identifier + " at " + SectionRowLabel(m.section, m.row));
      continue;
    }
    if (m.value > 0) p.lo = std::min(p.lo, m.value);
    p.hi = std::max(p.hi, m.value);
  }
  return p;
}

// The gnuplot script of a time metric's points: one series per configuration, DNFs in red.
std::string TimePlotScript(const TimePoints& p, const std::string& name) {
  std::ostringstream s;
  std::vector<std::string> tics;
  for (size_t c = 0; c < p.clusters.size(); ++c) {
    tics.push_back(GnuplotString(SectionRowLabel(p.clusters[c].first, p.clusters[c].second)) + " " +
                   std::to_string(c));
  }
  std::vector<std::string> clauses;
  size_t series = 0;
  for (size_t k = 0; k < p.configurations.size(); ++k) {
    const auto it = p.ok.find(p.configurations[k]);
    if (it == p.ok.end()) continue;
    const std::string block = "ok" + std::to_string(series++);
    s << Datablock(block, it->second);
    clauses.push_back("$" + block + " using 1:2 with points pt 7 ps 0.9 lc " +
                      std::to_string(k + 1) + " title " + GnuplotString(p.configurations[k]));
  }
  if (!p.dnf.empty()) {
    s << Datablock("dnf", p.dnf);
    clauses.push_back(std::string("$dnf using 1:2 with points pt 9 ps 1.4 lc rgb ") + kDnfColour +
                      " title 'DNF'");
    clauses.push_back(std::string("$dnf using 1:2:('DNF') with labels offset 0,1 tc rgb ") +
                      kDnfColour + " notitle");
  }
  s << "set xtics (" << JoinWith(tics, ", ") << ")\n"
    << "set xrange [-0.6:" << GnuplotNumber(static_cast<double>(p.clusters.size()) - 0.4) << "]\n"
    << "set key outside right top\n"
    << "set grid ytics\n"
    << "set ylabel " << GnuplotString(name + " (s)") << "\n";
  if (p.clusters.size() > 4) s << "set xtics rotate by -25\n";
  if (p.hi > 0 && std::isfinite(p.lo) && p.hi / p.lo > 30) {
    s << "set logscale y\n";
  } else {
    s << "set yrange [0:*]\n";
  }
  s << "plot " << JoinWith(clauses, ", ") << "\n";
  return s.str();
}

void AddTimePlots(const std::vector<Measurement>& measurements,
                  const std::vector<std::string>& order, std::vector<Plot>* plots) {
  std::vector<std::string> metric_names;
  for (const Measurement& m : measurements) {
    if (m.metric.headline && m.metric.unit == "s" && m.metric.mean != MeanKind::kHarmonic) {
      AppendUnique(&metric_names, m.metric.name);
    }
  }
  for (const std::string& name : metric_names) {
    const TimePoints points = TimePointsOf(measurements, order, name);
    Plot plot;
    plot.kind = "times";
    plot.title = name + " (s) per repetition";
    if (!points.dnf.empty()) plot.title += "; red: did not finish (DNF), drawn where it was cut";
    if (!points.failed.empty()) {
      plot.note =
          "Failed (no time): " + JoinWith({points.failed.begin(), points.failed.end()}, ", ") + ".";
    }
    if (!points.ok.empty() || !points.dnf.empty()) {
      plot.script = TimePlotScript(points, name);
      plot.width =
          static_cast<int>(std::clamp<size_t>(200 + points.clusters.size() * 160, 640, 1280));
    }
    plots->push_back(plot);
  }
}

void AddLatencyPlots(const std::vector<LatencyGroup>& groups, std::vector<Plot>* plots) {
  for (const LatencyGroup& g : groups) {
    Plot plot;
    plot.kind = "latency-cdf";
    plot.title = SectionRowLabel(g.section, g.subject) +
                 ": latency of every call, histograms merged over repetitions; left the CDF, "
                 "right the tail (fraction of calls slower, log scale)";
    plot.width = 960;
    std::ostringstream s;
    std::vector<std::string> cdf;
    std::vector<std::string> tail;
    for (size_t k = 0; k < g.by_configuration.size(); ++k) {
      const LatencyHistogram& h = g.by_configuration[k].second;
      std::vector<std::string> lines;
      uint64_t seen = 0;
      const double total = static_cast<double>(h.count());
      h.ForEachNonEmptyBucket([&](uint64_t value_ns, uint64_t count) {
        seen += count;
        const double ms = static_cast<double>(std::max<uint64_t>(value_ns, 1)) / 1e6;
        const double slower = (total - static_cast<double>(seen)) / total;
        lines.push_back(GnuplotNumber(ms) + " " + GnuplotNumber(static_cast<double>(seen) / total) +
                        " " + (slower > 0 ? GnuplotNumber(slower) : "NaN"));
      });
      const std::string block = "cdf" + std::to_string(k);
      s << Datablock(block, lines);
      const std::string style = " with steps lw 1.5 lc " + std::to_string(k + 1) + " title " +
                                GnuplotString(g.by_configuration[k].first);
      cdf.push_back("$" + block + " using 1:2" + style);
      tail.push_back("$" + block + " using 1:3" + style);
    }
    s << "set multiplot layout 1,2\n"
      << "set logscale x\n"
      << "set format x '%g'\n"
      << "set xlabel 'latency (ms), log scale'\n"
      << "set grid\n"
      << "set ylabel 'fraction of calls at or below'\n"
      << "set yrange [0:1.02]\n"
      << "set key right bottom\n"
      << "plot " << JoinWith(cdf, ", ") << "\n"
      << "set logscale y\n"
      << "set format y '%g'\n"
      << "set ylabel 'fraction of calls slower'\n"
      << "set yrange [*:1]\n"
      << "set key right top\n"
      << "plot " << JoinWith(tail, ", ") << "\n"
      << "unset multiplot\n";
    plot.script = s.str();
    plots->push_back(plot);
  }
}

void AddStreamPlots(const std::vector<StreamRun>& runs, std::vector<Plot>* plots) {
  std::vector<std::string> sections;
  for (const StreamRun& r : runs) AppendUnique(&sections, r.section);
  for (const std::string& section : sections) {
    std::vector<const StreamRun*> panels;
    double y_max = 0;
    double x_max = 0;
    for (const StreamRun& r : runs) {
      if (r.section != section) continue;
      panels.push_back(&r);
      for (const StreamResult& st : r.streams) {
        for (double v : st.throughput_kib_s) y_max = std::max(y_max, v / 1024);
        x_max = std::max(x_max, static_cast<double>(st.throughput_kib_s.size()) *
                                    st.throughput_interval_ms / 1000.0);
      }
    }
    const size_t cols = std::min<size_t>(panels.size(), 3);
    const size_t rows = (panels.size() + cols - 1) / cols;
    Plot plot;
    plot.kind = "stream-throughput";
    plot.title = section +
                 ": throughput of each stream over time (MB/s per interval of fio's bandwidth "
                 "log), first repetition of each configuration";
    plot.width = 960;
    plot.height = static_cast<int>(60 + rows * 250);
    std::ostringstream s;
    for (size_t p = 0; p < panels.size(); ++p) {
      for (size_t k = 0; k < panels[p]->streams.size(); ++k) {
        const StreamResult& st = panels[p]->streams[k];
        std::vector<std::string> lines;
        for (size_t i = 0; i < st.throughput_kib_s.size(); ++i) {
          const double t = static_cast<double>((i + 1) * st.throughput_interval_ms) / 1000.0;
          lines.push_back(GnuplotNumber(t) + " " + GnuplotNumber(st.throughput_kib_s[i] / 1024));
        }
        s << Datablock("s" + std::to_string(p) + "_" + std::to_string(k), lines);
      }
    }
    s << "set multiplot layout " << rows << "," << cols << "\n"
      << "set xrange [0:" << GnuplotNumber(x_max > 0 ? x_max : 1) << "]\n"
      << "set yrange [0:" << GnuplotNumber(y_max > 0 ? y_max * 1.08 : 1) << "]\n"
      << "set xlabel 'time (s)'\n"
      << "set ylabel 'MB/s'\n"
      << "set key top right\n"
      << "set grid\n";
    for (size_t p = 0; p < panels.size(); ++p) {
      std::string panel_title = panels[p]->identifier;
      if (panels[p]->repetition != 0) {
        panel_title += " (repetition " + std::to_string(panels[p]->repetition) + ")";
      }
      std::vector<std::string> clauses;
      for (size_t k = 0; k < panels[p]->streams.size(); ++k) {
        clauses.push_back("$s" + std::to_string(p) + "_" + std::to_string(k) +
                          " using 1:2 with lines lw 1.5 lc " + std::to_string(k + 1) + " title " +
                          GnuplotString(panels[p]->streams[k].name));
      }
      s << "set title " << GnuplotString(panel_title) << "\n"
        << "plot " << JoinWith(clauses, ", ") << "\n";
    }
    s << "unset multiplot\n";
    plot.script = s.str();
    plots->push_back(plot);
  }
}

}  // namespace

std::vector<Plot> PlotsOf(const NamedResults& file) {
  const std::vector<MetricRow> rows = MetricRowsFrom(file.doc, file.measurements);
  std::vector<Plot> plots;
  AddThroughputPlots(rows, &plots);
  AddTimePlots(file.measurements, IdentifierOrder(file.doc), &plots);
  AddLatencyPlots(file.plots.latency_groups, &plots);
  AddStreamPlots(file.plots.stream_runs, &plots);
  AddRequestTracePlots(file.plots.trace_groups, &plots);
  return plots;
}

void DrawPlots(std::vector<Plot>* plots, const std::string& id_prefix,
               const GnuplotOptions& options) {
  for (size_t i = 0; i < plots->size(); ++i) {
    Plot& plot = (*plots)[i];
    plot.svg.clear();
    plot.error.clear();
    if (plot.script.empty()) {
      plot.error = "nothing to draw";
      continue;
    }
    std::string svg;
    if (!RunGnuplotSvg(plot.script, plot.width, plot.height, options, &svg, &plot.error)) {
      continue;
    }
    plot.svg = InlineSvg(svg, id_prefix + std::to_string(i) + "-", plot.title);
    if (plot.svg.empty()) plot.error = "gnuplot's SVG has no <svg> element";
  }
}

}  // namespace elevbench
