#include "reporters/compare_junit.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "reporters/compare_text.h"
#include "reporters/markup_escape.h"

namespace elevbench {
namespace {

std::string Attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + MarkupEscape(value) + "\"";
}

std::string Number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

// "base 47.75 ±0.4% n=5; new 42.98 ±0.5% n=5; change -9.99%; p 0.008 *"
std::string Details(const ComparisonRow& r) {
  std::string text = "base " + FormatCompareSide(r.base, r.presence != Presence::kOnlyNew) +
                     "; new " + FormatCompareSide(r.next, r.presence != Presence::kOnlyBase) +
                     "; change " + FormatChange(r) + "; p " + FormatPValue(r);
  const std::string mark = CompareMark(r);
  if (!mark.empty()) text += " " + mark;
  if (!r.note.empty()) text += "; " + r.note;
  return text;
}

std::string TestcaseName(const ComparisonRow& r) {
  std::string name = r.row.empty() ? "" : r.row + " ";
  return name + CompareConfigurationText(r) + " " + r.metric.name;
}

// A row that fails the gate as "regressed" (a <failure>) rather than "could not judge".
bool IsFailure(GateRule rule) { return rule == GateRule::kRegression || rule == GateRule::kFailed; }

// The <failure>, <error> or <skipped> element of a row; "" for a row that passes.
std::string Outcome(const Comparison& c, const ComparisonRow& r) {
  if (r.gate && *r.gate == GateRule::kRegression) {
    const std::string message = r.metric.name + " " + FormatChange(r) + " (" +
                                DirectionName(r.metric.direction) + " is better; p " +
                                FormatPValue(r) + ", alpha " + Number(c.alpha) + ", threshold " +
                                Number(c.threshold_pct) + "%)";
    return "      <failure" + Attr("type", "regression") + Attr("message", message) + ">" +
           MarkupEscape(Details(r)) + "</failure>\n";
  }
  if (r.gate) {
    const std::string element = IsFailure(*r.gate) ? "failure" : "error";
    const std::string message = r.note.empty() ? VerdictName(r.verdict) : r.note;
    return "      <" + element + Attr("type", GateRuleName(*r.gate)) + Attr("message", message) +
           ">" + MarkupEscape(Details(r)) + "</" + element + ">\n";
  }
  if (r.verdict == Verdict::kNotComparable)
    return "      <skipped" + Attr("message", r.note) + "/>\n";
  return "";
}

}  // namespace

std::string RenderCompareJunit(const Comparison& c) {
  size_t failures_n = 0, errors_n = 0, skipped_n = 0;
  for (const ComparisonRow& r : c.rows) {
    if (r.gate) {
      ++(IsFailure(*r.gate) ? failures_n : errors_n);
    } else if (r.verdict == Verdict::kNotComparable) {
      ++skipped_n;
    }
  }
  std::vector<const GateFinding*> parameters;
  for (const GateFinding& f : c.findings) {
    if (f.rule == GateRule::kParameters) parameters.push_back(&f);
  }
  errors_n += parameters.size();
  const std::string tests = std::to_string(c.rows.size() + parameters.size());
  const std::string failures = std::to_string(failures_n);
  const std::string errors = std::to_string(errors_n);
  const std::string skipped = std::to_string(skipped_n);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + Attr("name", "elevbench compare") + Attr("tests", tests) +
         Attr("failures", failures) + Attr("errors", errors) + Attr("skipped", skipped) + ">\n";
  out += "  <testsuite" + Attr("name", c.suite) + Attr("tests", tests) +
         Attr("failures", failures) + Attr("errors", errors) + Attr("skipped", skipped) + ">\n";
  out += "    <properties>\n";
  const std::pair<const char*, std::string> properties[] = {
      {"test", c.test},
      {"alpha", Number(c.alpha)},
      {"threshold_pct", Number(c.threshold_pct)},
      {"no_significance", c.no_significance ? "true" : "false"},
      {"base", c.base_name},
      {"new", c.new_name},
  };
  for (const auto& [name, value] : properties) {
    out += "      <property" + Attr("name", name) + Attr("value", value) + "/>\n";
  }
  out += "    </properties>\n";
  for (const ComparisonRow& r : c.rows) {
    out += "    <testcase" + Attr("classname", r.suite + "." + r.section) +
           Attr("name", TestcaseName(r)) + ">\n";
    out += Outcome(c, r);
    out += "      <system-out>" +
           MarkupEscape(VerdictName(r.verdict) + std::string(": ") + Details(r)) +
           "</system-out>\n";
    out += "    </testcase>\n";
  }
  for (const GateFinding* f : parameters) {
    const auto note = std::find_if(c.notes.begin(), c.notes.end(), [&](const std::string& n) {
      return n.rfind("parameter " + f->what + " ", 0) == 0;
    });
    const std::string message = note == c.notes.end() ? "parameter " + f->what + " differs" : *note;
    out += "    <testcase" + Attr("classname", c.suite + ".parameters") + Attr("name", f->what) +
           ">\n      <error" + Attr("type", "parameters") + Attr("message", message) + "/>\n" +
           "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace elevbench
