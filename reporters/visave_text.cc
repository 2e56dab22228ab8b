#include "reporters/visave_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/suite_report.h"

namespace elevbench {

int VisaveDecimals(const std::vector<double>& seconds) {
  double smallest = 0;
  for (double s : seconds) {
    if (std::isfinite(s) && s > 0 && (smallest == 0 || s < smallest)) smallest = s;
  }
  if (smallest == 0) return 3;
  return std::clamp(static_cast<int>(std::ceil(std::log10(5 / smallest) - 1e-12)), 0, 6);
}

std::string TruncatedDecimal(double value, int decimals) {
  if (!std::isfinite(value) || value < 0) value = 0;
  const double scale = std::pow(10.0, decimals);
  const double steps = std::floor(value * scale + 1e-9);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, steps / scale);
  return buf;
}

std::string VisaveLine(const std::string& label, const VisaveRow& row) {
  const std::vector<double>& seconds = row.save_seconds;
  if (row.repetitions == 0) return label + " failed";  // no record: every cell failed
  if (seconds.empty()) return label + " (no saves)";
  const int decimals = VisaveDecimals(seconds);
  std::string line = label + " ";
  for (size_t i = 0; i < seconds.size(); ++i) {
    line += (i > 0 ? "," : "") + TruncatedDecimal(seconds[i], decimals);
  }
  return line + " = " + TruncatedDecimal(row.mean_save_seconds, decimals + 1) + " avg";
}

std::string RenderVisaveText(const nlohmann::json& context, const nlohmann::json& parameters,
                             const std::vector<VisaveRow>& rows) {
  std::ostringstream out;
  out << RenderEnvironmentHeader(context, kUnitsMebibytes);
  const uint64_t bytes = parameters.value("file_bytes", uint64_t{200});
  const double interval = parameters.value("interval_seconds", 0.0);
  char every[64];
  std::snprintf(every, sizeof every, "%g", interval);
  out << "vi-style saves of a " << bytes << "-byte file (new file, fsync, rename over the old), "
      << every << " s apart, during a buffered streaming write; seconds per save:\n";
  for (const VisaveRow& row : rows) {
    const std::string label = row.label.empty() ? row.identifier : row.label;
    out << "\n" << VisaveLine(label, row) << "\n";
  }
  if (!rows.empty()) {
    // Buffered: the writer's rate is the page cache's, not the disk's.
    out << "\nbuffered writer into the page cache:";
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string label = rows[i].label.empty() ? rows[i].identifier : rows[i].label;
      if (rows[i].repetitions == 0) {
        out << (i > 0 ? "," : "") << " " << label << " failed";
        continue;
      }
      char mb[32];
      std::snprintf(mb, sizeof mb, "%.1f", rows[i].load_mb_s);
      // A writer faster than the emulated disk can write was filling the page cache.
      out << (i > 0 ? "," : "") << " " << label << " " << mb << " MB/s";
    }
    out << "\n";
  }
  return out.str();
}

bool RenderVisaveReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                        std::string* err) {
  return RenderSuiteReport(
      doc, format, {"visave", {"lkml"}}, VisaveRecordsFromDocument, AggregateVisaveRows,
      [&](std::vector<VisaveRow> rows) {
        InsertFailedRows(
            doc, "", &rows, [](const VisaveRow&, const nlohmann::json&) { return true; },
            [](const nlohmann::json&) { return VisaveRow{}; });
        return RenderVisaveText(doc.context, doc.parameters, rows);
      },
      text, err);
}

}  // namespace elevbench
