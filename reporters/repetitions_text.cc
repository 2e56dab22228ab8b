#include "reporters/repetitions_text.h"

#include <algorithm>

#include "harness/core/json_fields.h"

namespace elevbench {

uint32_t RequestedRepetitions(const nlohmann::json& context) {
  // GetOptionalJsonField: a count past uint32_t is refused (0), not truncated.
  uint32_t repetitions = 0;
  std::string ignored;
  if (!context.is_object() ||
      !GetOptionalJsonField(context, "repetitions", &repetitions, &ignored)) {
    return 0;
  }
  return repetitions;
}

std::string MeansLine(const std::vector<uint32_t>& repetitions_per_row, const std::string& how) {
  if (repetitions_per_row.empty()) return "";
  const auto [lo, hi] = std::minmax_element(repetitions_per_row.begin(), repetitions_per_row.end());
  if (*hi <= 1) return "";
  std::string line = "(means of " + std::to_string(*lo);
  if (*lo != *hi) line += " to " + std::to_string(*hi);
  line += " repetitions";
  if (!how.empty()) line += "; " + how;
  return line + ")\n";
}

std::string ShortRowMark(uint32_t repetitions, uint32_t requested) {
  if (requested == 0 || repetitions >= requested) return "";
  return " (n=" + std::to_string(repetitions) + " of " + std::to_string(requested) + ")";
}

std::string HowManyText(uint32_t n, uint32_t of, const std::string& what, const std::string& unit) {
  if (of == 1) return what;
  return std::to_string(n) + " of " + std::to_string(of) + " " + unit + " " + what;
}

}  // namespace elevbench
