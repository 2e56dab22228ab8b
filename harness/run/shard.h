#pragma once
// `run --shard I/N` and `merge` (docs/ci.md, "Beyond one machine"): a plan too long for one box
// is cut into N deterministic slices, each run on a box of its own, and the shards' results
// joined into the one document the whole plan would have written. What needs no device and no
// suite lives here: reading the option, dealing the plan (the lanes' deal, lanes.h, by whole
// repetitions), the shard's context block, and the checked merge (the lanes' merge). The
// summary of the merged document is the caller's (it needs the suite: app/).

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/run/run_plan.h"

namespace elevbench {

/// One shard of a plan: the index-th (1-based) of count slices; count 0 = the whole plan.
struct ShardSpec {
  uint32_t index = 0;
  uint32_t count = 0;
  bool given() const { return count > 0; }
  /// "2/3", as the command line gives it.
  std::string Text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// Reads `--shard I/N`: two whole numbers, 1 ≤ I ≤ N ≤ 10000. err is one line naming the flag
/// and the words, for exit code 2 before anything is created ("0/2", "3/2", "1/0", "x").
[[nodiscard]] bool ParseShardOption(const std::string& text, ShardSpec* shard, std::string* err);

/// The plan indices shard `shard` runs, in plan order. The pieces dealt round-robin are whole
/// repetitions when the plan has at least N of them (each shard then runs every configuration
/// in the seeded interleaved order of its repetitions, and every configuration gets the same
/// share of every box: a slower box slows all the configurations alike), else the lanes'
/// blocks (one configuration's variants in one repetition). Every cell is in exactly one
/// shard; a shard may be empty when the plan has fewer pieces than shards.
std::vector<size_t> DealPlanToShard(const std::vector<PlannedCell>& plan, const ShardSpec& shard);

/// The results context's "shard" block of a shard's run: {"index", "count", "cells" (this
/// shard's), "plan_cells" (the whole plan's)}. `merge` reads it back.
nlohmann::json ShardContextJson(const ShardSpec& shard, size_t cells, size_t plan_cells);

/// `command_line` without its `--shard I/N` (or `--shard=I/N`): the whole plan's command.
std::string CommandLineWithoutShard(const std::string& command_line);

/// Joins the shards' documents (names: their files, for the errors) into `*merged`: checked
/// first, as shards of one plan: every one has a "shard" block, and they share the suite, the
/// elevbench version, the seed, the suite's parameters, the configurations (identifiers and
/// labels), the repetitions, the variants and N; no shard is missing or given twice. Then the
/// lanes' merge (MergeLaneDocuments: cells in plan order, records by cell), and the context of
/// shard 1 with the whole plan's command line, the earliest start, the boxes' hostnames, and
/// "shards": each shard's own context, file and completeness, so the environment of every box
/// stays in the document. The suite's summary is the caller's to redo. err is one line.
[[nodiscard]] bool MergeShardDocuments(const std::vector<ResultsDocument>& shards,
                                       const std::vector<std::string>& names,
                                       ResultsDocument* merged, std::string* err);

}  // namespace elevbench
