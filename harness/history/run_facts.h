#pragma once
// What the history stores about a run, taken from its results document: the facts of the
// `runs` table and the run's identity. No database here.

#include <string>

#include "harness/history/history_store.h"
#include "harness/results/results_document.h"

namespace elevbench {

/// A run's row in the `runs` table, before it has an id.
struct RunFacts {
  HistoryRun run;                   ///< id and recorded_at unset
  std::string target_json;          ///< context.target as compact JSON ("{}" when absent)
  std::string configurations_json;  ///< [{"identifier","label","scheduler"}…] in table order
};

/// The facts of `doc`, saved at `results_path` (made absolute). The identity fields
/// (start_time, host, suite, command_line) are never empty together with a missing start
/// time: a file without context.start_time uses its first cell's started_at, and a file with
/// neither gets "digest:<FNV-1a 64 of its JSON>" so that importing it twice still matches.
RunFacts RunFactsOf(const ResultsDocument& doc, const std::string& results_path);

/// One line for a run's target description (context.target): "emulated ide-2003 ext2",
/// "scratch ext4 /dev/loop3", "directory /var/tmp/x (ext4)"; "" when absent.
std::string TargetSummary(const nlohmann::json& target);

}  // namespace elevbench
