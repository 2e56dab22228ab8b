#pragma once
// Andrew Morton's nine "iosched" tests (lkml, 20-21 Feb 2003; docs/legacy-suites.md §4):
// the plain result records, one per cell (one test under one configuration and repetition):
// every probe's rusage and work, the load's streams, and the rows that average them over
// repetitions.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/process_usage.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// The tests are numbered 1 to 9 as the posts were.
inline constexpr int kMortonTestCount = 9;

/// "iosched: parallel streaming reads" and so on: the post's subject, paraphrased where the
/// archive lost it; empty for a number outside 1..9.
std::string MortonTestTitle(int test);

/// How a test's times print: #1 as zsh's `time` lines, #5 as bash's `real` lines, every other
/// test in seconds, as the posts did.
enum class MortonTimeStyle { kZsh, kBash, kSeconds };
MortonTimeStyle MortonTimeStyleOf(int test);

/// One timed command of a test.
struct MortonProbe {
  std::string command;            ///< the post's command, as shell text: "cat 100-meg-file-3"
  std::vector<std::string> argv;  ///< what ran (the stand-in's loader line for #2/#3)
  std::string status;             ///< "ok", "dnf" (killed at its timeout), "failed" (exit != 0)
  int exit_code = 0;              ///< -1 when killed by a signal
  int term_signal = 0;
  double start_offset_seconds = 0;  ///< when it started, after the first probe of the cell
  /// wait4's account; its elapsed time runs fork to reap (up to the kill for a DNF)
  ProcessUsage usage;
  double timeout_seconds = 0;
  uint64_t bytes_read = 0;  ///< read() bytes (/proc/<pid>/io rchar), last sample
  uint64_t work_bytes = 0;  ///< what it had to move: a file's size, a tree's, the copy's
};

/// One test under one configuration and repetition.
struct MortonRecord : RecordHeader {
  int test = 0;
  std::string description;    ///< what ran, with this run's sizes ("ten 5 MB files read at once")
  std::string stand_in;       ///< for #2/#3: what replaces `ssh testbox xterm -e true`; else ""
  double scale = 1;           ///< --scale of the run
  double warmup_seconds = 0;  ///< how long the load ran before the probes; 0 without load
  std::vector<MortonProbe> probes;  ///< in start order
  std::vector<StreamResult> load;   ///< the load's streams over its whole run; empty without
};

/// The record's JSON object: the struct's field names as keys, "probes" an array of objects with
/// MortonProbe's field names, "load" an array of StreamResultToJson objects.
nlohmann::json MortonRecordToJson(const MortonRecord& record);
/// Reads a record back. "label" may be missing. Refuses a test outside 1..9, a probe status
/// other than ok/dnf/failed and a record without probes. On failure *record is unchanged and
/// err names the key ("probes[2].status: ...").
[[nodiscard]] bool MortonRecordFromJson(const nlohmann::json& j, MortonRecord* record,
                                        std::string* err);
/// Reads every record of a morton results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool MortonRecordsFromDocument(const ResultsDocument& doc,
                                             std::vector<MortonRecord>* records, std::string* err);

/// One probe position of a row over its repetitions.
struct MortonProbeRow {
  std::string command;
  uint32_t ok = 0;
  uint32_t dnf = 0;
  uint32_t failed = 0;
  double user_seconds = 0;  ///< means over the finished ("ok") repetitions; 0 when none
  double system_seconds = 0;
  double elapsed_seconds = 0;
  double timeout_seconds = 0;  ///< the largest of the repetitions
  int failed_exit_code = 0;    ///< exit status of the last failed repetition
};

/// One stream of a row's load over its repetitions.
struct MortonLoadRow {
  std::string name;       ///< "streaming-writer"
  std::string direction;  ///< "read" / "write"
  double mb_s = 0;        ///< harmonic mean over the repetitions of bytes / runtime (MiB/s)
};

/// A printed block: one test × configuration over its repetitions.
struct MortonRow {
  std::string identifier;
  std::string label;  ///< the first non-empty label of the row's records
  int test = 0;
  uint32_t repetitions = 0;
  std::string description;  ///< of the first record
  std::string stand_in;
  std::vector<MortonProbeRow> probes;  ///< by position in the records' probe lists
  std::vector<MortonLoadRow> load;     ///< by the first record's streams
};

/// Rows by test (1..9), then configuration in `order` (identifiers), then any others in order
/// of first appearance.
std::vector<MortonRow> AggregateMortonRows(const std::vector<MortonRecord>& records,
                                           const std::vector<std::string>& order);

/// The summary block of a morton results file: per row identifier, label, test, title,
/// repetitions, probes [{command, ok, dnf, failed, mean {user_seconds, system_seconds,
/// elapsed_seconds}}], load [{name, direction, mb_s}].
nlohmann::json MortonSummaryToJson(const std::vector<MortonRow>& rows);

}  // namespace elevbench
