#pragma once
// `elevbench compare --format junit`: the verdicts as JUnit XML for CI dashboards (Jenkins,
// GitLab, GitHub test reporters). One <testsuite> named after the suite; one <testcase> per
// compared row (classname "<suite>.<section>", name "<row> <configuration> <metric>"), with a
// <failure type="regression"> for each regression and <skipped> for a row that could not be
// compared; every testcase's <system-out> carries base, new, change and p. The header facts
// (test, alpha, threshold, files) are <properties>.

#include <string>

#include "harness/compare/compare.h"

namespace elevbench {

/// `text` escaped for XML 1.0 text and attribute values: & < > " ' as entities, and the
/// control characters XML 1.0 cannot carry at all (all below 0x20 but tab, newline and
/// carriage return) replaced by '?'. Tab, newline and carriage return become &#9; &#10; &#13;,
/// so a parser gives them back even from an attribute (where it would turn them into spaces).
std::string XmlEscape(const std::string& text);

/// The whole JUnit XML document, ending in a newline.
std::string RenderCompareJunit(const Comparison& comparison);

}  // namespace elevbench
