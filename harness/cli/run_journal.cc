#include "harness/cli/run_journal.h"

#include <unistd.h>

#include <vector>

#include "harness/cli/cli.h"

namespace elevbench {

bool JournalGuard::Restore() {
  if (!journal_->is_open() || journal_->entries().empty()) return true;
  std::vector<std::string> log;
  std::string err;
  if (!journal_->RestoreAll(&log, &err)) {
    PrintError("restore incomplete: " + err + " (run 'elevbench restore')");
    return false;
  }
  return true;
}

int OpenCommandJournal(RestoreJournal* journal, Progress* progress, const std::string& owner) {
  const std::string state_dir = DefaultStateDir();
  std::vector<std::string> log;
  std::string err;
  const bool leftover = access((state_dir + "/" + RestoreJournal::kJournalFile).c_str(), F_OK) == 0;
  if (leftover && !RestoreJournal::ApplyLeftoverJournal(state_dir, &log, &err)) {
    PrintError("cannot restore what an earlier run left: " + err);
    return kExitFailure;
  }
  if (leftover) {
    progress->Note("elevbench: restored what an earlier run left behind (" +
                   std::to_string(log.size()) + " steps):");
    for (const std::string& line : log) progress->Note("  " + line);
  }
  if (!journal->Open(state_dir, owner, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  return -1;
}

}  // namespace elevbench
