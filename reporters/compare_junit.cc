#include "reporters/compare_junit.h"

#include <cstdio>

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

}  // namespace

std::string RenderCompareJunit(const Comparison& c) {
  const VerdictCounts counts = c.Counts();
  const std::string tests = std::to_string(c.rows.size());
  const std::string failures = std::to_string(counts.regressions);
  const std::string skipped = std::to_string(counts.not_comparable);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + Attr("name", "elevbench compare") + Attr("tests", tests) +
         Attr("failures", failures) + Attr("errors", "0") + Attr("skipped", skipped) + ">\n";
  out += "  <testsuite" + Attr("name", c.suite) + Attr("tests", tests) +
         Attr("failures", failures) + Attr("errors", "0") + Attr("skipped", skipped) + ">\n";
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
    if (r.verdict == Verdict::kRegression) {
      const std::string message = r.metric.name + " " + FormatChange(r) + " (" +
                                  DirectionName(r.metric.direction) + " is better; p " +
                                  FormatPValue(r) + ", alpha " + Number(c.alpha) + ", threshold " +
                                  Number(c.threshold_pct) + "%)";
      out += "      <failure" + Attr("type", "regression") + Attr("message", message) + ">" +
             MarkupEscape(Details(r)) + "</failure>\n";
    } else if (r.verdict == Verdict::kNotComparable) {
      out += "      <skipped" + Attr("message", r.note) + "/>\n";
    }
    out += "      <system-out>" +
           MarkupEscape(VerdictName(r.verdict) + std::string(": ") + Details(r)) +
           "</system-out>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace elevbench
