#pragma once
// The journal's life in a command that changes the machine (`run`, `capture`): undo what an
// earlier run left, take the journal's lock, and undo everything on every exit path.

#include <functional>
#include <string>
#include <utility>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"

namespace elevbench {

/// Undoes the journal when the command ends, however it ends (or earlier, by Restore()).
class JournalGuard {
 public:
  /// `report` gets the one line a failed restore says ("restore incomplete: … (run 'elevbench
  /// restore')"), also from the destructor, where nothing can be returned: the CLI prints it
  /// as its errors.
  JournalGuard(RestoreJournal* journal, std::function<void(const std::string& line)> report)
      : journal_(journal), report_(std::move(report)) {}
  ~JournalGuard() { Restore(); }
  JournalGuard(const JournalGuard&) = delete;
  JournalGuard& operator=(const JournalGuard&) = delete;
  /// Restores every entry; false (and the line given to `report`) when some could not be.
  /// Idempotent: a journal with no entries left has nothing to do.
  bool Restore();

 private:
  RestoreJournal* journal_;
  std::function<void(const std::string& line)> report_;
};

/// Applies a leftover journal of an earlier run (saying so through `progress`), then opens the
/// journal in the default state directory for `owner` ("elevbench run (pid 42)"), which takes
/// its lock: before the command changes anything. False with err (one line) when the leftover
/// could not be undone or the journal not opened.
[[nodiscard]] bool OpenCommandJournal(RestoreJournal* journal, Progress* progress,
                                      const std::string& owner, std::string* err);

}  // namespace elevbench
