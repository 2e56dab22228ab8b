#pragma once
// The string helpers every layer needs: case, trimming, splitting, joining and formatting. One
// definition each, so that a list parsed by `compare` and one parsed by sysfs trim the same way.

#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// `s` with every ASCII letter in lower case (configuration labels compare case-insensitively).
std::string Lowercase(std::string s);

/// `s` with every ASCII letter in upper case (table labels: "DL", "BFQ-LL0").
std::string Uppercase(std::string s);

/// `s` without leading and trailing white space (isspace: blanks, tabs, newlines); sysfs values
/// end in "\n", scheduler lines in " \n".
std::string TrimWhitespace(std::string_view s);

/// The pieces of `text` between the separators, each trimmed; "a, b,,c" gives "a", "b", "", "c"
/// and an empty text one empty piece, so a caller can refuse empty items by name.
std::vector<std::string> SplitAndTrim(std::string_view text, char separator);

/// The white-space separated words of `text`, none of them empty.
std::vector<std::string> SplitWords(std::string_view text);

/// snprintf of one double: `format` holds exactly one double conversion ("%.2f MB", "%g"), and
/// the text is cut at 63 bytes. One definition for the reporters' number-with-unit phrases.
std::string FormatDouble(const char* format, double value);

/// The items with `separator` between them; "" for no items.
std::string JoinWith(const std::vector<std::string>& items, std::string_view separator);

}  // namespace elevbench
