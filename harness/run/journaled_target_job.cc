#include "harness/run/journaled_target_job.h"

#include <unistd.h>

#include <utility>

#include "harness/core/interrupt.h"

namespace elevbench {

JournaledTargetJob::JournaledTargetJob(std::string command,
                                       std::function<void(const std::string& line)> report_error)
    : command_(std::move(command)),
      report_error_(std::move(report_error)),
      progress_(Progress::ForStderr()) {}

bool JournaledTargetJob::OpenJournal(std::string* err) {
  InstallInterruptHandlers();
  return OpenCommandJournal(&journal_, &progress_,
                            "elevbench " + command_ + " (pid " + std::to_string(getpid()) + ")",
                            err);
}

bool JournaledTargetJob::Restore() { return guard_.Restore(); }

}  // namespace elevbench
