#pragma once
// The journal's life in a command that changes the machine (`run`, `capture`): undo what an
// earlier run left, take the journal's lock, and undo everything on every exit path.

#include <string>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"

namespace elevbench {

/// Undoes the journal when the command ends, however it ends (or earlier, by Restore()).
class JournalGuard {
 public:
  explicit JournalGuard(RestoreJournal* journal) : journal_(journal) {}
  ~JournalGuard() { Restore(); }
  JournalGuard(const JournalGuard&) = delete;
  JournalGuard& operator=(const JournalGuard&) = delete;
  /// Restores every entry; false (and one error line on stderr) when some could not be.
  bool Restore();

 private:
  RestoreJournal* journal_;
};

/// Applies a leftover journal of an earlier run (saying so through `progress`), then opens the
/// journal in the default state directory for `owner` ("elevbench run (pid 42)"). Returns -1
/// when open, else the exit code after printing the error.
int OpenCommandJournal(RestoreJournal* journal, Progress* progress, const std::string& owner);

}  // namespace elevbench
