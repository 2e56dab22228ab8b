#include "reporters/command_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/gnu_time.h"
#include "reporters/probes_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {
namespace {

uint32_t CommandFinished(const CommandRow& row) { return row.repetitions - row.dnf - row.failed; }

std::string CommandLoadText(const CommandRow& row) {
  if (row.load.empty() || row.load == "none") return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "; load %.1f MB/s at the device", row.load_device_mb_s);
  return buf;
}

// "; its bios p99 read 12.3 ms, write 4.5 ms" when the program's bios were traced; why not,
// when elevbench knows.
std::string CommandBiosText(const CommandRow& row) {
  if (row.traced == 0)
    return row.untraced_why.empty() ? "" : "; its bios not traced: " + row.untraced_why;
  std::string text;
  char buf[64];
  for (const auto& [name, h] :
       {std::pair<const char*, const LatencyHistogram*>{"read", &row.kernel_read},
        {"write", &row.kernel_write}}) {
    if (h->count() == 0) continue;
    std::snprintf(buf, sizeof buf, "%s %s %.1f ms", text.empty() ? "; its bios p99" : ",", name,
                  static_cast<double>(h->ValueAtPercentile(99)) / 1e6);
    text += buf;
  }
  return text;
}

// What the load was: its name, or the user's own command in backquotes.
std::string CommandDuring(const CommandRow& row) {
  return row.load == "command" ? "`" + row.load_command + "`" : row.load;
}

std::string CommandCount(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", std::round(value));
  return buf;
}

}  // namespace

std::string RenderCommandRow(const std::string& label, const CommandRow& row) {
  if (row.repetitions == 0) return label + " - failed";  // no record: every cell failed
  if (CommandFinished(row) > 0) {
    return label + " - " +
           GnuTimeCutLine(row.user_seconds, row.system_seconds, row.elapsed_seconds) + " " +
           CommandCount(row.major_faults) + "major " + CommandCount(row.minor_faults) +
           "minor, read " + ProbeBytesText(static_cast<uint64_t>(std::llround(row.read_bytes))) +
           ", wrote " + ProbeBytesText(static_cast<uint64_t>(std::llround(row.written_bytes))) +
           CommandBiosText(row) + CommandLoadText(row);
  }
  if (row.dnf > 0) return label + " - N/A" + CommandLoadText(row);
  return label + " - failed (" + row.failed_how + ")" + CommandLoadText(row);
}

std::vector<std::string> CommandNotes(const std::string& label, const CommandRow& row) {
  std::vector<std::string> notes;
  if (row.dnf > 0) {
    std::string note = "* " + label + ": " + HowManyText(row.dnf, row.repetitions, "DNF");
    if (row.timeout_seconds > 0) note += " after " + ProbeTimeoutText(row.timeout_seconds);
    notes.push_back(note);
  }
  if (row.failed > 0) {
    std::string note = "* " + label + ": " + HowManyText(row.failed, row.repetitions, "failed") +
                       " (" + row.failed_how +
                       (row.failed_stderr.empty() ? "" : ": " + row.failed_stderr) + ")";
    notes.push_back(note);
  }
  return notes;
}

std::string RenderCommandText(const nlohmann::json& context, const std::string& setup,
                              const std::vector<CommandRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const CommandRow& row : rows) {
    if (row.repetitions > 0) repetitions.push_back(row.repetitions);
  }
  out << RenderEnvironmentHeader(context, kUnitsMebibytes) << MeansLine(repetitions, "");
  if (rows.empty()) return out.str();
  // The command's words from a row that has records (a failed configuration's row has none).
  const CommandRow& first = *std::find_if(rows.begin(), rows.end() - 1,
                                          [](const CommandRow& r) { return r.repetitions > 0; });
  out << first.command
      << (first.load.empty() || first.load == "none" ? "" : " during " + CommandDuring(first))
      << "\n";
  if (!setup.empty()) out << "(set-up before each run: " << setup << ")\n";
  std::vector<std::string> notes;
  for (const CommandRow& row : rows) {
    const std::string label = row.label.empty() ? row.identifier : row.label;
    out << RenderCommandRow(label, row) << "\n";
    for (std::string& n : CommandNotes(label, row)) notes.push_back(std::move(n));
  }
  for (const std::string& n : notes) out << n << "\n";
  return out.str();
}

bool RenderCommandReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  const auto setup = doc.parameters.find("setup");
  const std::string setup_text =
      setup != doc.parameters.end() && setup->is_string() ? setup->get<std::string>() : "";
  return RenderSuiteReport(
      doc, format, {"command", {"nick"}}, CommandRecordsFromDocument, AggregateCommandRows,
      [&](std::vector<CommandRow> rows) {
        InsertFailedRows(
            doc, "", &rows, [](const CommandRow&, const nlohmann::json&) { return true; },
            [](const nlohmann::json&) { return CommandRow{}; });
        return RenderCommandText(doc.context, setup_text, rows);
      },
      text, err);
}

}  // namespace elevbench
