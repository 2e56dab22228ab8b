// libFuzzer target: the restore journal (journal.json) as `elevbench restore` and the next run
// read it, through the pure reader ParseJournal: nothing is restored, no file is touched.
// Every entry it accepts must pass the same checks as a recorded one.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "harness/device/restore_journal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  elevbench::JournalContents contents;
  std::string err;
  if (!elevbench::ParseJournal(elevbench::fuzz::AsText(data, size), "journal.json", &contents,
                               &err)) {
    return 0;
  }
  for (const elevbench::JournalEntry& e : contents.entries) {
    // An accepted entry names an absolute path (or a process other than init).
    if (e.kind == elevbench::JournalEntryKind::kProcess ? e.pid <= 1
                                                        : (e.path.empty() || e.path[0] != '/')) {
      std::abort();
    }
    (void)elevbench::KindName(e.kind);
  }
  return 0;
}
