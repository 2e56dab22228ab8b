#pragma once
// `elevbench run fio JOB.fio [JOB.fio …]`: the user's own fio job files as a suite, one
// variant per file, placed on elevbench's target (user_job_file.h) and run under every
// configuration like any other suite (docs/fio-jobs.md).

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the fio job-file suite (the table of suites calls this).
std::unique_ptr<Suite> MakeFioJobsSuite();

}  // namespace elevbench
