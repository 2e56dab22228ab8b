#pragma once
// A file saved the way vi saves it (seed 003, lkml 2005: `vi -c '%s/a/aa/g' -c '%s/aa/a/g'
// -c 'x' somefile` under a heavy writer): the whole text written to a new file beside the old
// one, the new file fsync'ed, then renamed over the old. The fsync is what waits behind the
// writer's dirty data in the elevator; the 2005 reporter saw 7 to 23 seconds per save.
//
// Done in-process, not by a forked helper: a helper's own start-up would read its program from
// the disk under load (that is what Morton's tests #2/#3 measure) and blur the save's cost, and
// in-process each step is timed on its own.

#include <cstdint>
#include <string>

namespace elevbench {

/// How long one save took and what it cost this thread.
struct SaveTiming {
  double wall_seconds = 0;    ///< CLOCK_MONOTONIC from the open of the new file to the rename
  double write_seconds = 0;   ///< open(O_CREAT|O_EXCL) + write of the whole text
  double fsync_seconds = 0;   ///< fsync of the new file
  double rename_seconds = 0;  ///< close + rename over the old file
  double user_seconds = 0;    ///< getrusage(RUSAGE_THREAD) differences over the save
  double system_seconds = 0;
  int64_t block_input_ops = 0;
  int64_t block_output_ops = 0;
  int64_t voluntary_switches = 0;  ///< mostly: the waits of the fsync
  int64_t involuntary_switches = 0;
};

/// The name of the new file a save writes before renaming it over `path`: path + ".elevbench~".
std::string ViSaveTempPath(const std::string& path);

/// Writes `content` to ViSaveTempPath(path) (created new, mode 0644; a leftover of an earlier
/// interrupted save is removed first), fsyncs it, closes it and renames it over `path` (which
/// need not exist). The directory is not fsync'ed, as vi does not. On failure the new file is
/// removed, `path` is left as it was, and err names the failing step ("fsync <file>: <reason>").
[[nodiscard]] bool ViStyleSave(const std::string& path, const std::string& content,
                               SaveTiming* timing, std::string* err);

/// The 200 bytes the 2005 test saved: lines of text with plenty of 'a's (vi's two substitutions
/// give the same text back, so every save writes the same bytes), ending in a newline.
std::string ViSaveContent(size_t bytes = 200);

}  // namespace elevbench
