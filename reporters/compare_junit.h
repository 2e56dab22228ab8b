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

/// The whole JUnit XML document, ending in a newline.
std::string RenderCompareJunit(const Comparison& comparison);

}  // namespace elevbench
