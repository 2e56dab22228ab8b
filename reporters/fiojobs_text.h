#pragma once
// `run fio`'s report: per job file, the job table (reporters/job_table.h) of every job,
// configuration and direction, repetitions combined by the suite
// (scenarios/fiojobs/fiojobs_aggregate.h).

#include <string>

#include "harness/results/results_document.h"

namespace elevbench {

/// The suite's renderer (SuiteRenderer): format "table" only.
[[nodiscard]] bool RenderFioJobsReport(const ResultsDocument& doc, const std::string& format,
                                       std::string* text, std::string* err);

}  // namespace elevbench
