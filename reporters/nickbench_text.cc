#include "reporters/nickbench_text.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {

std::string NickbenchMetricText(int bench, double metric) {
  char buf[64];
  if (bench == 5) {
    std::snprintf(buf, sizeof buf, "%f us/MiB", metric);  // the seed said "us/B": wrong
  } else if (bench == 6) {
    std::snprintf(buf, sizeof buf, "%.2g", metric);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f", metric);
  }
  return buf;
}

std::string RenderNickbenchRow(const std::string& label, int bench, double io_rate_mb_s,
                               double metric, double disk_mb_s) {
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.2f", io_rate_mb_s);
  std::string name = NickbenchMetricName(bench);
  if (name.empty()) name = "Metric";
  return label + " - IO Rate: " + rate + " MB/s" + PageCacheMark(io_rate_mb_s, disk_mb_s) + ", " +
         name + ": " + NickbenchMetricText(bench, metric);
}

std::string RenderNickbenchText(const nlohmann::json& context,
                                const std::vector<NickbenchRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const NickbenchRow& row : rows) {
    if (row.repetitions > 0) repetitions.push_back(row.repetitions);
  }
  const uint32_t requested = RequestedRepetitions(context);
  out << RenderEnvironmentHeader(context, kUnitsMebibytes) << kNickbenchHeading << "\n"
      << MeansLine(repetitions, "IO Rate is a harmonic mean");
  // The streams' aggregate cannot pass the faster of the disk's two media rates.
  const double disk =
      std::max(EmulatedMediaRateMbS(context, false), EmulatedMediaRateMbS(context, true));
  int bench = -1;
  for (const NickbenchRow& row : rows) {
    if (row.bench != bench) {
      bench = row.bench;
      const std::string title = NickbenchTitle(bench);
      out << (title.empty() ? "Bench " + std::to_string(bench) : title) << "\n";
    }
    const std::string& label = row.label.empty() ? row.identifier : row.label;
    if (row.repetitions == 0) {  // every cell failed: "Failed cells" below says why
      out << label << " - failed\n";
      continue;
    }
    out << RenderNickbenchRow(label, row.bench, row.io_rate_mb_s, row.metric, disk)
        << ShortRowMark(row.repetitions, requested) << "\n";
  }
  return out.str();
}

bool RenderNickbenchReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                           std::string* err) {
  return RenderSuiteReport(
      doc, format, {"nickbench", {"nick"}}, NickbenchRecordsFromDocument, AggregateNickbenchRows,
      [&](std::vector<NickbenchRow> rows) {
        InsertFailedRows(
            doc, "bench", &rows,
            [](const NickbenchRow& r, const nlohmann::json& key) {
              return key.is_number_integer() && r.bench == key.get<int>();
            },
            [](const nlohmann::json& key) {
              NickbenchRow row;
              row.bench = key.is_number_integer() ? key.get<int>() : 0;
              return row;
            });
        return RenderNickbenchText(doc.context, rows);
      },
      text, err);
}

}  // namespace elevbench
