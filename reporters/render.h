#pragma once
// Rendering a results document in any format: "json" for every suite, otherwise the suite's own
// text formats (its renderer in the table of suites).

#include <string>

#include "harness/run/results.h"

namespace elevbench {

/// Renders `doc` as `format` into *text. An empty format is the suite's default. err (one line)
/// for an unknown suite, a format the suite does not print, or records its renderer rejects.
[[nodiscard]] bool RenderResults(const ResultsDocument& doc, const std::string& format,
                                 std::string* text, std::string* err);

/// The formats `suite` can be rendered in, "json" last; empty for an unknown suite.
std::string FormatChoices(const std::string& suite);

}  // namespace elevbench
