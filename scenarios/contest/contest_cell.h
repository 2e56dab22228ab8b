#pragma once
// One contest cell: the load starts, the compile runs beside it once the load has run its
// warm-up, the load is stopped when the compile ends; the record gets the compile's rusage and
// the load's own work, rusage and elapsed time (docs/legacy-suites.md §2.2-2.3).

#include <string>

#include "harness/engine/load_probe.h"
#include "harness/fio/fio_runner.h"
#include "scenarios/contest/contest_loads.h"
#include "scenarios/contest/contest_records.h"

namespace elevbench {

/// What one cell runs.
struct ContestCellSpec {
  std::string load;      ///< a name from ContestLoads()
  ContestLoadPlan plan;  ///< PlanContestLoad(load, ...)
  /// The compile: argv, working directory, stdout file, timeout (DNF) and the load's warm-up.
  ProbeSpec compile;
  bool caches_kept = false;  ///< cacherun: recorded in the record
};

/// Runs the cell and fills *record (load, status, usages, work, Loads, streams; the session
/// adds scheduler, identifier, label and repetition). A compile that exits non-zero is a true
/// return with status "failed"; one stopped at its timeout is "dnf". False with err when the
/// load or the compile could not be started, the load failed, or an interrupt stopped the
/// compile (the session then records the cell as interrupted).
[[nodiscard]] bool RunContestCell(const ContestCellSpec& spec, FioRunner* fio,
                                  const std::string& work_dir, const std::string& label,
                                  ContestRecord* record, std::string* err);

}  // namespace elevbench
