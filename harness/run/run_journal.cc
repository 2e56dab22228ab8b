#include "harness/run/run_journal.h"

#include <unistd.h>

#include <vector>

#include "harness/core/error.h"

namespace elevbench {

bool JournalGuard::Restore() {
  if (!journal_->is_open() || journal_->entries().empty()) return true;
  std::vector<std::string> log;
  std::string err;
  if (!journal_->RestoreAll(&log, &err)) {
    if (report_) report_("restore incomplete: " + err + " (run 'elevbench restore')");
    return false;
  }
  return true;
}

bool OpenCommandJournal(RestoreJournal* journal, Progress* progress, const std::string& owner,
                        std::string* err) {
  const std::string state_dir = DefaultStateDir();
  std::vector<std::string> log;
  const bool leftover = access((state_dir + "/" + RestoreJournal::kJournalFile).c_str(), F_OK) == 0;
  if (leftover && !RestoreJournal::ApplyLeftoverJournal(state_dir, &log, err)) {
    return Fail(err, "cannot restore what an earlier run left: " + *err);
  }
  if (leftover) {
    progress->Note("elevbench: restored what an earlier run left behind (" +
                   std::to_string(log.size()) + " steps):");
    for (const std::string& line : log) progress->Note("  " + line);
  }
  return journal->Open(state_dir, owner, err);
}

}  // namespace elevbench
