#include "reporters/fiojobs_text.h"

#include "reporters/environment_text.h"
#include "reporters/job_table.h"
#include "reporters/suite_report.h"
#include "scenarios/fiojobs/fiojobs_aggregate.h"

namespace elevbench {

bool RenderFioJobsReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  if (!CheckSuiteFormat({"fio", {"table"}}, format, err)) return false;
  std::vector<FioJobsRecord> records;
  if (!FioJobsRecordsFromDocument(doc, &records, err)) return false;
  const DiskRates disk{EmulatedMediaRateMbS(doc.context, false),
                       EmulatedMediaRateMbS(doc.context, true)};
  std::string out = RenderEnvironmentHeader(doc.context);
  for (const FioJobsTable& table : AggregateFioJobsTables(records, IdentifierOrder(doc))) {
    out += "\nfio jobs of " + table.job_file +
           " (MB/s and IOPS: harmonic means over the repetitions; latency percentiles over "
           "every I/O)\n" +
           RenderJobTable(table.rows, disk);
  }
  *text = std::move(out);
  return true;
}

}  // namespace elevbench
