#pragma once
// The string helpers every layer needs: case, trimming, splitting, joining and formatting. One
// definition each, so that a list parsed by `compare` and one parsed by sysfs trim the same way.

#include <cstdint>
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

/// A timeout in words: whole minutes as "20 minutes" / "1 minute", anything else in seconds as
/// "90 seconds" / "1 second" / "2.5 seconds" (%g). Here, below the suites, because a suite's
/// measurer words a DNF's reason ("DNF after 20 minutes") as its text layout does.
std::string TimeoutWords(double seconds);

/// Bytes in words: "800 B" below 1 KiB, "512 KiB" (rounded) below 1 MiB, "190.3 MB" below
/// 1 GiB, else "1.25 GB" (MB = MiB and GB = GiB, as everywhere in elevbench's tables).
std::string BytesWords(uint64_t bytes);

/// The items with `separator` between them; "" for no items.
std::string JoinWith(const std::vector<std::string>& items, std::string_view separator);

}  // namespace elevbench
