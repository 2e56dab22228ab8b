#pragma once
// `elevbench compare --format junit`: the verdicts as JUnit XML for CI dashboards (Jenkins,
// GitLab, GitHub test reporters). One <testsuite> named after the suite; one <testcase> per
// compared row (classname "<suite>.<section>", name "<row> <configuration> <metric>"). A row
// that fails the gate as "regressed" gets a <failure type="regression|failed">, one the gate
// could not judge an <error type="inconclusive|missing">, and each differing suite parameter
// is a testcase "<suite>.parameters" with an <error type="parameters">; a row that could not
// be compared and fails no rule is <skipped>. Every row's <system-out> carries base, new, change
// and p. The header facts (test, alpha, threshold, files) are <properties>.

#include <string>

#include "harness/compare/compare.h"

namespace elevbench {

/// The whole JUnit XML document, ending in a newline.
std::string RenderCompareJunit(const Comparison& comparison);

}  // namespace elevbench
