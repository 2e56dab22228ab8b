// The gate of `elevbench compare` (docs/compare.md, "The gate"): which rows and parameters
// fail a CI job, which of those --allow relaxes, and the one line that says why.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/compare/compare.h"
#include "harness/core/strings.h"

namespace elevbench {
namespace {

constexpr GateRule kAllRules[] = {GateRule::kRegression, GateRule::kFailed, GateRule::kInconclusive,
                                  GateRule::kMissing, GateRule::kParameters};

bool Allowed(const std::vector<GateRule>& allowed, GateRule rule) {
  return std::find(allowed.begin(), allowed.end(), rule) != allowed.end();
}

std::string ChangeText(double change_pct) {
  if (std::isinf(change_pct)) return change_pct > 0 ? "+inf%" : "-inf%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", change_pct);
  return buf;
}

// "seq_read threads=1 6.18.44-dl rate_mb_s" (the base's identifier, or "base -> new").
std::string RowName(const ComparisonRow& r) {
  std::string config =
      r.presence == Presence::kOnlyNew ? r.new_config.identifier : r.base_config.identifier;
  if (r.presence == Presence::kBoth && r.base_config.identifier != r.new_config.identifier) {
    config += " -> " + r.new_config.identifier;
  }
  return r.section + (r.row.empty() ? "" : " " + r.row) + " " + config + " " + r.metric.name;
}

// An untested change beyond the threshold in the metric's bad direction.
bool InconclusiveBeyond(const ComparisonRow& r, double threshold_pct) {
  if (r.verdict != Verdict::kInconclusive || !(std::fabs(r.change_pct) > threshold_pct)) {
    return false;
  }
  if (r.metric.direction == Direction::kNeither) return false;
  const bool higher = r.change_pct > 0;
  return higher != (r.metric.direction == Direction::kHigherIsBetter);
}

// The rule a row breaks, if any, with what the one-line summary says of it.
std::optional<GateFinding> RowFinding(const ComparisonRow& r, double threshold_pct) {
  const std::string name = RowName(r);
  if (r.verdict == Verdict::kRegression) {
    return GateFinding{GateRule::kRegression, name + " " + ChangeText(r.change_pct)};
  }
  if (r.presence == Presence::kOnlyBase) return GateFinding{GateRule::kMissing, name};
  if (r.presence == Presence::kBoth && r.new_not_measured > r.base_not_measured) {
    return GateFinding{GateRule::kFailed, name + ": " + std::to_string(r.new_not_measured) +
                                              " failed/DNF in new, " +
                                              std::to_string(r.base_not_measured) + " in base"};
  }
  if (InconclusiveBeyond(r, threshold_pct)) {
    return GateFinding{GateRule::kInconclusive, name + " " + ChangeText(r.change_pct) +
                                                    ", n=" + std::to_string(r.base.n) + "/" +
                                                    std::to_string(r.next.n)};
  }
  return std::nullopt;
}

// "1 regression", "3 rows failed/DNF in new only", … for `count` findings of `rule`.
std::string RuleCountText(GateRule rule, size_t count, double threshold_pct) {
  const bool one = count == 1;
  std::string text = std::to_string(count) + " ";
  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%g%%", threshold_pct);
  switch (rule) {
    case GateRule::kRegression:
      return text + (one ? "regression" : "regressions");
    case GateRule::kFailed:
      return text + (one ? "row" : "rows") + " failed/DNF in new more often than in base";
    case GateRule::kInconclusive:
      return text + (one ? "untested change" : "untested changes") + " beyond " + threshold +
             " the bad way";
    case GateRule::kMissing:
      return text + (one ? "row" : "rows") + " only in base";
    case GateRule::kParameters:
      return text + (one ? "parameter differs" : "parameters differ");
  }
  return text;
}

}  // namespace

bool ParseAllow(const std::string& text, CompareSettings* settings, std::string* err) {
  settings->allowed.clear();
  for (const std::string& name : SplitAndTrim(text, ',')) {
    const auto* it = std::find_if(std::begin(kAllRules), std::end(kAllRules),
                                  [&](GateRule r) { return name == GateRuleName(r); });
    if (it == std::end(kAllRules) || *it == GateRule::kRegression) {
      *err = "--allow: expected failed, inconclusive, missing or parameters, got '" + name + "'" +
             (name == "regression" ? " (a regression cannot be allowed; raise --threshold)" : "");
      return false;
    }
    if (!Allowed(settings->allowed, *it)) settings->allowed.push_back(*it);
  }
  return true;
}

void ApplyGate(const CompareSettings& settings,
               const std::vector<std::string>& differing_parameters, Comparison* c) {
  c->allowed = settings.allowed;
  c->findings.clear();
  for (ComparisonRow& r : c->rows) {
    r.gate.reset();
    std::optional<GateFinding> f = RowFinding(r, settings.threshold_pct);
    if (!f || Allowed(settings.allowed, f->rule)) continue;
    r.gate = f->rule;
    c->findings.push_back(std::move(*f));
  }
  if (Allowed(settings.allowed, GateRule::kParameters)) return;
  for (const std::string& k : differing_parameters) {
    c->findings.push_back({GateRule::kParameters, k});
  }
}

GateOutcome Comparison::Outcome() const {
  GateOutcome outcome = GateOutcome::kPass;
  for (const GateFinding& f : findings) {
    if (f.rule == GateRule::kRegression || f.rule == GateRule::kFailed) {
      return GateOutcome::kRegressed;
    }
    outcome = GateOutcome::kUndecided;
  }
  return outcome;
}

std::string GateSummary(const Comparison& c) {
  const GateOutcome outcome = c.Outcome();
  if (outcome == GateOutcome::kPass) {
    return c.allowed.empty() ? "gate: pass" : "gate: pass (--allow relaxed some rules)";
  }
  std::vector<std::string> parts, relax;
  for (GateRule rule : kAllRules) {
    std::vector<const GateFinding*> of;
    for (const GateFinding& f : c.findings) {
      if (f.rule == rule) of.push_back(&f);
    }
    if (of.empty()) continue;
    std::string part = RuleCountText(rule, of.size(), c.threshold_pct) + " (" + of.front()->what;
    // Every parameter; the first three rows of a rule, then how many more.
    const size_t shown = rule == GateRule::kParameters ? of.size() : std::min<size_t>(3, of.size());
    for (size_t i = 1; i < shown; ++i) part += ", " + of[i]->what;
    if (shown < of.size()) part += ", and " + std::to_string(of.size() - shown) + " more";
    parts.push_back(part + ")");
    if (rule != GateRule::kRegression) relax.push_back(GateRuleName(rule));
  }
  std::string text =
      std::string("gate: ") + GateOutcomeName(outcome) + ": " + JoinWith(parts, "; ");
  if (!relax.empty()) text += "; --allow " + JoinWith(relax, ",") + " to accept";
  return text;
}

const char* GateRuleName(GateRule rule) {
  switch (rule) {
    case GateRule::kRegression:
      return "regression";
    case GateRule::kFailed:
      return "failed";
    case GateRule::kInconclusive:
      return "inconclusive";
    case GateRule::kMissing:
      return "missing";
    case GateRule::kParameters:
      return "parameters";
  }
  return "regression";
}

const char* GateOutcomeName(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass:
      return "pass";
    case GateOutcome::kRegressed:
      return "regressed";
    case GateOutcome::kUndecided:
      return "undecided";
  }
  return "pass";
}

}  // namespace elevbench
