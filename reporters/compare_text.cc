#include "reporters/compare_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "harness/core/strings.h"

namespace elevbench {
namespace {

// Columns on the terminal: UTF-8 continuation bytes take none ("±" is one column).
size_t DisplayWidth(const std::string& s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string PadRight(const std::string& s, size_t width) {
  const size_t w = DisplayWidth(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string PadLeft(const std::string& s, size_t width) {
  const size_t w = DisplayWidth(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Upper case when the row fails the gate: REGRESSION, FAILED, MISSING, INCONCLUSIVE.
std::string VerdictText(const ComparisonRow& row) {
  if (row.gate) {
    switch (*row.gate) {
      case GateRule::kFailed:
        return "FAILED";
      case GateRule::kMissing:
        return "MISSING";
      case GateRule::kInconclusive:
        return "INCONCLUSIVE";
      default:
        break;
    }
  }
  switch (row.verdict) {
    case Verdict::kRegression:
      return "REGRESSION";
    case Verdict::kNotComparable:
      return "-";
    default:
      return VerdictName(row.verdict);
  }
}

// "gate: fails on regression, failed, inconclusive beyond 5% the bad way, missing, parameters"
// and what --allow relaxed. The inconclusive rule says which inconclusive rows it fails on (#45:
// "fails on … inconclusive" above 8 inconclusive improvements, then "gate: pass").
std::string GateRulesText(const Comparison& c) {
  std::string text = "gate: fails on regression";
  std::string allowed;
  for (GateRule rule :
       {GateRule::kFailed, GateRule::kInconclusive, GateRule::kMissing, GateRule::kParameters}) {
    const bool relaxed = std::find(c.allowed.begin(), c.allowed.end(), rule) != c.allowed.end();
    std::string name = GateRuleName(rule);
    if (rule == GateRule::kInconclusive && !relaxed) {
      name += " beyond " + FormatDouble("%g", c.threshold_pct) + "% the bad way";
    }
    (relaxed ? allowed : text) += ", " + name;
  }
  return text + (allowed.empty() ? "" : " (allowed: " + allowed.substr(2) + ")") + "\n";
}

}  // namespace

// A row that fails the gate as FAILED is counted as failed, not under its verdict (#45: 4 FAILED
// rows were "4 inconclusive").
size_t CompareCountShown(const Comparison& c, Verdict verdict) {
  return static_cast<size_t>(std::count_if(
      c.rows.begin(), c.rows.end(),
      [&](const ComparisonRow& r) { return r.verdict == verdict && r.gate != GateRule::kFailed; }));
}

size_t CompareFailedRows(const Comparison& c) {
  return static_cast<size_t>(
      std::count_if(c.rows.begin(), c.rows.end(),
                    [](const ComparisonRow& r) { return r.gate == GateRule::kFailed; }));
}

std::string FormatCompareValue(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  const double a = std::fabs(value);
  if (a >= 1000) return FormatDouble("%.0f", value);
  if (a >= 100) return FormatDouble("%.1f", value);
  if (a >= 10) return FormatDouble("%.2f", value);
  if (a >= 1 || a == 0) return FormatDouble("%.3f", value);
  return FormatDouble("%.4g", value);
}

std::string FormatCompareSide(const SampleSummary& summary, bool present) {
  if (!present) return "-";
  if (summary.n == 0) return "no values";
  std::string text = FormatCompareValue(summary.mean);
  if (summary.has_spread) {
    const double half = (summary.ci_high - summary.ci_low) / 2;
    if (std::isinf(half)) {
      return text + " n=" + std::to_string(summary.n) + " (no interval)";  // never "±inf%"
    } else if (IntervalNeedsEnds(summary)) {  // "±" would reach below 0: the ends
      const std::string low = summary.ci_low == 0 ? "0" : FormatCompareValue(summary.ci_low);
      text += " (" + low + " – " + FormatCompareValue(summary.ci_high) + ")";
    } else if (summary.mean != 0) {
      text += " ±" + FormatDouble("%.1f", half / std::fabs(summary.mean) * 100) + "%";
    } else {
      text += " ±" + FormatCompareValue(half);
    }
  }
  return text + " n=" + std::to_string(summary.n);
}

std::string FormatChange(const ComparisonRow& row) {
  if (!row.has_change) return "-";
  if (std::isinf(row.change_pct)) return row.change_pct > 0 ? "+inf%" : "-inf%";
  return FormatDouble("%+.2f", row.change_pct) + "%";
}

std::string FormatPValue(const ComparisonRow& row) {
  if (!row.has_p_value) return "-";
  if (row.p_value < 0.001) return "<0.001";
  return FormatDouble("%.3f", row.p_value);
}

std::string CompareMark(const ComparisonRow& row) {
  switch (row.significance) {
    case Significance::kSignificant:
      return "*";
    case Significance::kSingleValue:
      return "n=1";
    case Significance::kTooFewValues:
      return "few";
    default:
      return "";
  }
}

std::string CompareConfigurationText(const ComparisonRow& row) {
  if (row.presence == Presence::kOnlyNew) return row.new_config.identifier;
  if (row.presence == Presence::kOnlyBase) return row.base_config.identifier;
  if (row.base_config.identifier == row.new_config.identifier) return row.base_config.identifier;
  return row.base_config.identifier + " -> " + row.new_config.identifier;
}

std::string RenderCompareText(const Comparison& c) {
  std::string out;
  const std::string alpha = FormatDouble("%g", c.alpha);
  const std::string threshold = FormatDouble("%g", c.threshold_pct) + "%";
  out += "elevbench compare: " + c.suite + "\n";
  out += "base: " + c.base_name + "\n";
  out += "new:  " + c.new_name + "\n";
  out += "test: " + c.test + ", alpha " + alpha + "\n";
  if (c.no_significance) {
    out += "regression: a change beyond " + threshold +
           " in the metric's bad direction (--no-significance: the test does not decide)\n";
  } else {
    out += "regression: p < " + alpha + " and a change beyond " + threshold +
           " in the metric's bad direction\n";
  }
  out += GateRulesText(c);
  for (const ConfigurationPair& p : c.pairs) {
    if (p.rule == MatchRule::kIdentifier) continue;
    out += "paired: " + p.base.identifier + " (base) with " + p.next.identifier + " (new), " +
           (p.rule == MatchRule::kBetween ? std::string("--between")
                                          : std::string("same ") + MatchRuleName(p.rule)) +
           "\n";
  }
  for (const ConfigurationRef& u : c.unpaired_base) {
    out += "only in base: " + u.identifier + "\n";
  }
  for (const ConfigurationRef& u : c.unpaired_new) out += "only in new: " + u.identifier + "\n";
  for (const std::string& note : c.notes) out += "note: " + note + "\n";
  out += "\n";

  constexpr size_t kColumns = 11;
  using Line = std::array<std::string, kColumns>;
  // Right-aligned: the numbers' columns.
  constexpr std::array<bool, kColumns> kRight = {false, false, false, false, false, false,
                                                 true,  true,  false, false, false};
  std::vector<Line> lines;
  lines.push_back({"Section", "Row", "Configuration", "Metric", "Base", "New", "Change", "p",
                   "Mark", "Verdict", "Note"});
  for (const ComparisonRow& r : c.rows) {
    lines.push_back({r.section, r.row.empty() ? "-" : r.row, CompareConfigurationText(r),
                     r.metric.name, FormatCompareSide(r.base, r.presence != Presence::kOnlyNew),
                     FormatCompareSide(r.next, r.presence != Presence::kOnlyBase), FormatChange(r),
                     FormatPValue(r), CompareMark(r), VerdictText(r), r.note});
  }
  std::array<size_t, kColumns> width{};
  for (const Line& line : lines) {
    for (size_t i = 0; i < kColumns; ++i) width[i] = std::max(width[i], DisplayWidth(line[i]));
  }
  auto emit = [&](const Line& line) {
    std::string text;
    for (size_t i = 0; i < kColumns; ++i) {
      if (i > 0) text += "  ";
      text += kRight[i] ? PadLeft(line[i], width[i]) : PadRight(line[i], width[i]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  emit(lines.front());
  Line rule;
  for (size_t i = 0; i < kColumns; ++i) rule[i] = std::string(width[i], '-');
  emit(rule);
  for (size_t i = 1; i < lines.size(); ++i) emit(lines[i]);

  out += "\n";
  out += "*: p < " + alpha +
         "   n=1: one value on a side, no test possible   few: too few values " + "for p < " +
         alpha + "   UPPER CASE: fails the gate\n";
  out += Plural(CompareCountShown(c, Verdict::kRegression), "regression", "regressions") + ", " +
         Plural(CompareCountShown(c, Verdict::kImprovement), "improvement", "improvements") + ", " +
         std::to_string(CompareCountShown(c, Verdict::kChanged)) + " changed, " +
         std::to_string(CompareCountShown(c, Verdict::kInconclusive)) + " inconclusive, " +
         std::to_string(CompareCountShown(c, Verdict::kUnchanged)) + " unchanged, " +
         std::to_string(CompareCountShown(c, Verdict::kNotComparable)) + " not comparable, " +
         std::to_string(CompareFailedRows(c)) + " failed\n";
  return out + GateSummary(c) + "\n";
}

}  // namespace elevbench
