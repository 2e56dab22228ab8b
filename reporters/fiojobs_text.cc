#include "reporters/fiojobs_text.h"

#include <algorithm>
#include <cstdio>

#include "reporters/environment_text.h"
#include "reporters/job_table.h"
#include "reporters/suite_report.h"
#include "scenarios/fiojobs/fiojobs_aggregate.h"

namespace elevbench {
namespace {

// A configuration with cells but no row in the table (every cell failed): one row that says so.
std::string FailedFioJobsRows(const ResultsDocument& doc, const FioJobsTable& table) {
  std::string out;
  for (const auto& identifier_key : CellVariantKeys(doc, "")) {
    const std::string& identifier = identifier_key.first;  // named: the lambda captures it
    const bool has_rows =
        std::any_of(table.rows.begin(), table.rows.end(),
                    [&](const FioJobsRow& r) { return r.configuration == identifier; });
    if (has_rows) continue;
    char line[256];
    std::snprintf(line, sizeof line, "%-20s %-24s failed\n", "(every job)", identifier.c_str());
    out += line;
  }
  return out;
}

}  // namespace

bool RenderFioJobsReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  if (!CheckSuiteFormat({"fio", {"table"}}, format, err)) return false;
  std::vector<FioJobsRecord> records;
  if (!FioJobsRecordsFromDocument(doc, &records, err)) return false;
  const DiskRates disk{EmulatedMediaRateMbS(doc.context, false),
                       EmulatedMediaRateMbS(doc.context, true)};
  std::string out = RenderEnvironmentHeader(doc.context, kUnitsMebibytes);
  for (const FioJobsTable& table : AggregateFioJobsTables(records, IdentifierOrder(doc))) {
    out += "\nfio jobs of " + table.job_file +
           " (MB/s and IOPS: harmonic means over the repetitions; latency percentiles over "
           "every I/O)\n" +
           RenderJobTable(table.rows, disk) + FailedFioJobsRows(doc, table);
  }
  *text = std::move(out);
  return true;
}

}  // namespace elevbench
