#pragma once
// The cold start of a real program from the target filesystem: Andrew Morton's 2003 tests #2
// and #3 timed `ssh testbox xterm -e true` (log in and pop up an X client on the box under
// load). Here the program, its shared libraries (from `ldd`) and its dynamic loader are copied
// onto the target, evicted from the page cache, and run through the copied loader with
// `--library-path` (and `--inhibit-cache`, so not even /etc/ld.so.cache is read from the root
// disk): every page the start faults in comes from the target, beside the load.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace elevbench {

/// What `ldd PROGRAM` listed.
struct LddListing {
  /// (soname, resolved path) of every library with a path, in ldd's order:
  /// "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" gives ("libc.so.6", "/lib/...").
  std::vector<std::pair<std::string, std::string>> libraries;
  /// The dynamic loader, the absolute path on a line without "=>" ("/lib64/ld-linux-x86-64.so.2").
  std::string loader;
};

/// Parses ldd's output. Lines without a path (linux-vdso.so.1) are skipped. False with err on a
/// library ldd could not find ("libfoo.so.1 => not found") and when no loader is listed (a
/// static program: "not a dynamic executable").
[[nodiscard]] bool ParseLddOutput(const std::string& text, LddListing* listing, std::string* err);

/// A program copied for cold starts.
struct ColdStartProgram {
  std::string source;              ///< the program as found in PATH ("/usr/bin/ssh")
  std::vector<std::string> args;   ///< its arguments ("-V")
  std::string root;                ///< the directory holding the copy
  std::string binary;              ///< root/bin/<name>
  std::string library_dir;         ///< root/lib: every library under its soname
  std::string loader;              ///< root/lib/<the loader's file name>
  std::vector<std::string> files;  ///< every copied file: binary, loader, libraries
  uint64_t bytes = 0;              ///< their total size
};

/// Copies `program` (a path, or a name searched in PATH), every library `ldd` lists for it and
/// its loader into `root` (made if missing; its parent must exist), each file's content
/// (symlinks followed) with mode 0755, fsync'ed so that evicting it leaves nothing cached. False
/// with a one-line err when the program is not found, ldd fails or lists a missing library, the
/// program is static, or a copy fails.
[[nodiscard]] bool CopyProgramForColdStart(const std::string& program,
                                           const std::vector<std::string>& args,
                                           const std::string& root, ColdStartProgram* out,
                                           std::string* err);

/// The command that starts the copy: {loader, "--inhibit-cache", "--library-path", library_dir,
/// binary, args...}.
std::vector<std::string> ColdStartArgv(const ColdStartProgram& program);

/// The program as a shell would show it: "ssh -V" (its file name and its arguments).
std::string ColdStartCommandText(const ColdStartProgram& program);

}  // namespace elevbench
