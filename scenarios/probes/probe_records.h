#pragma once
// The cat / ls -lR probes' plain result records (docs/legacy-suites.md §5): one record per
// probe of a cell: the probe's rusage and the work it did, and the load's streams.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// The status of a probe the OOM killer ended (ProbeOutcome::oom_killed): a failure, not a DNF.
inline constexpr const char* kProbeKilledOom = "killed (OOM)";

/// One probe run beside its load.
struct ProbeRecord : RecordHeader {
  std::string probe;  ///< "cat-during-read", "cat-during-write", "ls-during-read", ...
  /// "ok", "dnf" (killed at its timeout), "failed" (non-zero exit or a signal) or
  /// kProbeKilledOom.
  std::string status;
  int exit_code = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  double elapsed_seconds = 0;  ///< the probe's wall time (up to the kill for a DNF)
  double timeout_seconds = 0;
  uint64_t major_faults = 0;
  uint64_t minor_faults = 0;
  uint64_t bytes_read = 0;         ///< read() bytes of the probe (/proc/<pid>/io rchar)
  uint64_t files_read = 0;         ///< cat: files read whole; ls: 0
  uint64_t entries_listed = 0;     ///< ls -lR: lines of output; cat: 0
  uint64_t files_total = 0;        ///< files in the tree
  uint64_t bytes_total = 0;        ///< bytes in the tree
  double warmup_seconds = 0;       ///< how long the load ran before the probe started
  std::vector<StreamResult> load;  ///< the load's streams over its whole run
};

/// The seed's title line ("Cat kernel source during seq write", "ls -lr kernel source during
/// seq read"); empty for an unknown probe.
std::string ProbeTitle(const std::string& probe);
/// The four probes of the seed, in the seed's order.
const std::vector<std::string>& AllProbes();

/// The record's JSON object: the struct's field names as keys, "load" an array of
/// StreamResultToJson objects (docs/output-format.md).
nlohmann::json ProbeRecordToJson(const ProbeRecord& record);
/// Reads a record back. "label" may be missing (left empty). Refuses a probe not in AllProbes()
/// and a status other than ok/dnf/failed/killed (OOM). On failure *record is unchanged and err
/// names the key.
[[nodiscard]] bool ProbeRecordFromJson(const nlohmann::json& j, ProbeRecord* record,
                                       std::string* err);
/// Reads every record of a probes results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool ProbeRecordsFromDocument(const ResultsDocument& doc,
                                            std::vector<ProbeRecord>* records, std::string* err);

/// A printed row: one label × probe over its repetitions.
struct ProbeRow {
  std::string identifier;
  std::string label;  ///< the first non-empty label of the row's records ("" if none has one)
  std::string probe;
  uint32_t repetitions = 0;  ///< all records of the row, whatever their status
  uint32_t dnf = 0;          ///< repetitions that did not finish
  uint32_t failed = 0;       ///< repetitions whose probe exited non-zero
  double user_seconds = 0;   ///< means over the finished ("ok") repetitions; 0 when none
  double system_seconds = 0;
  double elapsed_seconds = 0;
  double timeout_seconds = 0;       ///< the largest timeout of the row's records
  uint64_t dnf_bytes_read = 0;      ///< mean (rounded) over the DNF repetitions: bytes read
  uint64_t dnf_files_read = 0;      ///< ... files read whole (cat)
  uint64_t dnf_entries_listed = 0;  ///< ... lines listed (ls)
  uint64_t files_total = 0;         ///< files in the tree (largest over the records)
  uint64_t bytes_total = 0;         ///< bytes in the tree (largest over the records)
  int failed_exit_code = 0;         ///< exit status of the last failed repetition
  /// How the last failed repetition ended: "exit N" or "killed (OOM)".
  std::string failed_how;
};

/// Rows by probe (AllProbes() order, then unknown probes in order of first appearance), then
/// configuration in `order` (identifiers), then any others in order of first appearance.
std::vector<ProbeRow> AggregateProbeRows(const std::vector<ProbeRecord>& records,
                                         const std::vector<std::string>& order);
/// The summary block of a probes results file: per row identifier, label, probe, title,
/// repetitions, ok, dnf, failed, mean {user_seconds, system_seconds, elapsed_seconds},
/// timeout_seconds, dnf_mean {bytes_read, files_read, entries_listed}, files_total,
/// bytes_total, failed_exit_code.
nlohmann::json ProbeSummaryToJson(const std::vector<ProbeRow>& rows);

/// The unit of TreeMegabytes, said after the number: the MB --tree-size takes.
inline constexpr const char* kTreeMegabytesUnit = "MB of 10^6 bytes, as --tree-size takes them";

/// A tree's bytes in --tree-size's MB of 10^6 bytes, without the unit: "48.0", "0.5", "0.0041"
/// (two significant digits below 0.1 MB).
std::string TreeMegabytes(uint64_t bytes);

/// What a probe that did not finish had done: "read 24.0 of 48.0 MB of 10^6 bytes, as
/// --tree-size takes them, 30 of 60 files" for cat, in the unit of the option that sets the tree's
/// size (issue 45: it was in MiB, "of 45.8 MB" for --tree-size 48); "listed 8190 entries" for ls.
/// One wording for the nick layout's note and the reason every other format gives a DNF.
std::string ProbeDnfProgress(const std::string& probe, uint64_t bytes_read, uint64_t bytes_total,
                             uint64_t files_read, uint64_t files_total, uint64_t entries_listed);

/// A DNF record's reason, as the nick layout words it for one repetition: "DNF after 10 minutes
/// (read 24.0 of 48.0 MB of 10^6 bytes, as --tree-size takes them, 30 of 60 files)"; "" for a
/// record that is not a DNF.
std::string ProbeDnfReason(const ProbeRecord& record);

}  // namespace elevbench
