#pragma once
// A deterministic, compilable C tree for contest's foreground job (docs/legacy-suites.md
// §2.2: a kernel compile, `make -j4 bzImage` on a uniprocessor). The 2003 job compiled
// linux-2.4.19; what matters for an I/O scheduler is its shape: many .c files, each including
// many shared headers (so every compiler reads a large set of small files, mostly from the page
// cache), objects written next to the sources, per-directory `ld -r` links and one final link,
// all driven by `make -j`. This generator gives that shape with valid C (gcc -O2 -Wall builds it
// without a warning) at a size chosen for the run (docs/contest.md has the sizing measurement).
//
// The text of docs/source-tree.md's tree is not C, so this is a separate generator; it shares
// that tree's deterministic randomness and kernel words (source_tree_internal.h).

#include <cstdint>
#include <string>
#include <vector>

namespace elevbench {

/// C files of the default compile tree: contest's no_load of it takes about a minute on one CPU
/// of the development machine (62 s measured under `taskset -c 1`, docs/contest.md "Sizing"),
/// as Nick's 2003 no_load did (69 s).
inline constexpr uint32_t kDefaultCompileTreeCFiles = 330;

/// What to generate.
struct CompileTreeSpec {
  uint32_t c_files = kDefaultCompileTreeCFiles;  ///< translation units, at least 1
  uint64_t seed = 1;                             ///< names and code; same seed, same tree
};

/// One generated file: its path relative to the root and its whole text.
struct CompileTreeFile {
  std::string path;
  std::string text;
};

/// A generated tree, held in memory (about 6 KB per C file with its share of headers).
struct CompileTree {
  std::vector<std::string> directories;  ///< to create, parents first ("include", "fs/ext2")
  std::vector<CompileTreeFile> files;    ///< the Makefile, headers and C files
  /// What `make` writes: every object, each directory's built-in.o and the final `vmlinux`.
  /// Removing them is the tree's `make clean`.
  std::vector<std::string> products;
  uint32_t c_files = 0;
  uint32_t headers = 0;
  uint64_t source_bytes = 0;  ///< sum of the files' sizes
  uint64_t seed = 0;
};

/// Plans and generates the tree. Pure: the same spec gives the same paths and bytes everywhere.
/// Headers live under include/linux, include/asm and include/net (one per three C files, at
/// least 12), each guarded and including up to three earlier headers, with structs that embed
/// those headers' structs, macros, extern declarations and static inline functions. C files are
/// spread over kernel-like directories (kernel, mm, fs/..., drivers/..., net/..., arch/i386/...)
/// and include 12-30 headers each; every function they define is reachable from one global
/// function per file, so the compiler generates code for all of it. init/main.c holds main().
CompileTree PlanCompileTree(const CompileTreeSpec& spec);

/// Bytes a built tree of `c_files` occupies on disk: sources, objects and links, with room for
/// small files' blocks. An upper estimate, for sizing scratch devices.
uint64_t CompileTreeBytesNeeded(uint32_t c_files);

/// Writes `tree` under `root` (an empty or missing directory; its parent must exist), then one
/// syncfs() so the compile starts from files on disk. err names the path on the first failure;
/// what was written stays, for the caller to remove.
[[nodiscard]] bool WriteCompileTree(const CompileTree& tree, const std::string& root,
                                    std::string* err);

/// The tree's `make clean`: unlinks every product under `root` (missing ones are fine). err
/// names the first product that could not be removed.
[[nodiscard]] bool RemoveCompileProducts(const CompileTree& tree, const std::string& root,
                                         std::string* err);

}  // namespace elevbench
