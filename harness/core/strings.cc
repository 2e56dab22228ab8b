#include "harness/core/strings.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace elevbench {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string Lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Uppercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string TrimWhitespace(std::string_view s) {
  size_t begin = 0;
  size_t end = s.size();
  while (begin < end && IsSpace(s[begin])) ++begin;
  while (end > begin && IsSpace(s[end - 1])) --end;
  return std::string(s.substr(begin, end - begin));
}

std::vector<std::string> SplitAndTrim(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(TrimWhitespace(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !IsSpace(text[i])) ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

std::string FormatDouble(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

std::string TimeoutWords(double seconds) {
  char buf[64];
  if (seconds >= 60 && std::fmod(seconds, 60.0) == 0) {
    const double minutes = seconds / 60;
    std::snprintf(buf, sizeof buf, "%.0f minute%s", minutes, minutes == 1 ? "" : "s");
  } else {
    std::snprintf(buf, sizeof buf, "%g second%s", seconds, seconds == 1 ? "" : "s");
  }
  return buf;
}

std::string BytesWords(uint64_t bytes) {
  char buf[64];
  const double b = static_cast<double>(bytes);
  if (bytes < 1024) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  } else if (bytes < (uint64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%.0f KiB", b / 1024);
  } else if (bytes < (uint64_t{1} << 30)) {
    std::snprintf(buf, sizeof buf, "%.1f MB", b / (1 << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%.2f GB", b / (1 << 30));
  }
  return buf;
}

std::string JoinWith(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

}  // namespace elevbench
