#pragma once
// The results document of a run, for every suite (docs/output-format.md). The run loop, the
// session and the results file know nothing of any suite: a suite's parameters, its per-cell
// records and its summary are JSON values that the suite itself produces and reads back
// (scenarios/<suite>/). Rendering lives in reporters/.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/atomic_file.h"
#include "harness/results/record_header.h"
#include "harness/results/request_trace_record.h"

namespace elevbench {

/// Version of the results JSON layout; bump on incompatible changes (additions are compatible).
inline constexpr int kResultsSchemaVersion = 1;

/// One cell of the plan: one scheduler configuration × one suite variant × one repetition.
struct CellRecord {
  std::string scheduler;   ///< configuration, e.g. "bfq:low_latency=0"; "" when not switched
  std::string identifier;  ///< table label in the tiobench/contest style, "6.18.44-bfq-ll0"
  std::string label;       ///< short label in the nickbench/probe style, "BFQ-LL0" or "@LABEL"
  /// The I/O control beside the scheduler (`run --controls`, docs/controls.md):
  /// "ionice:load=idle"; empty for none (the member is then not written).
  std::string control;
  /// The kernel the cell ran under (`run --kernels`: the host's merge of the guests' documents
  /// writes it, RowKernel); empty on the host (the member is then not written).
  RowKernel kernel{};
  /// `run --kernels`: the configuration's own label, without its kernel's ("AS", "BFQ-LL0"),
  /// the same on every kernel (RecordHeader::configuration_label); empty otherwise (the member
  /// is then not written) and in files written before the field.
  std::string configuration_label{};
  uint32_t repetition = 0;
  /// The suite's key of this cell ({"threads": 4}, {"bench": 3}); its members are written into
  /// the cell's JSON object beside the generic fields, so a tiobench cell reads {"threads": 4}.
  nlohmann::json variant = nlohmann::json::object();
  std::string status;      ///< "ok", "failed" or "interrupted"
  std::string error;       ///< why it failed; empty when ok
  std::string started_at;  ///< ISO 8601 UTC
  double duration_seconds = 0;
  std::map<std::string, std::string> queue;  ///< every queue/ and queue/iosched/ value
  nlohmann::json disk_counters;              ///< emulated-disk counters over the cell, or null
  /// The request tracer's account of the cell (docs/request-tracing.md), or none when the run
  /// did not trace (`--trace-requests off`, or a target that cannot be traced): the file's
  /// "request_trace" member, absent or null then.
  std::optional<RequestTraceRecord> request_trace;
  /// `--lanes`: the lane that ran the cell (-1 in a serial run, and then none of the three
  /// lane fields is written), its index in the run's plan (the merged document's order), and
  /// how many of the document's records it added (so a lane's records can be merged by cell).
  int lane = -1;
  size_t plan_index = 0;
  size_t record_count = 0;
  /// `--shard I/N` (docs/ci.md): the shard I that ran the cell (0 in an unsharded run, and then
  /// neither "shard" nor "shard_records" is written); a shard's cell also writes plan_index,
  /// and its record_count as "shard_records", so `merge` places its records by cell. A merged
  /// document keeps them: which shard, on which box, produced each cell.
  int shard = 0;
};

/// The record header of every record `cell` adds: its configuration, labels, repetition,
/// control and kernel, as WriteRecordHeader writes them into each record.
RecordHeader CellHeader(const CellRecord& cell);

/// A whole run: context, the suite's parameters, cells, the suite's records and summary.
struct ResultsDocument {
  std::string suite;
  nlohmann::json context = nlohmann::json::object();
  nlohmann::json parameters = nlohmann::json::object();  ///< the suite's, as it wrote them
  std::vector<std::string> identifiers;                  ///< table order of the configurations
  std::vector<std::string> labels;  ///< short labels, same order (empty in old files)
  std::vector<CellRecord> cells;
  /// The suite's records, one JSON object each. Every record carries "scheduler", "identifier",
  /// "label" and "repetition" (added by the session); the rest is the suite's.
  std::vector<nlohmann::json> records;
  /// Set-up facts recorded once per run by the suite (files laid out, tree digest), or null.
  nlohmann::json setup;
  nlohmann::json summary = nlohmann::json::array();  ///< the suite's aggregation of the records
  bool complete = false;  ///< false while running and after an interrupted run
};

/// The JSON form of the document.
nlohmann::json ResultsToJson(const ResultsDocument& doc);

/// The document's text, byte for byte ResultsToJson(doc).dump(2) followed by a newline, handed
/// to `sink` in pieces without building that JSON value or the whole text: the records and cells
/// are dumped one at a time. A run rewrites its results file after every cell this way, so the
/// rewrite needs no copy of the document it holds. Throws what dump throws (invalid UTF-8).
void WriteResultsText(const ResultsDocument& doc, const ContentSink& sink);

/// Reads a results JSON back (for `report`); err says what is missing or malformed. Suite
/// records are kept as they are: the suite's reader checks them. Takes `j` by value: a caller that
/// hands over its parsed document (std::move) gives the records away instead of copying them.
[[nodiscard]] bool ResultsFromJson(nlohmann::json j, ResultsDocument* doc, std::string* err);

/// Loads and parses a results file; err is one line naming the file.
[[nodiscard]] bool LoadResultsFile(const std::string& path, ResultsDocument* doc, std::string* err);

/// Writes the document atomically (temp file + fsync + rename), its text streamed to the file as
/// WriteResultsText produces it.
[[nodiscard]] bool SaveResultsFile(const std::string& path, const ResultsDocument& doc,
                                   std::string* err);

/// Reads every record of `doc` with a suite's record reader `from_json` into *out; err is the
/// reader's, prefixed with "records[i]: ". On failure *out is unchanged. Every suite's
/// <Suite>RecordsFromDocument is this.
template <typename Record>
[[nodiscard]] bool ReadDocumentRecords(const ResultsDocument& doc,
                                       bool (*from_json)(const nlohmann::json&, Record*,
                                                         std::string*),
                                       std::vector<Record>* out, std::string* err) {
  std::vector<Record> records;
  records.reserve(doc.records.size());
  for (size_t i = 0; i < doc.records.size(); ++i) {
    Record r;
    if (!from_json(doc.records[i], &r, err)) {
      *err = "records[" + std::to_string(i) + "]: " + *err;
      return false;
    }
    records.push_back(std::move(r));
  }
  *out = std::move(records);
  return true;
}

/// The identifiers in table order: doc.identifiers, then any other "identifier" found in the
/// records, in order of first appearance. Every reporter orders its rows this way.
std::vector<std::string> IdentifierOrder(const ResultsDocument& doc);

/// A suite's parameters with every "directory" member left out, at any depth (post-2003 keeps
/// its parts' parameters one level down): where a run wrote (a made target's scratch mount
/// /var/tmp/elevbench-XXXXXX/mnt, another box's path) is not what it measured. `compare`
/// matches documents on this, and `merge` matches shards on it.
nlohmann::json ParametersOfWhatWasMeasured(const nlohmann::json& parameters);

}  // namespace elevbench
