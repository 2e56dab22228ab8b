#pragma once
// Atomic file replacement: results are rewritten after every cell, so a crash or a signal at any
// moment leaves either the previous complete file or the new complete file, never a torn one.

#include <functional>
#include <string>
#include <string_view>

namespace elevbench {

/// Writes `content` to `path` via a temporary file in the same directory (".<name>.XXXXXX"),
/// fsync, rename, and an fsync of the directory so the rename survives a crash too.
[[nodiscard]] bool WriteFileAtomically(const std::string& path, std::string_view content,
                                       std::string* err);

/// Takes one piece of a file's content (the pieces in order make the file).
using ContentSink = std::function<void(std::string_view piece)>;
/// Produces a file's content by handing it to the sink in pieces.
using ContentProducer = std::function<void(const ContentSink& sink)>;

/// WriteFileAtomically of the content `produce` hands to its sink piece by piece, written out as
/// it comes (in writes of about 64 KiB), so the whole content is never held in memory. After a
/// failed write the remaining pieces are dropped and false is returned. If `produce` throws, the
/// temporary file is removed, `path` is left as it was and the exception propagates.
[[nodiscard]] bool WriteFileAtomically(const std::string& path, const ContentProducer& produce,
                                       std::string* err);

/// fsync(2) of a directory (after a rename or unlink in it); false if it cannot be opened.
bool FsyncDirectory(const std::string& dir);

/// Whether the folder a file named on the command line goes into exists (#45): "--out
/// /nonexistent/dir/x.json" is refused up front, before a run makes anything, where it used to
/// make the folder and run. `flag` names the option in the one-line *err ("--out X: no folder
/// /nonexistent/dir to write it in"). A path that is a folder itself is refused too ("--out X is
/// a directory; give a file name such as X/run.json", `example` the file name): a run made
/// X.fio/ and then failed to write X. Makes nothing.
[[nodiscard]] bool CheckParentFolderExists(const std::string& flag, const std::string& path,
                                           std::string* err,
                                           const std::string& example = "run.json");

/// Reads a whole file. err names the path and the errno text on failure.
[[nodiscard]] bool ReadWholeFile(const std::string& path, std::string* content, std::string* err);

}  // namespace elevbench
