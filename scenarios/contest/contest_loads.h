#pragma once
// contest's eleven loads (docs/legacy-suites.md §2.2), what each runs here and the unit
// of its "Loads" column (§2.3). A load is nothing (no_load, cacherun), fio streams (io_load,
// io_other, read_load) or a command run again and again (the others), the load-vs-probe
// engine's two kinds of load. docs/contest.md compares each with its 2003 original.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/engine/load_probe.h"
#include "harness/engine/process_load.h"

namespace elevbench {

/// How a load runs.
enum class ContestLoadKind { kNone, kFio, kCommand };

/// One of contest's loads.
struct ContestLoadInfo {
  const char* name;  ///< "io_load"
  ContestLoadKind kind;
  /// What the raw work count is ("MiB written", "completed runs of ls -lRa").
  const char* work_unit;
  /// Loads column = raw work / divisor (contest 0.61 printed raw/100 for its high-resolution
  /// loads; completed iterations as they are).
  double divisor;
};

/// The eleven loads in contest's order: no_load, cacherun, process_load, ctar_load, xtar_load,
/// io_load, io_other, read_load, list_load, mem_load, dbench_load.
const std::vector<ContestLoadInfo>& ContestLoads();

/// The load named `name`, or null.
const ContestLoadInfo* FindContestLoad(const std::string& name);

/// Parses `--loads a,b,c` (empty = all, in contest's order). err names an unknown or repeated
/// load, and a cacherun that does not directly follow no_load (cacherun is "no_load directly
/// after a previous run, without dropping caches").
[[nodiscard]] bool ParseContestLoads(const std::string& text, std::vector<std::string>* loads,
                                     std::string* err);

/// Where and how big, for planning the loads of a run.
struct ContestLoadContext {
  std::string directory;        ///< the target directory
  std::string tree_root;        ///< the compile tree on the target
  std::string load_dir;         ///< the loads' files on the target (io_load's file, tarballs)
  std::string other_dir;        ///< --other-dir (io_other); empty = io_other is absent
  std::string list_dir;         ///< what list_load lists
  std::string self_exe;         ///< elevbench itself, for `internal mem-load|process-ring`
  std::string dbench_loadfile;  ///< dbench's client.txt; empty = dbench's default
  uint64_t memory_bytes = 0;    ///< the machine's RAM (or --memory): the loads' sizes follow it
  int cpus = 1;
};

/// A planned load: which kind, and its fio streams or its command.
struct ContestLoadPlan {
  ContestLoadKind kind = ContestLoadKind::kNone;
  bool absent = false;  ///< io_other without --other-dir: no load runs, as contest without -o
  LoadSpec fio;
  RepeatedCommandSpec command;
  /// Raw work of one completed iteration of a command load (hops of a ring, MiB referenced by
  /// mem_load, 1 for the others).
  double work_per_iteration = 1;
};

/// The file io_load writes and read_load reads, RAM-sized, under load_dir.
std::string ContestIoFile(const ContestLoadContext& c, const std::string& load);
/// The tarball xtar_load extracts (made once by the suite's SetUp from the fresh tree).
std::string ContestTarball(const ContestLoadContext& c);

/// Plans `load` (a name from ContestLoads()). Sizes: io_load, io_other and read_load use a file
/// of memory_bytes; mem_load references 110 % of it; process_load rings 4 × cpus processes
/// passing cpus chunks for 10,000 hops per iteration; dbench_load runs `dbench -t 10` with
/// 16 × cpus clients per iteration.
ContestLoadPlan PlanContestLoad(const std::string& load, const ContestLoadContext& context);

/// The fio [global] of the loads, LegacyToolFioGlobal(): threads, buffered, no invalidation, plain
/// writes, no fadvise.
FioGlobalSpec ContestFioGlobal();

}  // namespace elevbench
