#pragma once
// How the text layouts say what a row is made of: "(means of 3 repetitions; ...)" above the
// tables, and a mark on a row made from fewer repetitions than the run asked for (a failed
// cell, an interrupted run), so a short row is never mistaken for a full one; and how many of a
// row's repetitions did not finish, in the notes under the tables.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace elevbench {

/// The repetitions the run asked for (the context's "repetitions"); 0 when not recorded.
uint32_t RequestedRepetitions(const nlohmann::json& context);

/// "(means of 3 repetitions; <how>)\n" when any row averages more than one repetition, with
/// "3 to 5" when rows differ; "" when every row is a single repetition. `how` says which mean
/// ("IO Rate is a harmonic mean"); may be empty.
std::string MeansLine(const std::vector<uint32_t>& repetitions_per_row, const std::string& how);

/// " (n=2 of 3)" when a row has fewer repetitions than requested; "" otherwise or when
/// `requested` is 0 (unknown).
std::string ShortRowMark(uint32_t repetitions, uint32_t requested);

/// "DNF" when the row is a single repetition (`of` == 1), "2 of 3 repetitions DNF" otherwise:
/// how many of a row's `of` repetitions ended as `what` ("DNF", "failed"). One wording for every
/// suite's notes (probes, command, contest, morton); `unit` is the suite's word for a repetition
/// (contest's 2003 posts say "runs").
std::string HowManyText(uint32_t n, uint32_t of, const std::string& what,
                        const std::string& unit = "repetitions");

}  // namespace elevbench
