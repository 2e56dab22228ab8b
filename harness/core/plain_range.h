#pragma once
// A number's limits on the command line in plain words (issue #45): the help shows
// "N (512 to 67108864 bytes)" (cli.cc turns CLI11's type names into such words) and a value
// outside them gets "--block: expected 512 to 67108864 bytes, not 100", where CLI::Range said
// "INT in [512 - 67108864]" and "0.000000 to 604800.000000", and CLI::NonNegativeNumber named a
// bound of 309 digits.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace elevbench {

/// "512", "0.001", "604800": a limit as a person writes it.
inline std::string PlainNumberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

/// The words of [min, max] with their unit: "512 to 67108864 bytes", "0 or more" (a max of
/// 1e18 or more is no bound a person meets).
inline std::string PlainLimitText(double min, double max, const std::string& unit) {
  const std::string range = max >= 1e18 ? PlainNumberText(min) + " or more"
                                        : PlainNumberText(min) + " to " + PlainNumberText(max);
  return unit.empty() ? range : range + " " + unit;
}

/// Whether a whole number written in digits ("18446744073709551616", "-1") fits T exactly, as
/// the double compare of PlainRange cannot tell (#45, fourth pass: 2^64 passed as a uint64_t
/// limit and was clamped to it). Other spellings CLI11 takes (0x10, 1e3) are left to it.
template <typename T>
bool PlainWholeFits(const std::string& value) {
  const char* first = value.data();
  const char* last = first + value.size();
  if (first != last && *first == '+') ++first;
  const char* digits = first != last && *first == '-' ? first + 1 : first;
  if (digits == last || !std::all_of(digits, last, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return true;  // not plain digits: CLI11's conversion and the range say
  }
  T whole{};
  const auto [end, ec] = std::from_chars(first, last, whole);
  return ec == std::errc() && end == last;
}

/// A CLI11 check of [min, max] (`unit` in the words: "seconds", "MiB"), whose description is
/// the limits' words and whose error is "expected <words>, not <value>".
/// NaN is outside every range and an infinity outside every finite one (#45: "--alpha nan" passed
/// `v < lo || v > hi` and turned a failing gate into a pass). An integer option's error says
/// it takes a whole number ("expected a whole number from 0 to 10, not '1.5'"), where CLI11's
/// conversion said only that '1.5' was no value it takes.
template <typename T>
CLI::Validator PlainRange(T min, T max, const std::string& unit = "") {
  const double lo = static_cast<double>(min), hi = static_cast<double>(max);
  const std::string words = PlainLimitText(lo, hi, unit);
  const std::string expected =
      std::is_integral_v<T> ? (hi >= 1e18 ? "a whole number, " : "a whole number from ") + words
                            : words;
  return CLI::Validator(
      [lo, hi, expected](std::string& value) -> std::string {
        double v = 0;
        bool ok = CLI::detail::lexical_cast(value, v) && v >= lo && v <= hi;
        if constexpr (std::is_integral_v<T>) {
          T whole{};
          ok = ok && CLI::detail::lexical_cast(value, whole) && PlainWholeFits<T>(value);
        }
        return ok ? "" : "expected " + expected + ", not '" + value + "'";
      },
      words);
}

/// A CLI11 check that the value is one of `words` (#45): its help text is the words
/// ("off|summary|full", cli.cc shows them as the option's value), its error "expected off, summary
/// or full, not 'x'", where CLI::IsMember printed "TEXT:{off,summary,full}" and "x not in
/// {off,summary,full}".
inline CLI::Validator PlainWords(std::vector<std::string> words) {
  std::string text, help;
  for (size_t i = 0; i < words.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    help += (i == 0 ? "" : "|") + words[i];
  }
  return CLI::Validator(
      [words, text](std::string& value) -> std::string {
        for (const std::string& w : words) {
          if (value == w) return "";
        }
        return "expected " + text + ", not '" + value + "'";
      },
      help);
}

/// A size in MiB on the command line, as --scratch takes sizes (#45): "64" (MiB), or with
/// K/M/G/T (powers of 1024, "KiB" … also) "64M", "1G", "524288K", made a number of MiB before
/// the option's other checks. A size that is no whole number of MiB is refused.
inline CLI::Validator MiBSize() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        size_t used = 0;
        double number = 0;
        try {
          number = std::stod(value, &used);
        } catch (...) {
          return "expected MiB, or a size such as 64M or 1G, not '" + value + "'";
        }
        std::string suffix = value.substr(used);
        if (suffix.empty()) return "";  // MiB already; the option's own checks follow
        if (suffix.size() == 3 && suffix.substr(1) == "iB") suffix.resize(1);
        const std::string units = "KMGT";
        const size_t power = suffix.size() == 1
                                 ? units.find(static_cast<char>(std::toupper(suffix[0])))
                                 : std::string::npos;
        if (power == std::string::npos) {
          return "expected MiB, or a size such as 64M or 1G, not '" + value + "'";
        }
        const double mib = number * static_cast<double>(1ull << (10 * power)) / 1024;
        if (!std::isfinite(mib) || mib < 0 || mib >= 1.8e19 ||
            mib != static_cast<double>(static_cast<uint64_t>(mib))) {
          return "expected a whole number of MiB, not '" + value + "'";
        }
        value = std::to_string(static_cast<uint64_t>(mib));
        return "";
      },
      "MiB, or 64M, 1G");
}

}  // namespace elevbench
