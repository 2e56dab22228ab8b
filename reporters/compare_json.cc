#include "reporters/compare_json.h"

#include <algorithm>
#include <cmath>

#include "reporters/compare_text.h"

namespace elevbench {
namespace {

// The summary's key of a verdict's count: VerdictName's word with a space made an underscore,
// the nouns made plural ("regressions", "changed", "not_comparable").
std::string VerdictCountKey(Verdict verdict) {
  std::string key = VerdictName(verdict);
  std::replace(key.begin(), key.end(), ' ', '_');
  return verdict == Verdict::kImprovement || verdict == Verdict::kRegression ? key + "s" : key;
}

// JSON has no infinity: an unbounded interval end is null.
nlohmann::json Finite(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json ConfigJson(const ConfigurationRef& c) {
  return {{"identifier", c.identifier}, {"label", c.label}, {"scheduler", c.scheduler}};
}

nlohmann::json SideJson(const ConfigurationRef& config, const std::vector<double>& values,
                        uint32_t not_measured, const SampleSummary& s) {
  nlohmann::json j = ConfigJson(config);
  j["values"] = values;
  j["not_measured"] = not_measured;
  j["n"] = s.n;
  if (s.n == 0) return j;
  j["mean"] = s.mean;
  j["stddev"] = s.has_spread ? nlohmann::json(s.stddev) : nlohmann::json(nullptr);
  j["cov"] = s.has_spread ? nlohmann::json(s.cov) : nlohmann::json(nullptr);
  j["ci_low"] = s.has_spread ? Finite(s.ci_low) : nlohmann::json(nullptr);
  j["ci_high"] = s.has_spread ? Finite(s.ci_high) : nlohmann::json(nullptr);
  j["min"] = s.min;
  j["max"] = s.max;
  return j;
}

}  // namespace

nlohmann::json CompareToJson(const Comparison& c) {
  nlohmann::json j;
  j["test"] = c.test;
  j["alpha"] = c.alpha;
  j["threshold_pct"] = c.threshold_pct;
  j["no_significance"] = c.no_significance;
  j["suite"] = c.suite;
  j["base"] = c.base_name;
  j["new"] = c.new_name;
  j["pairs"] = nlohmann::json::array();
  for (const ConfigurationPair& p : c.pairs) {
    j["pairs"].push_back({{"base", ConfigJson(p.base)},
                          {"new", ConfigJson(p.next)},
                          {"rule", MatchRuleName(p.rule)}});
  }
  j["only_in_base"] = nlohmann::json::array();
  for (const ConfigurationRef& u : c.unpaired_base) j["only_in_base"].push_back(u.identifier);
  j["only_in_new"] = nlohmann::json::array();
  for (const ConfigurationRef& u : c.unpaired_new) j["only_in_new"].push_back(u.identifier);
  j["notes"] = c.notes;
  j["counts"] = nlohmann::json::object();
  // As the text footer counts them (#45: `failed` was missing, its rows under their verdicts).
  for (const Verdict v : {Verdict::kRegression, Verdict::kImprovement, Verdict::kChanged,
                          Verdict::kInconclusive, Verdict::kUnchanged, Verdict::kNotComparable}) {
    j["counts"][VerdictCountKey(v)] = CompareCountShown(c, v);
  }
  j["counts"]["failed"] = CompareFailedRows(c);
  j["gate"] = {{"outcome", GateOutcomeName(c.Outcome())},
               {"summary", GateSummary(c)},
               {"allowed", nlohmann::json::array()},
               {"findings", nlohmann::json::array()}};
  for (GateRule rule : c.allowed) j["gate"]["allowed"].push_back(GateRuleName(rule));
  for (const GateFinding& f : c.findings) {
    j["gate"]["findings"].push_back({{"rule", GateRuleName(f.rule)}, {"what", f.what}});
  }
  j["rows"] = nlohmann::json::array();
  for (const ComparisonRow& r : c.rows) {
    nlohmann::json row = {
        {"suite", r.suite},
        {"section", r.section},
        {"row", r.row},
        {"metric", r.metric.name},
        {"unit", SpelledUnit(r.metric.unit)},
        {"direction", DirectionName(r.metric.direction)},
        {"mean", MeanKindName(r.metric.mean)},
        {"presence", PresenceName(r.presence)},
        {"significance", SignificanceName(r.significance)},
        {"verdict", VerdictName(r.verdict)},
        {"gate", r.gate ? nlohmann::json(GateRuleName(*r.gate)) : nlohmann::json(nullptr)},
        {"exact", r.exact},
        {"note", r.note}};
    row["base"] = r.presence == Presence::kOnlyNew
                      ? nlohmann::json(nullptr)
                      : SideJson(r.base_config, r.base_values, r.base_not_measured, r.base);
    row["new"] = r.presence == Presence::kOnlyBase
                     ? nlohmann::json(nullptr)
                     : SideJson(r.new_config, r.new_values, r.new_not_measured, r.next);
    row["change_pct"] = r.has_change ? Finite(r.change_pct) : nlohmann::json(nullptr);
    if (r.has_change && std::isinf(r.change_pct))
      row["change_infinite"] = r.change_pct > 0 ? 1 : -1;
    row["p_value"] = r.has_p_value ? nlohmann::json(r.p_value) : nlohmann::json(nullptr);
    j["rows"].push_back(std::move(row));
  }
  return j;
}

}  // namespace elevbench
