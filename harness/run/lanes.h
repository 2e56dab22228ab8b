#pragma once
// `--lanes N|auto`: several emulated disks serve the plan at once (docs/lanes.md). What needs no
// device lives here: reading the option against what the suite and the CPUs allow, dealing the
// run plan's cells out to the lanes, and merging the lanes' results into the one document a
// serial run would have written. The processes, disks, cgroups and writeback limits of the
// lanes are the CLI's (harness/run/run_lanes.h).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/run/run_plan.h"

namespace elevbench {

/// What bounds the number of lanes of a run.
struct LaneBounds {
  int online_cpus = 1;        ///< CPUs this process may run on
  int cpus_per_lane = 1;      ///< what one lane needs: the suite's, or --machine's cpus
  uint64_t disk_bytes = 0;    ///< one lane's emulated disk (its image lives in RAM: tmpfs)
  uint64_t memory_bytes = 0;  ///< the host's RAM; the images may take at most half of it
  std::string suite;          ///< for the messages
  /// Why the suite refuses lanes altogether; empty when it takes them.
  std::string refusal;
};

/// The most lanes `bounds` allow (at least 1): CPUs ÷ CPUs a lane, and as many disk images as
/// fit in half the RAM.
int MaxLanes(const LaneBounds& bounds);

/// Reads `--lanes`: "auto" (the most MaxLanes allows, which may be 1) or a number from 1 to that
/// most. err is one line naming the bound that refuses it, for exit code 2 before anything is
/// created.
[[nodiscard]] bool ParseLanesOption(const std::string& text, const LaneBounds& bounds, int* lanes,
                                    std::string* err);

/// Deals the plan out to `lanes` lanes: the plan is a sequence of blocks (one configuration's
/// variants in one repetition, in the seeded interleaved order BuildRunPlan made), and block b
/// goes to lane b mod `lanes`. So a lane runs one configuration at a time, every configuration
/// keeps its seeded order within each lane, and across repetitions a configuration meets every
/// lane (the shuffle decides which). Returns each lane's plan indices, in plan order.
std::vector<std::vector<size_t>> DealPlanToLanes(const std::vector<PlannedCell>& plan,
                                                 size_t lanes);

/// A plan dealt to lanes, with the cells that run alone set apart.
struct LaneDeal {
  std::vector<std::vector<size_t>> lanes;  ///< each lane's plan indices, in plan order
  std::vector<size_t> alone;  ///< the cells of variants that take no lanes, in plan order
};

/// What a deal hands out as one piece. A block (one configuration's variants in one repetition)
/// is the lanes' piece: lanes run at once, so one repetition's configurations meet on the
/// lanes' disks at the same moment. A whole repetition (its blocks in their seeded order) is the
/// shards' piece (shard.h): shards run on different boxes, so each keeps the interleaving of
/// every configuration and every configuration gets the same share of every box.
enum class DealUnit { kBlock, kRepetition };

/// As above, but the cells of a variant v with `takes_lanes[v]` false are set apart in
/// `alone` (they run after the lanes, on lane 0's disk with no other lane running: a
/// composite's probes). Blocks are counted among the cells that do take lanes, so those are
/// dealt as a run of only them would be. An empty `takes_lanes`: every variant takes lanes.
/// `unit` is the piece dealt round-robin (the lanes' block, or a shard's repetition).
LaneDeal DealPlanToLanes(const std::vector<PlannedCell>& plan, size_t lanes,
                         const std::vector<bool>& takes_lanes, DealUnit unit = DealUnit::kBlock);

/// Merges the lanes' documents into `*merged` (whose suite, context, identifiers and labels the
/// caller filled): cells in plan order (CellRecord::plan_index) with each cell's records after
/// the cells before it, as a serial run of the same plan would have written them; the set-up
/// of lane 0, with the members (a composite's parts) only a later document has; complete when
/// every lane is. The suite's summary is the caller's to redo. err when
/// a lane's cells do not account for its records.
[[nodiscard]] bool MergeLaneDocuments(const std::vector<ResultsDocument>& lanes,
                                      ResultsDocument* merged, std::string* err);

}  // namespace elevbench
