#pragma once
// `elevbench compare --format json`: the whole comparison as one JSON object, for scripts.
// Keys: test, alpha, threshold_pct, no_significance, suite, base, new, pairs [{base, new,
// rule}], only_in_base, only_in_new (identifiers), notes, counts {regressions, improvements,
// changed, inconclusive, unchanged, not_comparable, failed: the rows as the text footer counts
// them, a row that fails the gate as FAILED under failed only}, gate {outcome
// (pass|regressed|undecided), summary (the one line), allowed [rule names], findings [{rule,
// what}]}, rows [{suite, section, row, metric, unit, direction, mean (hmean|mean), presence, base,
// new (each null or {identifier, label, scheduler, values, not_measured, n, mean, stddev, cov,
// ci_low, ci_high, min, max}), change_pct (null without a change or when infinite; then
// change_infinite is +1 or -1), p_value (null without a test), exact, significance, verdict, gate
// (the rule the row breaks, or null), note}]. docs/compare.md has an example.

#include <nlohmann/json.hpp>

#include "harness/compare/compare.h"

namespace elevbench {

/// The JSON form of a comparison (keys above).
nlohmann::json CompareToJson(const Comparison& comparison);

}  // namespace elevbench
