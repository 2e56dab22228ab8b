#include "scenarios/probes/probe_records.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "harness/core/json_field_table.h"
#include "harness/core/strings.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

// Beside the header's fields and "load" in the same object.
constexpr JsonField<ProbeRecord> kProbeFields[] = {
    {"probe", &ProbeRecord::probe},
    {"status", &ProbeRecord::status},
    {"exit_code", &ProbeRecord::exit_code},
    {"user_seconds", &ProbeRecord::user_seconds},
    {"system_seconds", &ProbeRecord::system_seconds},
    {"elapsed_seconds", &ProbeRecord::elapsed_seconds},
    {"timeout_seconds", &ProbeRecord::timeout_seconds},
    {"major_faults", &ProbeRecord::major_faults},
    {"minor_faults", &ProbeRecord::minor_faults},
    {"bytes_read", &ProbeRecord::bytes_read},
    {"files_read", &ProbeRecord::files_read},
    {"entries_listed", &ProbeRecord::entries_listed},
    {"files_total", &ProbeRecord::files_total},
    {"bytes_total", &ProbeRecord::bytes_total},
    {"warmup_seconds", &ProbeRecord::warmup_seconds},
};

double ArithmeticMean(const std::vector<double>& v) {
  return Summarize(v, MeanKind::kArithmetic).mean;
}

uint64_t RoundedMean(const std::vector<double>& v) {
  return static_cast<uint64_t>(std::llround(ArithmeticMean(v)));
}

}  // namespace

const std::vector<std::string>& AllProbes() {
  static const std::vector<std::string> kProbes = {"cat-during-read", "cat-during-write",
                                                   "ls-during-read", "ls-during-write"};
  return kProbes;
}

std::string ProbeTitle(const std::string& probe) {
  if (probe == "cat-during-read") return "Cat kernel source during seq read";
  if (probe == "cat-during-write") return "Cat kernel source during seq write";
  if (probe == "ls-during-read") return "ls -lr kernel source during seq read";
  if (probe == "ls-during-write") return "ls -lr kernel source during seq write";
  return "";
}

json ProbeRecordToJson(const ProbeRecord& r) {
  json load = json::array();
  for (const StreamResult& s : r.load) load.push_back(StreamResultToJson(s));
  json j{{"load", std::move(load)}};
  WriteJsonFields(kProbeFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool ProbeRecordFromJson(const json& j, ProbeRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a probe record object";
    return false;
  }
  ProbeRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kProbeFields, j, &r, err)) return false;
  if (ProbeTitle(r.probe).empty()) {
    *err = "probe: unknown probe '" + r.probe + "'";
    return false;
  }
  if (r.status != "ok" && r.status != "dnf" && r.status != "failed" &&
      r.status != kProbeKilledOom) {
    *err = "status: expected ok, dnf or failed, not '" + r.status + "'";
    return false;
  }
  if (!StreamResultsFromJson(j, "load", &r.load, err)) return false;
  *out = std::move(r);
  return true;
}

bool ProbeRecordsFromDocument(const ResultsDocument& doc, std::vector<ProbeRecord>* out,
                              std::string* err) {
  return ReadDocumentRecords(doc, ProbeRecordFromJson, out, err);
}

std::vector<ProbeRow> AggregateProbeRows(const std::vector<ProbeRecord>& records,
                                         const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  std::vector<std::string> probes = AllProbes();
  for (const ProbeRecord& r : records) {
    if (std::find(probes.begin(), probes.end(), r.probe) == probes.end()) {
      probes.push_back(r.probe);
    }
  }
  std::vector<ProbeRow> rows;
  for (const std::string& probe : probes) {
    for (const std::string& id : order) {
      ProbeRow row;
      row.identifier = id;
      row.probe = probe;
      std::vector<double> user, system, elapsed, dnf_bytes, dnf_files, dnf_entries;
      for (const ProbeRecord& r : records) {
        if (r.identifier != id || r.probe != probe) continue;
        if (row.label.empty()) row.label = r.label;
        ++row.repetitions;
        row.timeout_seconds = std::max(row.timeout_seconds, r.timeout_seconds);
        row.files_total = std::max(row.files_total, r.files_total);
        row.bytes_total = std::max(row.bytes_total, r.bytes_total);
        if (r.status == "ok") {
          user.push_back(r.user_seconds);
          system.push_back(r.system_seconds);
          elapsed.push_back(r.elapsed_seconds);
        } else if (r.status == "dnf") {
          ++row.dnf;
          dnf_bytes.push_back(static_cast<double>(r.bytes_read));
          dnf_files.push_back(static_cast<double>(r.files_read));
          dnf_entries.push_back(static_cast<double>(r.entries_listed));
        } else {
          ++row.failed;
          row.failed_exit_code = r.exit_code;
          row.failed_how =
              r.status == kProbeKilledOom ? r.status : "exit " + std::to_string(r.exit_code);
        }
      }
      if (row.repetitions == 0) continue;
      row.user_seconds = ArithmeticMean(user);
      row.system_seconds = ArithmeticMean(system);
      row.elapsed_seconds = ArithmeticMean(elapsed);
      row.dnf_bytes_read = RoundedMean(dnf_bytes);
      row.dnf_files_read = RoundedMean(dnf_files);
      row.dnf_entries_listed = RoundedMean(dnf_entries);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

json ProbeSummaryToJson(const std::vector<ProbeRow>& rows) {
  json summary = json::array();
  for (const ProbeRow& row : rows) {
    summary.push_back(json{{"identifier", row.identifier},
                           {"label", row.label},
                           {"probe", row.probe},
                           {"title", ProbeTitle(row.probe)},
                           {"repetitions", row.repetitions},
                           {"ok", row.repetitions - row.dnf - row.failed},
                           {"dnf", row.dnf},
                           {"failed", row.failed},
                           {"mean", json{{"user_seconds", row.user_seconds},
                                         {"system_seconds", row.system_seconds},
                                         {"elapsed_seconds", row.elapsed_seconds}}},
                           {"timeout_seconds", row.timeout_seconds},
                           {"dnf_mean", json{{"bytes_read", row.dnf_bytes_read},
                                             {"files_read", row.dnf_files_read},
                                             {"entries_listed", row.dnf_entries_listed}}},
                           {"files_total", row.files_total},
                           {"bytes_total", row.bytes_total},
                           {"failed_exit_code", row.failed_exit_code},
                           {"failed_how", row.failed_how}});
  }
  return summary;
}

std::string TreeMegabytes(uint64_t bytes) {
  const double mb = static_cast<double>(bytes) / 1e6;
  return FormatDouble(bytes == 0 || mb >= 0.1 ? "%.1f" : "%.2g", mb);
}

std::string ProbeDnfProgress(const std::string& probe, uint64_t bytes_read, uint64_t bytes_total,
                             uint64_t files_read, uint64_t files_total, uint64_t entries_listed) {
  if (probe.rfind("cat-", 0) == 0) {
    // #45: in --tree-size's MB, so that a 48 MB tree reads "of 48.0 MB", not of 45.8 MiB.
    return "read " + TreeMegabytes(bytes_read) + " of " + TreeMegabytes(bytes_total) + " " +
           kTreeMegabytesUnit + ", " + std::to_string(files_read) + " of " +
           std::to_string(files_total) + " files";
  }
  return "listed " + std::to_string(entries_listed) + " entries";
}

std::string ProbeDnfReason(const ProbeRecord& r) {
  if (r.status != "dnf") return "";
  std::string reason = "DNF";
  if (r.timeout_seconds > 0) reason += " after " + TimeoutWords(r.timeout_seconds);
  return reason + " (" +
         ProbeDnfProgress(r.probe, r.bytes_read, r.bytes_total, r.files_read, r.files_total,
                          r.entries_listed) +
         ")";
}

}  // namespace elevbench
