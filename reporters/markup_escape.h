#pragma once
// Escaping text for markup: one function for the HTML report and the JUnit XML, so both treat
// quotes, apostrophes and control characters alike.

#include <string>

namespace elevbench {

/// `text` made safe as XML 1.0 and HTML5 element content or a double- or single-quoted
/// attribute value: & < > " ' become entities, tab, newline and carriage return become
/// character references (kept in attributes), other control characters, which XML 1.0 cannot
/// hold at all, become '?'.
std::string MarkupEscape(const std::string& text);

}  // namespace elevbench
