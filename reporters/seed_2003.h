#pragma once
// Nick Piggin's numbers of 27 March 2003 (seed 000: "[BENCHMARKS] AS vs DL vs CFQ", the 25 March
// DL and AS rows with CFQ added), kept verbatim, and a lookup of the seed's line for a row of
// today's post-2003 report: same section, same configuration label (DL, AS, CF) and, in
// tiobench's tables, the same thread count.

#include <map>
#include <string>
#include <tuple>

namespace elevbench {

/// The seed's block, from "Cat kernel source during seq read" to nickbench's Bench 6, verbatim.
extern const char kSeed2003Post[];

/// Where a line of a post-2003 report or of the seed belongs.
struct PostRowKey {
  std::string section;  ///< the section's title as both print it ("Sequential Reads", "io_load:")
  std::string label;    ///< "DL", "AS", "CF" (from "DL - ..." or an identifier "...-dl")
  std::string threads;  ///< tiobench rows: the Thr column; "" elsewhere
  bool operator<(const PostRowKey& o) const {
    return std::tie(section, label, threads) < std::tie(o.section, o.label, o.threads);
  }
};

/// The section a title line opens, or "" when the line is not a title. Titles are the probes'
/// ("Cat kernel source during seq read"), contest's loads ("io_load:"), tiobench's four tables,
/// OraSim's (any line starting "OraSim") and nickbench's benches ("Bench 3 - ...", keyed
/// "Bench 3").
std::string PostSectionOf(const std::string& line);

/// The key of a row line inside `section`; false for a line that is not a row (headers, notes).
[[nodiscard]] bool PostRowKeyOf(const std::string& section, const std::string& line,
                                PostRowKey* key);

/// Every row of kSeed2003Post by its key.
const std::map<PostRowKey, std::string>& Seed2003Rows();

}  // namespace elevbench
