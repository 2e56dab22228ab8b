#include "reporters/contest_text.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {
namespace {

bool Nick(const std::string& format) { return format == "nick"; }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

}  // namespace

std::string ContestHeader(const std::string& format) {
  return std::string(Nick(format) ? "Kernel     [runs]" : "Kernel         [runs]") +
         "\tTime\tCPU%\tLoads\tLCPU%\tRatio";
}

std::string ContestTimeText(double seconds) {
  char buf[32];
  if (seconds >= kContestWholeSeconds - 0.005) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(seconds)));
  } else {
    std::snprintf(buf, sizeof buf, "%.2f", seconds);
  }
  return buf;
}

std::string RenderContestRow(const std::string& format, const ContestRow& row) {
  const std::string label = row.identifier.empty() ? row.label : row.identifier;
  char head[256];
  std::snprintf(head, sizeof head, Nick(format) ? "%-14s%6u" : "%-15s%6u", label.c_str(), row.runs);
  if (row.runs == 0) return std::string(head) + "\t" + (row.dnf > 0 ? "DNF" : "failed");
  char ratio[32] = "-";
  if (row.ratio >= 0) std::snprintf(ratio, sizeof ratio, "%.2f", row.ratio);
  char tail[256];
  std::snprintf(tail, sizeof tail, "\t%s\t%.1f\t%.1f\t%.1f\t%s",
                ContestTimeText(row.time_seconds).c_str(), row.cpu_percent, row.loads,
                row.lcpu_percent, ratio);
  return std::string(head) + tail;
}

std::vector<std::string> ContestNotes(const std::vector<ContestRow>& rows) {
  std::vector<std::string> notes;
  bool absent = false;
  for (const ContestRow& row : rows) {
    const std::string label = row.identifier.empty() ? row.label : row.identifier;
    if (row.dnf > 0) {
      notes.push_back("* " + label + ": " + HowManyText(row.dnf, row.repetitions, "DNF", "runs") +
                      " (compile stopped after " + Seconds(row.timeout_seconds) + ")");
    }
    if (row.failed > 0) {
      notes.push_back("* " + label + ": " +
                      HowManyText(row.failed, row.repetitions, "failed", "runs") +
                      " (compile exit " + std::to_string(row.failed_exit_code) + ")");
    }
    absent = absent || row.load_absent;
  }
  if (absent) {
    notes.push_back("* " + rows.front().load +
                    ": no --other-dir given, so no load ran (as contest without -o)");
  }
  return notes;
}

std::string RenderContestText(const nlohmann::json& context, const std::vector<ContestRow>& rows,
                              const std::string& format) {
  std::ostringstream out;
  out << RenderEnvironmentHeader(context);
  if (Nick(format)) out << "Contest\n";
  for (size_t i = 0; i < rows.size();) {
    const std::string& load = rows[i].load;
    out << load << ":\n" << ContestHeader(format) << "\n";
    std::vector<ContestRow> block;
    for (; i < rows.size() && rows[i].load == load; ++i) {
      out << RenderContestRow(format, rows[i]) << "\n";
      block.push_back(rows[i]);
    }
    for (const std::string& n : ContestNotes(block)) out << n << "\n";
  }
  return out.str();
}

bool RenderContestReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  if (!CheckSuiteFormat({"contest", {"contest", "nick"}}, format, err)) return false;
  std::vector<ContestRecord> records;
  if (!ContestRecordsFromDocument(doc, &records, err)) return false;
  std::vector<ContestRow> rows = AggregateContestRows(records, IdentifierOrder(doc));
  // A configuration whose cells of a load all failed: a row of no runs, "failed".
  InsertFailedRows(
      doc, "load", &rows,
      [](const ContestRow& r, const nlohmann::json& key) {
        return key.is_string() && r.load == key.get<std::string>();
      },
      [](const nlohmann::json& key) {
        ContestRow row;
        row.load = key.is_string() ? key.get<std::string>() : std::string();
        return row;
      });
  *text = RenderContestText(doc.context, rows, format);
  return true;
}

}  // namespace elevbench
