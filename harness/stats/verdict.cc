#include "harness/stats/verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "harness/stats/metric_table.h"
#include "harness/stats/trace_measurements.h"

namespace elevbench {
namespace {

using VerdictRowKey = std::tuple<std::string, std::string, std::string>;  // section, row, metric

VerdictConfiguration ConfigurationOfRow(const ResultsDocument& doc, const MetricRow& r,
                                        const DnfCounts& dnf, const VerdictSettings& s) {
  VerdictConfiguration c;
  c.identifier = r.identifier;
  const bool by_label = !s.name_by_identifier && !doc.labels.empty() && !r.label.empty();
  c.name = by_label ? r.label : r.identifier;
  c.n = r.summary.n;
  c.mean = r.summary.mean;
  c.dnf = DnfCountOf(dnf, r);
  c.failed = r.not_measured - c.dnf;
  return c;
}

// Whether `a` is better than `b` in `direction` (both have values).
bool VerdictAhead(const VerdictConfiguration& a, const VerdictConfiguration& b,
                  Direction direction) {
  return direction == Direction::kLowerIsBetter ? a.mean < b.mean : a.mean > b.mean;
}

// best/other (higher is better) or other/best (lower is better); 1 for two zeros.
double VerdictRatio(double best, double other, Direction direction) {
  const double num = direction == Direction::kLowerIsBetter ? other : best;
  const double den = direction == Direction::kLowerIsBetter ? best : other;
  if (den == 0) return num == 0 ? 1 : std::numeric_limits<double>::infinity();
  return num / den;
}

}  // namespace

DnfCounts DnfCountsOf(const std::vector<Measurement>& measurements) {
  DnfCounts counts;
  for (const Measurement& m : measurements) {
    if (m.status == "dnf") ++counts[{{m.section, m.row, m.metric.name}, m.identifier}];
  }
  return counts;
}

uint32_t DnfCountOf(const DnfCounts& counts, const MetricRow& row) {
  const auto it = counts.find({{row.section, row.row, row.metric.name}, row.identifier});
  return it == counts.end() ? 0 : std::min(it->second, row.not_measured);
}

VerdictVersus CompareWithBest(const VerdictConfiguration& best,
                              const std::vector<double>& best_values,
                              const VerdictConfiguration& other,
                              const std::vector<double>& other_values, Direction direction,
                              const VerdictSettings& s) {
  VerdictVersus v;
  v.other = other;
  if (other.n == 0) {
    v.kind = VerdictKind::kNotMeasured;
    return v;
  }
  v.ratio = VerdictRatio(best.mean, other.mean, direction);
  if (best.n >= s.min_values_tested && other.n >= s.min_values_tested) {
    v.tested = true;
    v.p_value = MannWhitneyU(best_values, other_values).p_value;
  }
  const bool beyond = (v.ratio - 1) * 100 > s.threshold_pct;
  std::vector<double> mine = best_values;
  std::vector<double> theirs = other_values;
  std::sort(mine.begin(), mine.end());
  std::sort(theirs.begin(), theirs.end());
  v.identical = mine == theirs;
  if (v.identical) {  // the same numbers: no difference, whether a test could be made or not
    v.kind = VerdictKind::kNoDifference;
  } else if (!v.tested) {
    v.kind = VerdictKind::kUntested;
  } else if (v.p_value >= s.alpha) {
    v.kind = VerdictKind::kNoDifference;
  } else {
    v.kind = beyond ? VerdictKind::kBetter : VerdictKind::kWithinThreshold;
  }
  return v;
}

namespace {

// The line of one headline row group (one MetricRow per configuration, in table order).
VerdictLine LineOf(const ResultsDocument& doc, const std::vector<const MetricRow*>& group,
                   const DnfCounts& dnf, const VerdictSettings& s) {
  const MetricRow& first = *group.front();
  VerdictLine line;
  line.suite = first.suite;
  line.section = first.section;
  line.row = first.row;
  line.metric = first.metric;
  std::vector<VerdictConfiguration> configs;
  int best = -1;
  for (const MetricRow* r : group) {
    configs.push_back(ConfigurationOfRow(doc, *r, dnf, s));
    const VerdictConfiguration& c = configs.back();
    if (c.n > 0 &&
        (best < 0 || VerdictAhead(c, configs[static_cast<size_t>(best)], first.metric.direction))) {
      best = static_cast<int>(configs.size() - 1);
    }
  }
  if (best < 0 || first.metric.direction == Direction::kNeither) {
    line.configurations = std::move(configs);
    return line;
  }
  const size_t b = static_cast<size_t>(best);
  line.has_best = true;
  line.best = configs[b];
  for (size_t i = 0; i < group.size(); ++i) {
    if (i != b)
      line.others.push_back(CompareWithBest(line.best, group[b]->values, configs[i],
                                            group[i]->values, first.metric.direction, s));
  }
  return line;
}

// The runner-up: the best of the others with a value; null when none has one.
const VerdictConfiguration* RunnerUp(const VerdictLine& line) {
  const VerdictConfiguration* runner = nullptr;
  for (const VerdictVersus& v : line.others) {
    if (v.other.n > 0 &&
        (runner == nullptr || VerdictAhead(v.other, *runner, line.metric.direction))) {
      runner = &v.other;
    }
  }
  return runner;
}

// The accounts of the traced cells of one configuration that measured the line's row.
std::vector<const TraceDirections*> AccountsOf(const std::vector<TracedCell>& cells,
                                               const VerdictLine& line,
                                               const std::string& identifier, std::string* phase) {
  std::vector<const TraceDirections*> accounts;
  for (const TracedCell& t : cells) {
    if (t.cell->identifier != identifier ||
        !VariantNamesRow(t.cell->variant, line.suite, line.section, line.row)) {
      continue;
    }
    std::string cell_phase;
    accounts.push_back(&TraceAccountOf(*t.trace, line.section, line.row, &cell_phase));
    if (phase->empty()) *phase = cell_phase;
  }
  return accounts;
}

// Means over the accounts with requests in `direction` of their dispatch run and seek share;
// false when none has such requests.
bool MeanDispatchAndSeeks(const std::vector<const TraceDirections*>& accounts,
                          const std::string& direction, double* run, double* seeks) {
  double run_sum = 0, seek_sum = 0;
  size_t n = 0;
  for (const TraceDirections* a : accounts) {
    const TraceDirection& d = a->Of(direction);
    if (d.requests == 0) continue;
    run_sum += d.mean_dispatch_run;
    seek_sum += d.seek_share;
    ++n;
  }
  if (n == 0) return false;
  *run = run_sum / static_cast<double>(n);
  *seeks = seek_sum / static_cast<double>(n);
  return true;
}

void AddEvidence(const std::vector<TracedCell>& cells, VerdictLine* line) {
  const VerdictConfiguration* runner = RunnerUp(*line);
  if (runner == nullptr) return;
  VerdictEvidence e;
  const std::vector<const TraceDirections*> best =
      AccountsOf(cells, *line, line->best.identifier, &e.phase);
  const std::vector<const TraceDirections*> second =
      AccountsOf(cells, *line, runner->identifier, &e.phase);
  uint64_t reads = 0, writes = 0;
  for (const auto* accounts : {&best, &second}) {
    for (const TraceDirections* a : *accounts) {
      reads += a->read.requests;
      writes += a->write.requests;
    }
  }
  e.direction = writes > reads ? "write" : "read";
  e.runner_up = runner->name;
  e.present =
      MeanDispatchAndSeeks(best, e.direction, &e.best_dispatch_run, &e.best_seek_share) &&
      MeanDispatchAndSeeks(second, e.direction, &e.runner_up_dispatch_run, &e.runner_up_seek_share);
  if (e.present) line->evidence = std::move(e);
}

}  // namespace

std::vector<std::string> KernelsOfRows(const std::vector<MetricRow>& rows) {
  std::vector<std::string> kernels;
  for (const MetricRow& r : rows) {
    if (!r.kernel.empty() && std::find(kernels.begin(), kernels.end(), r.kernel) == kernels.end()) {
      kernels.push_back(r.kernel);
    }
  }
  return kernels.size() >= 2 ? kernels : std::vector<std::string>{};
}

std::string ConfigurationAcrossKernels(const MetricRow& row) {
  if (!row.configuration_label.empty()) return row.configuration_label;
  return row.label.empty() ? row.identifier : row.label;
}

namespace {

// One headline row's rows in the kernels' groups: per kernel, then per configuration, each
// group with two or more rows, in order of first appearance.
std::vector<std::pair<std::string, std::vector<const MetricRow*>>> KernelGroupsOf(
    const std::vector<const MetricRow*>& rows) {
  std::vector<std::pair<std::string, std::vector<const MetricRow*>>> by_kernel, by_config;
  const auto add = [](auto* groups, const std::string& name, const MetricRow* r) {
    for (auto& g : *groups) {
      if (g.first == name) return g.second.push_back(r);
    }
    groups->push_back({name, {r}});
  };
  for (const MetricRow* r : rows) {
    if (r->kernel.empty()) continue;  // a row of no kernel under test (none in a --kernels run)
    add(&by_kernel, r->kernel, r);
    add(&by_config, ConfigurationAcrossKernels(*r) + " across kernels", r);
  }
  std::vector<std::pair<std::string, std::vector<const MetricRow*>>> out;
  for (auto* groups : {&by_kernel, &by_config}) {
    for (auto& g : *groups) {
      if (g.second.size() >= 2) out.push_back(std::move(g));
    }
  }
  return out;
}

}  // namespace

VerdictBlock ComputeVerdict(const ResultsDocument& doc,
                            const std::vector<Measurement>& measurements,
                            const VerdictSettings& settings) {
  const std::vector<TracedCell> cells = TracedCellsOf(doc);
  const std::vector<MetricRow> rows = MetricRowsFrom(doc, measurements);
  const DnfCounts dnf = DnfCountsOf(measurements);
  // Headline rows grouped by section × row × metric, groups in order of first appearance.
  std::vector<VerdictRowKey> order;
  std::map<VerdictRowKey, std::vector<const MetricRow*>> groups;
  for (const MetricRow& r : rows) {
    if (!r.metric.headline) continue;
    const VerdictRowKey key{r.section, r.row, r.metric.name};
    auto [it, added] = groups.try_emplace(key);
    if (added) order.push_back(key);
    it->second.push_back(&r);
  }
  VerdictBlock block;
  block.suite = doc.suite;
  block.settings = settings;
  const auto cautions = doc.parameters.find("verdict_cautions");
  if (cautions != doc.parameters.end() && cautions->is_array()) {
    for (const nlohmann::json& c : *cautions) {
      if (c.is_string()) block.cautions.push_back(c.get<std::string>());
    }
  }
  const bool several_kernels = !KernelsOfRows(rows).empty();
  for (const VerdictRowKey& key : order) {
    std::vector<std::pair<std::string, std::vector<const MetricRow*>>> lines;
    if (several_kernels) lines = KernelGroupsOf(groups.at(key));
    if (lines.empty()) lines.push_back({"", groups.at(key)});
    for (const auto& [group, rows_of_line] : lines) {
      VerdictLine line = LineOf(doc, rows_of_line, dnf, settings);
      line.group = group;
      if (line.has_best && !cells.empty()) AddEvidence(cells, &line);
      block.lines.push_back(std::move(line));
    }
  }
  return block;
}

}  // namespace elevbench
