#include "reporters/verdict_text.h"

#include <algorithm>
#include <cmath>

#include "harness/core/strings.h"
#include "reporters/report_tables.h"

namespace elevbench {
namespace {

// "1.87×", "12.3×", "140×", "∞×"; a ratio above 1 that two decimals would round to "1.00×"
// gets the decimals that show it, "1.003×", "1.0004×" (#45: "KY best, 1.00× NONE" read as a tie).
std::string RatioText(double ratio) {
  if (!std::isfinite(ratio)) return "∞×";
  if (ratio > 1 && ratio < 1.005) {
    for (const char* format : {"%.3f×", "%.4f×"}) {
      const std::string text = FormatDouble(format, ratio);
      if (text.find_first_not_of("1.0") < text.find("×")) return text;
    }
    return FormatDouble("%.4f×", ratio);
  }
  if (ratio < 10) return FormatDouble("%.2f×", ratio);
  return FormatDouble(ratio < 100 ? "%.1f×" : "%.0f×", ratio);
}

// Two significant digits without an exponent: "41", "1.1", "0.53", "3"; "<0.01" below that.
std::string ShortNumber(double value) {
  if (value == 0) return "0";
  if (std::fabs(value) < 0.01) return "<0.01";
  return FormatDouble(std::fabs(value) >= 10 ? "%.0f" : "%.2g", value);
}

// "n=5" when both sides have as many values, else "n=5/4" (the best's first).
std::string NText(size_t best, size_t other) {
  return "n=" + std::to_string(best) + (best == other ? "" : "/" + std::to_string(other));
}

// Why a configuration has no value: "DNF", "failed", "DNF/failed", "not measured".
std::string MissingText(const VerdictConfiguration& c) {
  if (c.dnf > 0) return c.failed > 0 ? "DNF/failed" : "DNF";
  return c.failed > 0 ? "failed" : "not measured";
}

// ", 2 DNF" / ", 1 failed" for a configuration with values and repetitions without.
std::string PartialText(const VerdictConfiguration& c) {
  std::string text;
  if (c.dnf > 0) text += ", " + std::to_string(c.dnf) + " DNF";
  if (c.failed > 0) text += ", " + std::to_string(c.failed) + " failed";
  return text;
}

// "1 of 3 repetitions": of how many repetitions a configuration's number is.
std::string OfRepetitionsText(const VerdictConfiguration& c) {
  return std::to_string(c.n) + " of " + std::to_string(c.n + c.dnf + c.failed) + " repetitions";
}

std::string MeanText(const VerdictConfiguration& c, const MetricInfo& metric) {
  return ReportNumber(c.mean) + (metric.unit.empty() ? "" : " " + metric.unit);
}

// "1.03×, p=0.008, n=5": what a "no difference" says of one other configuration; "identical
// values, n=1" when both sides had the same numbers.
std::string NoDifferenceDetail(const VerdictLine& line, const VerdictVersus& v) {
  if (v.identical) {
    return "identical values, " + NText(line.best.n, v.other.n) + PartialText(v.other);
  }
  return RatioText(v.ratio) + ", " + (v.tested ? PText(v.p_value) + ", " : std::string()) +
         NText(line.best.n, v.other.n) + PartialText(v.other);
}

// Every other configuration is no different from the best: "no difference between AS and DL
// (1.03×, p=0.008, n=5)", with three or more "between AS, DL (…) and CF (…)".
std::string AllAlikeText(const VerdictLine& line, const std::string& best_name) {
  std::string text = "no difference between " + best_name;
  for (size_t i = 0; i < line.others.size(); ++i) {
    const VerdictVersus& v = line.others[i];
    text += (i + 1 == line.others.size() ? " and " : ", ") + v.other.name + " (" +
            NoDifferenceDetail(line, v) + ")";
  }
  return text;
}

std::string VersusText(const VerdictBlock& block, const VerdictLine& line, const VerdictVersus& v) {
  const std::string& name = v.other.name;
  const std::string n = NText(line.best.n, v.other.n) + PartialText(v.other);
  const std::string untested = ": not tested, --repetitions " +
                               std::to_string(block.settings.min_values_tested) + " or more";
  switch (v.kind) {
    case VerdictKind::kBetter:
      return RatioText(v.ratio) + " " + name + " (" + PText(v.p_value) + ", " + n + ")";
    case VerdictKind::kUntested:
      return RatioText(v.ratio) + " " + name + " (" + n + untested + ")";
    case VerdictKind::kWithinThreshold:
      return RatioText(v.ratio) + " " + name + " (" + PText(v.p_value) + ", " + n +
             ": within the " + FormatDouble("%g", block.settings.threshold_pct) + " % threshold)";
    case VerdictKind::kNoDifference:
      return name + " no difference (" + NoDifferenceDetail(line, v) + ")";
    case VerdictKind::kNotMeasured:
      break;
  }
  return name + " " + MissingText(v.other) + " (no value)";
}

// The untested others together, after the rest of the line: "1.02× AS, 1.10× CF (n=1: not
// tested, --repetitions 4 or more)", the note said once for the line, not once per
// configuration; with different counts each says its own n: "1.02× AS (n=1), 1.10× CF
// (n=1/2) (not tested, --repetitions 4 or more)". "" when every other one was tested.
std::string UntestedGroupText(const VerdictBlock& block, const VerdictLine& line) {
  const auto counts = [&](const VerdictVersus& v) {
    return NText(line.best.n, v.other.n) + PartialText(v.other);
  };
  std::vector<const VerdictVersus*> untested;
  for (const VerdictVersus& v : line.others) {
    if (v.kind == VerdictKind::kUntested) untested.push_back(&v);
  }
  if (untested.empty()) return "";
  const bool same = std::all_of(untested.begin(), untested.end(), [&](const VerdictVersus* v) {
    return counts(*v) == counts(*untested.front());
  });
  std::string text;
  for (const VerdictVersus* v : untested) {
    text +=
        ", " + RatioText(v->ratio) + " " + v->other.name + (same ? "" : " (" + counts(*v) + ")");
  }
  return text + " (" + (same ? counts(*untested.front()) + ": " : std::string()) +
         "not tested, --repetitions " + std::to_string(block.settings.min_values_tested) +
         " or more)";
}

std::string EvidenceText(const VerdictLine& line) {
  const VerdictEvidence& e = line.evidence;
  if (!e.present) return "";
  std::string text = " — " + e.direction + " dispatch run " + ShortNumber(e.best_dispatch_run) +
                     " vs " + ShortNumber(e.runner_up_dispatch_run) + "; seeks " +
                     ShortNumber(e.best_seek_share * 100) + " % vs " +
                     ShortNumber(e.runner_up_seek_share * 100) + " %";
  if (line.others.size() > 1) text += " (vs " + e.runner_up + ")";
  return text;
}

// An other configuration that is no meaningful difference from the best: no difference, within
// the threshold, or untested and within 0.5 % (a ratio RatioText prints as "1.00×").
bool NotMeaningful(const VerdictVersus& v) {
  return v.kind == VerdictKind::kNoDifference || v.kind == VerdictKind::kWithinThreshold ||
         (v.kind == VerdictKind::kUntested && (v.ratio - 1) * 100 < 0.5);
}

// What one such configuration's comparison says: "p=0.004, n=5: within the 5 % threshold",
// "n=1: not tested, --repetitions 4 or more", "p=0.310, n=5: no difference".
std::string NotMeaningfulDetail(const VerdictBlock& block, const VerdictLine& line,
                                const VerdictVersus& v) {
  const std::string n = NText(line.best.n, v.other.n) + PartialText(v.other);
  switch (v.kind) {
    case VerdictKind::kWithinThreshold:
      return PText(v.p_value) + ", " + n + ": within the " +
             FormatDouble("%g", block.settings.threshold_pct) + " % threshold";
    case VerdictKind::kUntested:
      return n + ": not tested, --repetitions " + std::to_string(block.settings.min_values_tested) +
             " or more";
    default:
      if (v.identical) return "identical values, " + n;
      return (v.tested ? PText(v.p_value) + ", " : std::string()) + n + ": no difference";
  }
}

// The configurations and their details, those with the same detail together, in order of first
// appearance: "KY: identical values, n=2; NONE and BFQ: n=2: not tested, …".
std::string GroupedDetails(const std::vector<std::string>& names,
                           const std::vector<std::string>& details) {
  std::vector<std::string> distinct;
  for (const std::string& d : details) {
    if (std::find(distinct.begin(), distinct.end(), d) == distinct.end()) distinct.push_back(d);
  }
  std::vector<std::string> parts;
  for (const std::string& d : distinct) {
    std::vector<std::string> with;
    for (size_t i = 0; i < details.size(); ++i) {
      if (details[i] == d) with.push_back(names[i]);
    }
    const std::string last = with.back();
    with.pop_back();
    parts.push_back((with.empty() ? last : JoinWith(with, ", ") + " and " + last) + ": " + d);
  }
  return JoinWith(parts, "; ");
}

// Every other configuration within the threshold (or untested within 0.5 %) of the best, some
// not "no difference": "DL and AS within 0.1 % (p=0.004, n=5: within the 5 % threshold)", with
// each one's detail named when they differ ("(KY: …; NONE and BFQ: …)"). Not "DL best, 1.00×
// AS": a best and a ratio of 1.00 read as a contradiction (issue 45).
std::string WithinText(const VerdictBlock& block, const VerdictLine& line,
                       const std::string& best_name) {
  std::vector<std::string> names{best_name};
  std::vector<std::string> others;
  std::vector<std::string> details;
  double spread = 0;
  for (const VerdictVersus& v : line.others) {
    names.push_back(v.other.name);
    others.push_back(v.other.name);
    details.push_back(NotMeaningfulDetail(block, line, v));
    if (std::isfinite(v.ratio)) spread = std::max(spread, (v.ratio - 1) * 100);
  }
  const std::string last = names.back();
  names.pop_back();
  const double shown = std::max(0.1, std::ceil(spread * 10) / 10);
  std::string text =
      JoinWith(names, ", ") + " and " + last + " within " + FormatDouble("%.1f", shown) + " % (";
  const bool same = std::all_of(details.begin(), details.end(),
                                [&](const std::string& d) { return d == details.front(); });
  return text + (same ? details.front() : GroupedDetails(others, details)) + ")";
}

// A line without a best: a metric that only describes, or one no configuration measured.
std::string UnrankedText(const VerdictLine& line) {
  std::vector<std::string> items;
  bool any = false;
  for (const VerdictConfiguration& c : line.configurations) {
    any = any || c.n > 0;
    items.push_back(c.name + " " + (c.n > 0 ? MeanText(c, line.metric) : MissingText(c)));
  }
  if (!any) return "no configuration has a value (" + JoinWith(items, ", ") + ")";
  return "no better direction (" + JoinWith(items, ", ") + ")";
}

}  // namespace

std::string PText(double p) { return p < 0.001 ? "p<0.001" : FormatDouble("p=%.3f", p); }

std::string VerdictHeading(const VerdictBlock& block) {
  const VerdictSettings& s = block.settings;
  return "Verdict (headline rows; U test two-sided, p < " + FormatDouble("%g", s.alpha) + " with " +
         std::to_string(s.min_values_tested) + " or more values a side, threshold " +
         FormatDouble("%g", s.threshold_pct) + " %):";
}

std::string VerdictLineText(const VerdictBlock& block, const VerdictLine& line) {
  std::string what = line.suite != block.suite ? line.suite + " " : "";
  if (!line.group.empty()) what += "[" + line.group + "] ";
  what += line.section + (line.row.empty() ? "" : " " + line.row) + " " +
          MetricDisplayName(line.metric) + ": ";
  if (!line.has_best) return what + UnrankedText(line);
  const VerdictConfiguration& best = line.best;
  if (line.others.empty()) {
    return what + best.name + " " + MeanText(best, line.metric) + " (n=" + std::to_string(best.n) +
           PartialText(best) + "; the only configuration)";
  }
  // A best on part of its repetitions says on how many (#45: "bfq-ll0 best (2 failed)" read as
  // a best of three): "AS best on 2 of 3 repetitions (1 DNF)"; among others alike, "AS (2 of 3
  // repetitions, 1 DNF)".
  const std::string partial = PartialText(best);  // ", 1 DNF"
  const std::string best_note =
      partial.empty() ? "" : " (" + OfRepetitionsText(best) + partial + ")";
  const bool alike =
      std::all_of(line.others.begin(), line.others.end(),
                  [](const VerdictVersus& v) { return v.kind == VerdictKind::kNoDifference; });
  if (alike) return what + AllAlikeText(line, best.name + best_note) + EvidenceText(line);
  if (std::all_of(line.others.begin(), line.others.end(), NotMeaningful)) {
    return what + WithinText(block, line, best.name + best_note) + EvidenceText(line);
  }
  std::string text = what + best.name + " best";
  if (!partial.empty()) text += " on " + OfRepetitionsText(best) + " (" + partial.substr(2) + ")";
  for (const VerdictVersus& v : line.others) {
    if (v.kind != VerdictKind::kUntested) text += ", " + VersusText(block, line, v);
  }
  return text + UntestedGroupText(block, line) + EvidenceText(line);
}

std::string RenderVerdictText(const VerdictBlock& block) {
  std::string text = "\n" + VerdictHeading(block) + "\n";
  if (block.lines.empty()) text += "No headline metric was measured.\n";
  for (const VerdictLine& line : block.lines) text += VerdictLineText(block, line) + "\n";
  for (const std::string& caution : block.cautions) text += "Caution: " + caution + "\n";
  return text;
}

void VerdictSectionsOf(const std::vector<NamedResults>& files, std::string* heading,
                       std::vector<VerdictSection>* sections) {
  sections->clear();
  for (size_t i = 0; i < files.size(); ++i) {
    const NamedResults& file = files[i];
    VerdictSettings settings;  // md's and html's tables name configurations by identifier
    settings.name_by_identifier = true;
    const VerdictBlock block = ComputeVerdict(file.doc, file.measurements, settings);
    if (i == 0) *heading = VerdictHeading(block);
    VerdictSection section;
    if (files.size() > 1)
      section.title = file.doc.suite + (file.name.empty() ? "" : ": " + file.name);
    if (block.lines.empty()) section.lines.push_back("No headline metric was measured.");
    for (const VerdictLine& line : block.lines)
      section.lines.push_back(VerdictLineText(block, line));
    for (const std::string& caution : block.cautions)
      section.lines.push_back("Caution: " + caution);
    sections->push_back(std::move(section));
  }
}

}  // namespace elevbench
