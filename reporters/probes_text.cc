#include "reporters/probes_text.h"

#include <cstdint>
#include <sstream>

#include "harness/core/strings.h"
#include "reporters/environment_text.h"
#include "reporters/gnu_time.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {
namespace {

uint32_t Finished(const ProbeRow& row) { return row.repetitions - row.dnf - row.failed; }

}  // namespace

std::string ProbeTimeoutText(double seconds) { return TimeoutWords(seconds); }

std::string ProbeBytesText(uint64_t bytes) { return BytesWords(bytes); }

// "exit N", or "killed (OOM)" for a probe the OOM killer ended (rows built before the field: the
// exit code).
std::string FailedHow(const ProbeRow& row) {
  return row.failed_how.empty() ? "exit " + std::to_string(row.failed_exit_code) : row.failed_how;
}

std::string RenderProbeRow(const std::string& label, const ProbeRow& row) {
  if (row.repetitions == 0) return label + " - failed";  // no record: every cell failed
  if (Finished(row) > 0) {
    return label + " - " +
           GnuTimeCutLine(row.user_seconds, row.system_seconds, row.elapsed_seconds);
  }
  if (row.dnf > 0) return label + " - N/A";
  return label + " - failed (" + FailedHow(row) + ")";
}

std::vector<std::string> ProbeNotes(const std::string& label, const ProbeRow& row) {
  std::vector<std::string> notes;
  if (row.dnf > 0) {
    std::string note = "* " + label + ": " + HowManyText(row.dnf, row.repetitions, "DNF");
    if (row.timeout_seconds > 0) note += " after " + ProbeTimeoutText(row.timeout_seconds);
    note += row.dnf > 1 ? " (on average " : " (";
    note += ProbeDnfProgress(row.probe, row.dnf_bytes_read, row.bytes_total, row.dnf_files_read,
                             row.files_total, row.dnf_entries_listed) +
            ")";
    notes.push_back(note);
  }
  if (row.failed > 0 && (Finished(row) > 0 || row.dnf > 0)) {
    notes.push_back("* " + label + ": " + HowManyText(row.failed, row.repetitions, "failed") +
                    " (" + FailedHow(row) + ")");
  }
  return notes;
}

std::string RenderProbesText(const nlohmann::json& context, const std::vector<ProbeRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const ProbeRow& row : rows) {
    if (row.repetitions > 0) repetitions.push_back(row.repetitions);
  }
  out << RenderEnvironmentHeader(context, kUnitsMebibytes) << MeansLine(repetitions, "");
  for (size_t i = 0; i < rows.size();) {
    const std::string& probe = rows[i].probe;
    const std::string title = ProbeTitle(probe);
    out << (title.empty() ? probe : title) << "\n";
    std::vector<std::string> notes;
    for (; i < rows.size() && rows[i].probe == probe; ++i) {
      const std::string label = rows[i].label.empty() ? rows[i].identifier : rows[i].label;
      out << RenderProbeRow(label, rows[i]) << "\n";
      for (std::string& n : ProbeNotes(label, rows[i])) notes.push_back(std::move(n));
    }
    for (const std::string& n : notes) out << n << "\n";
  }
  return out.str();
}

bool RenderProbesReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                        std::string* err) {
  return RenderSuiteReport(
      doc, format, {"probes", {"nick"}}, ProbeRecordsFromDocument, AggregateProbeRows,
      [&](std::vector<ProbeRow> rows) {
        InsertFailedRows(
            doc, "probe", &rows,
            [](const ProbeRow& r, const nlohmann::json& key) {
              return key.is_string() && r.probe == key.get<std::string>();
            },
            [](const nlohmann::json& key) {
              ProbeRow row;
              row.probe = key.is_string() ? key.get<std::string>() : std::string();
              return row;
            });
        return RenderProbesText(doc.context, rows);
      },
      text, err);
}

}  // namespace elevbench
