#pragma once
// `elevbench compare`'s pairing of the two sides' configurations (docs/compare.md, "Matching"):
// by identifier, then unique label, then unique scheduler string, or the one pair --between
// names. Part of harness/compare/compare.cc's work, apart for its size.

#include <string>
#include <vector>

#include "harness/compare/compare.h"

namespace elevbench {

/// A list in a message: "a, b", or "none".
std::string JoinOrNone(const std::vector<std::string>& items);

/// The configurations of a set of rows, in row order; the first non-empty label wins.
std::vector<ConfigurationRef> ConfigurationsOf(const std::vector<MetricRow>& rows);

/// The configurations' identifiers, in order.
std::vector<std::string> IdentifiersOf(const std::vector<ConfigurationRef>& configs);

/// The configuration pairs into c->pairs (and the unpaired into c->unpaired_base and
/// c->unpaired_new): with `between`, the one pair settings.between_base and between_new name
/// (an identifier, label, code or scheduler of each side; err when it names none, several, or
/// one configuration twice in one file), else every pair the matching rules make. base_rows and
/// new_rows are the caller's: the same object when one file is compared with itself.
[[nodiscard]] bool PairComparedConfigurations(const std::vector<MetricRow>& base_rows,
                                              const std::vector<MetricRow>& new_rows,
                                              const CompareSettings& settings,
                                              const std::vector<ConfigurationRef>& base_configs,
                                              const std::vector<ConfigurationRef>& new_configs,
                                              bool between, Comparison* c, std::string* err);

}  // namespace elevbench
