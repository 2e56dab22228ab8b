#include "harness/compare/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "harness/compare/compare_pairing.h"
#include "harness/core/strings.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

bool Selected(const MetricInfo& metric, const CompareSettings& settings) {
  switch (settings.metrics) {
    case MetricSelection::kHeadline:
      return metric.headline;
    case MetricSelection::kAll:
      return true;
    case MetricSelection::kNamed:
      return std::find(settings.metric_names.begin(), settings.metric_names.end(), metric.name) !=
             settings.metric_names.end();
  }
  return false;
}

std::string NotMeasuredText(uint32_t count) { return std::to_string(count) + " failed/DNF"; }

// The smallest p-value the test can give for samples of these sizes: that of two completely
// separated samples. At or above alpha, no outcome could be significant.
double SmallestPossibleP(size_t m, size_t n) {
  std::vector<double> low(m), high(n);
  std::iota(low.begin(), low.end(), 0.0);
  std::iota(high.begin(), high.end(), static_cast<double>(m));
  return MannWhitneyU(low, high).p_value;
}

// Fills the numbers and the verdict of a row present on both sides.
void Judge(const CompareSettings& settings, ComparisonRow* r) {
  const size_t m = r->base_values.size(), n = r->new_values.size();
  std::vector<std::string> notes;
  if (m == 0 || n == 0) {
    r->note.clear();  // the completeness notes would repeat what follows
    if (m == 0) {
      notes.push_back("no values in base (" + NotMeasuredText(r->base_not_measured) + ")");
    }
    if (n == 0) notes.push_back("no values in new (" + NotMeasuredText(r->new_not_measured) + ")");
    for (const std::string& note : notes) r->note += (r->note.empty() ? "" : "; ") + note;
    r->verdict = Verdict::kNotComparable;
    r->significance = Significance::kNotTested;
    return;
  }
  if (!r->note.empty()) notes.push_back(r->note);  // what RowFrom said about completeness
  r->note.clear();
  // The same numbers on both sides: no difference, whether a test could be made or not, as
  // report's verdict says (harness/stats/verdict.cc) — never "inconclusive" (issue 45).
  std::vector<double> base_sorted = r->base_values, new_sorted = r->new_values;
  std::sort(base_sorted.begin(), base_sorted.end());
  std::sort(new_sorted.begin(), new_sorted.end());
  const bool identical = base_sorted == new_sorted;

  const double base_mean = r->base.mean, new_mean = r->next.mean;
  r->has_change = true;
  if (base_mean != 0) {
    r->change_pct = (new_mean - base_mean) / std::fabs(base_mean) * 100;
  } else if (new_mean == 0) {
    r->change_pct = 0;
  } else {
    r->change_pct = std::copysign(std::numeric_limits<double>::infinity(), new_mean);
  }

  if (m < 2 || n < 2) {
    r->significance = Significance::kSingleValue;
  } else {
    const UTestResult u = MannWhitneyU(r->base_values, r->new_values);
    r->has_p_value = true;
    r->p_value = u.p_value;
    r->exact = u.exact;
    if (u.p_value < settings.alpha) {
      r->significance = Significance::kSignificant;
    } else if (SmallestPossibleP(m, n) >= settings.alpha) {
      r->significance = Significance::kTooFewValues;
      char text[64];
      std::snprintf(text, sizeof text, "too few values for p < %g", settings.alpha);
      notes.push_back(text);
    } else {
      r->significance = Significance::kNotSignificant;
    }
  }

  const bool beyond = std::fabs(r->change_pct) > settings.threshold_pct;
  const bool untestable = r->significance == Significance::kSingleValue ||
                          r->significance == Significance::kTooFewValues;
  const bool trusted = settings.no_significance || r->significance == Significance::kSignificant;
  if (identical) {
    r->verdict = Verdict::kUnchanged;
    notes.push_back("no difference (identical values)");
  } else if (untestable && !settings.no_significance) {
    r->verdict = Verdict::kInconclusive;  // no test could have found a change
  } else if (!beyond || !trusted) {
    r->verdict = Verdict::kUnchanged;
  } else if (r->metric.direction == Direction::kNeither) {
    r->verdict = Verdict::kChanged;
  } else {
    const bool higher = r->change_pct > 0;
    const bool good = higher == (r->metric.direction == Direction::kHigherIsBetter);
    r->verdict = good ? Verdict::kImprovement : Verdict::kRegression;
  }
  for (const std::string& note : notes) r->note += (r->note.empty() ? "" : "; ") + note;
}

// "base: 3 of 5 values (2 failed/DNF)" for a row with fewer values than asked, or with values
// not measured; "" for a complete row.
std::string CompletenessNote(const char* side, const MetricRow& r) {
  if (!r.incomplete() && r.not_measured == 0) return "";
  std::string note = std::string(side) + ": ";
  if (r.requested > 0) {
    note += std::to_string(r.values.size()) + " of " + std::to_string(r.requested) + " values";
  } else {
    note += std::to_string(r.values.size()) + " values";
  }
  if (r.not_measured > 0) note += " (" + NotMeasuredText(r.not_measured) + ")";
  return note;
}

ComparisonRow RowFrom(const MetricRow* base, const MetricRow* next) {
  const MetricRow& any = base != nullptr ? *base : *next;
  ComparisonRow r;
  r.suite = any.suite;
  r.section = any.section;
  r.row = any.row;
  r.metric = any.metric;
  if (base != nullptr) {
    r.base_config = {base->identifier, base->label, base->scheduler};
    r.base_values = base->values;
    r.base = base->summary;
    r.base_not_measured = base->not_measured;
    r.base_incomplete = base->incomplete();
  }
  if (next != nullptr) {
    r.new_config = {next->identifier, next->label, next->scheduler};
    r.new_values = next->values;
    r.next = next->summary;
    r.new_not_measured = next->not_measured;
    r.new_incomplete = next->incomplete();
  }
  if (base == nullptr) {
    r.presence = Presence::kOnlyNew;
    r.note = "only in new";
  } else if (next == nullptr) {
    r.presence = Presence::kOnlyBase;
    r.note = "only in base";
  } else {
    for (std::string note : {CompletenessNote("base", *base), CompletenessNote("new", *next)}) {
      if (!note.empty()) r.note += (r.note.empty() ? "" : "; ") + note;
    }
  }
  return r;
}

using RowKey = std::tuple<std::string, std::string, std::string, std::string>;

RowKey KeyOf(const MetricRow& r, const std::string& identifier) {
  return {r.section, r.row, r.metric.name, identifier};
}

// With --metrics naming metrics: every name must be a metric of either side.
bool CheckNamedMetricsExist(const std::vector<MetricRow>& base_rows,
                            const std::vector<MetricRow>& new_rows, const CompareSettings& settings,
                            const std::string& suite, std::string* err) {
  if (settings.metrics != MetricSelection::kNamed) return true;
  std::set<std::string> known;
  for (const auto* rows : {&base_rows, &new_rows}) {
    for (const MetricRow& r : *rows) known.insert(r.metric.name);
  }
  for (const std::string& name : settings.metric_names) {
    if (!known.count(name)) {
      *err = "--metrics: no metric '" + name + "' in " + (suite.empty() ? "these files" : suite) +
             " results (have: " + JoinOrNone({known.begin(), known.end()}) + ")";
      return false;
    }
  }
  return true;
}

// The selected rows of the paired configurations into c->rows: each base row with its partner
// (judged when both exist), then the new rows no base row took; without --between also the
// rows of unpaired configurations.
void MatchComparedRows(const std::vector<MetricRow>& base_rows,
                       const std::vector<MetricRow>& new_rows, const CompareSettings& settings,
                       bool between, Comparison* c) {
  std::map<std::string, std::string> new_partner;  // base identifier → new identifier
  std::set<std::string> in_scope_new;              // new identifiers whose rows are listed
  for (const ConfigurationPair& p : c->pairs) {
    new_partner[p.base.identifier] = p.next.identifier;
    in_scope_new.insert(p.next.identifier);
  }
  if (!between) {
    for (const ConfigurationRef& n : c->unpaired_new) in_scope_new.insert(n.identifier);
  }

  std::map<RowKey, const MetricRow*> new_index;
  for (const MetricRow& r : new_rows) new_index.emplace(KeyOf(r, r.identifier), &r);
  std::set<const MetricRow*> used;
  for (const MetricRow& b : base_rows) {
    if (!Selected(b.metric, settings)) continue;
    const auto partner = new_partner.find(b.identifier);
    if (partner == new_partner.end()) {
      if (!between) c->rows.push_back(RowFrom(&b, nullptr));
      continue;
    }
    const auto it = new_index.find(KeyOf(b, partner->second));
    const MetricRow* n = it == new_index.end() ? nullptr : it->second;
    if (n != nullptr) used.insert(n);
    ComparisonRow row = RowFrom(&b, n);
    if (n != nullptr) Judge(settings, &row);
    c->rows.push_back(std::move(row));
  }
  for (const MetricRow& n : new_rows) {
    if (!Selected(n.metric, settings) || used.count(&n) || !in_scope_new.count(n.identifier)) {
      continue;
    }
    c->rows.push_back(RowFrom(nullptr, &n));
  }
}

// Rows only in the new document join their section, after the base's rows of it.
void SortComparedRowsByFirstSeen(const std::vector<MetricRow>& base_rows,
                                 const std::vector<MetricRow>& new_rows, Comparison* c) {
  std::map<std::tuple<std::string, std::string, std::string>, size_t> key_order;
  for (const auto* rows : {&base_rows, &new_rows}) {
    for (const MetricRow& r : *rows) {
      key_order.emplace(std::make_tuple(r.section, r.row, r.metric.name), key_order.size());
    }
  }
  std::stable_sort(c->rows.begin(), c->rows.end(),
                   [&](const ComparisonRow& a, const ComparisonRow& b) {
                     return key_order.at({a.section, a.row, a.metric.name}) <
                            key_order.at({b.section, b.row, b.metric.name});
                   });
}

std::string NothingToCompareMessage(const std::vector<ConfigurationRef>& base_configs,
                                    const std::vector<ConfigurationRef>& new_configs,
                                    const CompareSettings& settings) {
  return "nothing to compare: no row of the base matches one of the new results (base " +
         JoinOrNone(IdentifiersOf(base_configs)) + "; new " +
         JoinOrNone(IdentifiersOf(new_configs)) +
         (settings.metrics == MetricSelection::kAll
              ? ""
              : "; metrics " + std::string(settings.metrics == MetricSelection::kHeadline
                                               ? "headline"
                                               : JoinOrNone(settings.metric_names))) +
         ")";
}

}  // namespace

size_t Comparison::CountOf(Verdict verdict) const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(),
                    [verdict](const ComparisonRow& r) { return r.verdict == verdict; }));
}

bool CompareMetricRows(const std::vector<MetricRow>& base_rows,
                       const std::vector<MetricRow>& new_rows, const CompareSettings& settings,
                       Comparison* out, std::string* err) {
  Comparison c;
  c.alpha = settings.alpha;
  c.threshold_pct = settings.threshold_pct;
  c.no_significance = settings.no_significance;
  c.suite = !base_rows.empty() ? base_rows.front().suite
                               : (!new_rows.empty() ? new_rows.front().suite : "");
  if (!CheckNamedMetricsExist(base_rows, new_rows, settings, c.suite, err)) return false;

  const std::vector<ConfigurationRef> base_configs = ConfigurationsOf(base_rows);
  const std::vector<ConfigurationRef> new_configs = ConfigurationsOf(new_rows);
  const bool between = !settings.between_base.empty() || !settings.between_new.empty();
  if (!PairComparedConfigurations(base_rows, new_rows, settings, base_configs, new_configs, between,
                                  &c, err)) {
    return false;
  }
  MatchComparedRows(base_rows, new_rows, settings, between, &c);
  SortComparedRowsByFirstSeen(base_rows, new_rows, &c);

  const bool any_matched = std::any_of(c.rows.begin(), c.rows.end(), [](const ComparisonRow& r) {
    return r.presence == Presence::kBoth;
  });
  if (!any_matched) {
    *err = NothingToCompareMessage(base_configs, new_configs, settings);
    return false;
  }
  ApplyGate(settings, {}, &c);
  *out = std::move(c);
  return true;
}

namespace {

// The rows of one side; err is prefixed with the side ("base: records[3]: …").
bool RowsOfSide(const ResultsDocument& doc, SuiteMeasurer measure, const char* side,
                std::vector<MetricRow>* rows, std::string* err) {
  std::vector<Measurement> measurements;
  std::string e;
  if (measure == nullptr) {
    e = "unknown suite '" + doc.suite + "'";
  } else if (measure(doc, &measurements, &e)) {
    *rows = MetricRowsFrom(doc, std::move(measurements));
    return true;
  }
  *err = std::string(side) + ": " + e;
  return false;
}

}  // namespace

bool CompareDocuments(const ResultsDocument& base, const ResultsDocument& next,
                      SuiteMeasurer measure, const CompareSettings& settings, Comparison* out,
                      std::string* err) {
  if (base.suite != next.suite) {
    *err = "different suites: the base is " + base.suite + ", the new results are " + next.suite;
    return false;
  }
  std::vector<MetricRow> base_rows, new_rows;
  const bool same = &base == &next;
  if (!RowsOfSide(base, measure, "base", &base_rows, err) ||
      (!same && !RowsOfSide(next, measure, "new", &new_rows, err))) {
    return false;
  }
  if (!CompareMetricRows(base_rows, same ? base_rows : new_rows, settings, out, err)) {
    return false;
  }
  // The document's suite, not its rows' (post-2003's rows are its parts': "probes").
  out->suite = base.suite;
  if (same || !base.parameters.is_object() || !next.parameters.is_object()) return true;
  // Parameters that differ change what was measured; a directory only says where.
  const nlohmann::json base_parameters = ParametersOfWhatWasMeasured(base.parameters);
  const nlohmann::json next_parameters = ParametersOfWhatWasMeasured(next.parameters);
  std::vector<std::string> differing;
  std::set<std::string> keys;
  for (const auto& [k, v] : base_parameters.items()) keys.insert(k);
  for (const auto& [k, v] : next_parameters.items()) keys.insert(k);
  for (const std::string& k : keys) {
    const auto b = base_parameters.find(k), n = next_parameters.find(k);
    const std::string bv = b == base_parameters.end() ? "(absent)" : b->dump();
    const std::string nv = n == next_parameters.end() ? "(absent)" : n->dump();
    if (bv == nv) continue;
    out->notes.push_back("parameter " + k + " differs: " + bv + " (base) vs " + nv + " (new)");
    differing.push_back(k);
  }
  ApplyGate(settings, differing, out);
  return true;
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kImprovement:
      return "improvement";
    case Verdict::kRegression:
      return "regression";
    case Verdict::kChanged:
      return "changed";
    case Verdict::kInconclusive:
      return "inconclusive";
    case Verdict::kUnchanged:
      return "unchanged";
    case Verdict::kNotComparable:
      return "not comparable";
  }
  return "not comparable";
}

const char* SignificanceName(Significance significance) {
  switch (significance) {
    case Significance::kSignificant:
      return "significant";
    case Significance::kNotSignificant:
      return "not significant";
    case Significance::kTooFewValues:
      return "too few values";
    case Significance::kSingleValue:
      return "n=1";
    case Significance::kNotTested:
      return "not tested";
  }
  return "not tested";
}

const char* MatchRuleName(MatchRule rule) {
  switch (rule) {
    case MatchRule::kIdentifier:
      return "identifier";
    case MatchRule::kLabel:
      return "label";
    case MatchRule::kScheduler:
      return "scheduler";
    case MatchRule::kBetween:
      return "between";
  }
  return "identifier";
}

const char* PresenceName(Presence presence) {
  switch (presence) {
    case Presence::kBoth:
      return "both";
    case Presence::kOnlyBase:
      return "only in base";
    case Presence::kOnlyNew:
      return "only in new";
  }
  return "both";
}

}  // namespace elevbench
