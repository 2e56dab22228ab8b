#include "harness/stats/protection.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "harness/stats/metric_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using SectionKey = std::pair<std::string, std::string>;  // section, row

bool IsBaselineControl(const std::string& control) { return control.empty() || control == "none"; }

// The rows of one section: its protected program's rows and its load's, by identifier.
struct SectionRows {
  std::vector<const MetricRow*> protected_rows;
  std::map<std::string, const MetricRow*> load_by_identifier;
  MetricInfo load_metric;
};

std::vector<std::pair<SectionKey, SectionRows>> SectionsOf(const std::vector<MetricRow>& rows) {
  std::vector<std::pair<SectionKey, SectionRows>> sections;
  const auto find = [&](const SectionKey& key) -> SectionRows& {
    for (auto& s : sections) {
      if (s.first == key) return s.second;
    }
    sections.push_back({key, {}});
    return sections.back().second;
  };
  for (const MetricRow& r : rows) {
    const bool is_protected =
        r.metric.protected_measure ||
        (r.metric.headline && r.metric.direction == Direction::kLowerIsBetter);
    if (!is_protected && !r.metric.load_throughput) continue;
    SectionRows& s = find({r.section, r.row});
    if (r.metric.load_throughput) {
      s.load_by_identifier[r.identifier] = &r;
      s.load_metric = r.metric;
    } else if (s.protected_rows.empty() || s.protected_rows.front()->metric.name == r.metric.name) {
      s.protected_rows.push_back(&r);
    }
  }
  return sections;
}

ProtectionChange ChangeOf(const std::vector<double>& row, const std::vector<double>& baseline,
                          const MetricInfo& metric, const VerdictSettings& settings) {
  ProtectionChange change;
  if (row.empty() || baseline.empty()) return change;
  const Direction direction = metric.direction;
  const MeanKind kind = metric.mean;
  const double row_mean = Summarize(row, kind).mean;
  const double base_mean = Summarize(baseline, kind).mean;
  change.change_pct = base_mean == 0 ? 0 : (row_mean - base_mean) / base_mean * 100;
  VerdictConfiguration a, b;
  a.n = row.size();
  a.mean = row_mean;
  b.n = baseline.size();
  b.mean = base_mean;
  const bool row_ahead =
      direction == Direction::kLowerIsBetter ? row_mean <= base_mean : row_mean >= base_mean;
  const VerdictVersus v = row_ahead ? CompareWithBest(a, row, b, baseline, direction, settings)
                                    : CompareWithBest(b, baseline, a, row, direction, settings);
  change.kind = v.kind;
  change.tested = v.tested;
  change.p_value = v.p_value;
  return change;
}

// A row's name as the verdict gives it: its label when the document has labels.
std::string NameOf(const ResultsDocument& doc, const MetricRow& r, const VerdictSettings& s) {
  const bool by_label = !s.name_by_identifier && !doc.labels.empty() && !r.label.empty();
  return by_label ? r.label : r.identifier;
}

ProtectionRow RowOf(const ResultsDocument& doc, const MetricRow& r, const MetricRow* load,
                    const DnfCounts& dnf, const VerdictSettings& s) {
  ProtectionRow row;
  row.name = NameOf(doc, r, s);
  row.identifier = r.identifier;
  row.control = r.control.empty() ? "none" : r.control;
  row.n = r.values.size();
  row.mean = r.summary.mean;
  row.p50 = PercentileOf(r.values, 50);
  row.tail = PercentileOf(r.values, r.metric.direction == Direction::kHigherIsBetter ? 1 : 99);
  row.dnf = DnfCountOf(dnf, r);
  row.failed = r.not_measured - row.dnf;
  if (load != nullptr) {
    row.load_n = load->values.size();
    row.load_mean = load->summary.mean;
  }
  return row;
}

// The row without a control of the same scheduler whose identifier the controlled one extends
// ("6.18.44-dl" for "6.18.44-dl-idle"; ControlledIdentifier's rule).
const MetricRow* BaselineOf(const MetricRow& r, const std::vector<const MetricRow*>& rows) {
  const MetricRow* best = nullptr;
  for (const MetricRow* b : rows) {
    if (!IsBaselineControl(b->control) || b->scheduler != r.scheduler || b->kernel != r.kernel) {
      continue;
    }
    const std::string prefix = b->identifier + "-";
    if (r.identifier.compare(0, prefix.size(), prefix) != 0) continue;
    if (best == nullptr || b->identifier.size() > best->identifier.size()) best = b;
  }
  return best;
}

VerdictConfiguration ConfigurationOf(const ProtectionRow& row, size_t n, double mean) {
  VerdictConfiguration c;
  c.name = row.name;
  c.n = n;
  c.mean = mean;
  return c;
}

// The best protection (the best mean in the protected metric's direction) and the least cost:
// of the rows the U test cannot tell from the best, the one whose load kept the most, where that
// is more than the best's load by the verdict's rules (a test, beyond the threshold); else the
// best itself.
void ChooseBest(const std::vector<const MetricRow*>& rows,
                const std::vector<const MetricRow*>& loads, const VerdictSettings& s,
                ProtectionTable* table) {
  const Direction direction = table->protected_metric.direction == Direction::kHigherIsBetter
                                  ? Direction::kHigherIsBetter
                                  : Direction::kLowerIsBetter;
  const auto ahead = [&](double a, double b) {
    return direction == Direction::kHigherIsBetter ? a > b : a < b;
  };
  int best = -1;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]->values.empty()) continue;
    if (best < 0 || ahead(table->rows[i].mean, table->rows[static_cast<size_t>(best)].mean)) {
      best = static_cast<int>(i);
    }
  }
  if (best < 0) return;
  const size_t b = static_cast<size_t>(best);
  const ProtectionRow& top = table->rows[b];
  table->has_best = true;
  table->best = top.name;
  size_t cheapest = b;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ProtectionRow& row = table->rows[i];
    if (i == b || rows[i]->values.empty() || loads[i] == nullptr || loads[b] == nullptr) continue;
    const VerdictVersus time =
        CompareWithBest(ConfigurationOf(top, top.n, top.mean), rows[b]->values,
                        ConfigurationOf(row, row.n, row.mean), rows[i]->values, direction, s);
    const bool as_good =
        time.kind == VerdictKind::kNoDifference || time.kind == VerdictKind::kWithinThreshold;
    const ProtectionRow& cheap = table->rows[cheapest];
    const VerdictVersus load =
        CompareWithBest(ConfigurationOf(row, row.load_n, row.load_mean), loads[i]->values,
                        ConfigurationOf(cheap, cheap.load_n, cheap.load_mean),
                        loads[cheapest]->values, Direction::kHigherIsBetter, s);
    if (as_good && row.load_mean > cheap.load_mean && load.kind == VerdictKind::kBetter) {
      cheapest = i;
      table->least_cost_vs_best = time;
    }
  }
  table->least_cost = table->rows[cheapest].name;
}

ProtectionTable TableOf(const ResultsDocument& doc, const SectionKey& key, const SectionRows& s,
                        const std::vector<const MetricRow*>& rows, const DnfCounts& dnf,
                        const VerdictSettings& settings) {
  ProtectionTable table;
  table.suite = rows.front()->suite;
  table.section = key.first;
  table.row = key.second;
  table.protected_metric = rows.front()->metric;
  table.tail_percentile = table.protected_metric.direction == Direction::kHigherIsBetter ? 1 : 99;
  table.load_metric = s.load_metric;
  std::vector<const MetricRow*> loads;
  for (const MetricRow* r : rows) {
    const auto load_it = s.load_by_identifier.find(r->identifier);
    const MetricRow* load = load_it == s.load_by_identifier.end() ? nullptr : load_it->second;
    loads.push_back(load);
    ProtectionRow row = RowOf(doc, *r, load, dnf, settings);
    const MetricRow* base = IsBaselineControl(r->control) ? nullptr : BaselineOf(*r, rows);
    if (base != nullptr) {
      row.has_baseline = true;
      row.baseline = NameOf(doc, *base, settings);
      row.protection = ChangeOf(r->values, base->values, r->metric, settings);
      const auto base_load = s.load_by_identifier.find(base->identifier);
      if (load != nullptr && base_load != s.load_by_identifier.end()) {
        row.cost = ChangeOf(load->values, base_load->second->values, load->metric, settings);
      }
    }
    table.rows.push_back(std::move(row));
  }
  ChooseBest(rows, loads, settings, &table);
  return table;
}

// The section's protected rows per kernel (one group "" with one kernel).
std::vector<std::pair<std::string, std::vector<const MetricRow*>>> GroupsOf(
    bool several_kernels, const std::vector<const MetricRow*>& rows) {
  std::vector<std::pair<std::string, std::vector<const MetricRow*>>> groups;
  for (const MetricRow* r : rows) {
    const std::string kernel = several_kernels ? r->kernel : "";  // the row's "kernel" field
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == kernel; });
    if (it == groups.end()) it = groups.insert(groups.end(), {kernel, {}});
    it->second.push_back(r);
  }
  return groups;
}

}  // namespace

double PercentileOf(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::clamp(p, 0.0, 100.0) / 100 * static_cast<double>(values.size() - 1);
  const size_t low = static_cast<size_t>(std::floor(rank));
  const size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

std::vector<ProtectionTable> ComputeProtection(const ResultsDocument& doc,
                                               const std::vector<Measurement>& measurements,
                                               const VerdictSettings& settings) {
  std::vector<ProtectionTable> tables;
  const bool controlled =
      std::any_of(measurements.begin(), measurements.end(),
                  [](const Measurement& m) { return !IsBaselineControl(m.control); });
  if (!controlled) return tables;
  const std::vector<MetricRow> rows = MetricRowsFrom(doc, measurements);
  const bool several_kernels = !KernelsOfRows(rows).empty();
  const DnfCounts dnf = DnfCountsOf(measurements);
  for (const auto& [key, section] : SectionsOf(rows)) {
    if (section.protected_rows.empty() || section.load_by_identifier.empty()) continue;
    for (const auto& [group, group_rows] : GroupsOf(several_kernels, section.protected_rows)) {
      const bool any_control =
          std::any_of(group_rows.begin(), group_rows.end(),
                      [](const MetricRow* r) { return !IsBaselineControl(r->control); });
      if (!any_control) continue;
      ProtectionTable table = TableOf(doc, key, section, group_rows, dnf, settings);
      table.group = group;
      tables.push_back(std::move(table));
    }
  }
  return tables;
}

}  // namespace elevbench
