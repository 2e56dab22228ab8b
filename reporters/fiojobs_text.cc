#include "reporters/fiojobs_text.h"

#include <algorithm>

#include "reporters/environment_text.h"
#include "reporters/job_table.h"
#include "reporters/suite_report.h"
#include "scenarios/fiojobs/fiojobs_records.h"

namespace elevbench {

bool RenderFioJobsReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  if (!CheckSuiteFormat({"fio", {"table"}}, format, err)) return false;
  std::vector<FioJobsRecord> records;
  if (!FioJobsRecordsFromDocument(doc, &records, err)) return false;
  std::vector<std::string> files;
  for (const FioJobsRecord& r : records) {
    if (std::find(files.begin(), files.end(), r.job_file) == files.end()) {
      files.push_back(r.job_file);
    }
  }
  std::string out = RenderEnvironmentHeader(doc.context);
  for (const std::string& file : files) {
    std::vector<JobTableRow> rows;
    for (const std::string& id : IdentifierOrder(doc)) {
      std::vector<std::vector<JobResult>> repetitions;
      for (const FioJobsRecord& r : records) {
        if (r.job_file == file && r.identifier == id) repetitions.push_back(r.jobs);
      }
      if (repetitions.empty()) continue;
      for (JobTableRow& row : JobTableRows(id, repetitions)) rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const JobTableRow& a, const JobTableRow& b) { return a.job < b.job; });
    out += "\nfio jobs of " + file +
           " (MB/s and IOPS: harmonic means over the repetitions; latency percentiles over "
           "every I/O)\n" +
           RenderJobTable(rows, {EmulatedMediaRateMbS(doc.context, false),
                                 EmulatedMediaRateMbS(doc.context, true)});
  }
  *text = std::move(out);
  return true;
}

}  // namespace elevbench
