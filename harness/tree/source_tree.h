#pragma once
// A deterministic kernel-like source tree for the probes that read many small files while a
// streaming load runs: the 2003 lkml "cat kernel source during seq write" test (cat every file,
// ls -lR), and later contest and Andrew Morton's tests (cp -a of trees, find | xargs cat).
//
// The default tree has the size of linux-2.4.19 (142 MB, 11,100 files) and the shape of a real
// kernel tree: depth, files and subdirectories per directory, the mix of file kinds and their
// size distributions were measured on Debian's linux-source-6.1 by scripts/measure-kernel-tree
// and are embedded as constants (docs/source-tree.md). Nothing is read at run time.
//
// Plan and content are pure functions of the spec: the same seed gives the same paths, sizes and
// bytes on every machine (splitmix64 and integer arithmetic; no std:: distributions, no libm).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// What to generate. The defaults give a linux-2.4.19-sized tree.
struct TreeSpec {
  /// Sum of the file sizes; the plan hits it exactly.
  uint64_t total_bytes = 142'000'000;
  /// Seeds names, sizes and content; different seeds give different trees.
  uint64_t seed = 1;
  /// Number of regular files; 0 derives it from total_bytes at kSourceTreeBytesPerFile per file
  /// (11,100 files for the default 142 MB), so smaller trees keep the per-file size mix.
  uint64_t file_count = 0;
};

/// Mean file size of the model (142,000,000 / 11,100): a linux-2.4.19-like tree.
inline constexpr uint64_t kSourceTreeBytesPerFile = 12'793;
/// Files per directory (the top directory counted) of linux-source-6.1: 78,579 / 5,096.
inline constexpr double kSourceTreeFilesPerDirectory = 15.42;

/// The type of a tree entry. Other file types (devices, fifos, sockets) never appear in a plan.
enum class TreeEntryType { kDirectory, kFile, kSymlink };

/// One entry of a tree, relative to its root ("drivers/net/3c59x.c"; never absolute, no "..").
struct TreeEntry {
  TreeEntryType type = TreeEntryType::kFile;
  std::string path;
  /// Size of a regular file; 0 for directories and symlinks.
  uint64_t bytes = 0;
  /// Target of a symlink, verbatim; empty otherwise.
  std::string link_target;
  /// Permission bits. Generated entries use 0755 (directories) and 0644 (files); copied entries
  /// keep the source's bits.
  uint32_t mode = 0644;
};

/// A whole tree in extraction order.
///
/// The order is the byte order of the full relative paths, which is the order of
/// `tar tf /usr/src/linux-source-6.1.tar.xz` (checked by scripts/measure-kernel-tree): every
/// directory comes before the entries below it, and a file "a/b-c" comes between a directory
/// "a/b" and its contents. So writing the entries in order always finds the parent directory
/// already made.
struct TreePlan {
  std::vector<TreeEntry> entries;
  uint64_t total_bytes = 0;      ///< sum of the regular files' sizes
  uint64_t file_count = 0;       ///< regular files
  uint64_t directory_count = 0;  ///< directories, the root not counted
  uint64_t symlink_count = 0;
  /// Content seed: WriteSourceTree generates each file's bytes from it and the file's path.
  uint64_t seed = 0;
};

/// Plans a kernel-like tree. Pure and deterministic: the same spec gives the same plan (paths,
/// sizes, order) on every machine. The top directory holds linux-2.4.19's top-level files and
/// directories (Documentation, arch, drivers, fs, include, ...); below them the depth, the
/// number of files and subdirectories per directory, the kind mix and the per-kind sizes follow
/// linux-source-6.1 scaled to the file count (docs/source-tree.md). Takes 20-30 ms for the
/// default.
TreePlan PlanSourceTree(const TreeSpec& spec);

/// Source-like text for generated files: C for .c/.h, assembler for .S, Makefile and Kconfig
/// lines, prose for documentation. Bytes are printable ASCII, tab and newline only; the last
/// byte of a non-empty file is a newline. Deterministic from (seed, path, size). It compresses
/// like source because it is built from lines of a fixed pool; each file starts with a header
/// naming its path, so no two files are the same.
///
/// Building a generator makes the line pools (about 1 MB, a few milliseconds); opening a stream
/// is cheap. A generator is immutable after construction and can be shared by threads.
class SourceTextGenerator {
  struct Pool;
  struct Pools;

 public:
  explicit SourceTextGenerator(uint64_t seed);
  ~SourceTextGenerator();
  SourceTextGenerator(const SourceTextGenerator&) = delete;
  SourceTextGenerator& operator=(const SourceTextGenerator&) = delete;

  /// The content of one file, read in pieces so that no whole file is ever held. A stream
  /// points into its generator's pools: the generator must outlive it.
  class Stream {
   public:
    /// Copies the next min(cap, remaining()) bytes into `buf` and returns how many (0 at the end).
    size_t Read(char* buf, size_t cap);
    /// Bytes not read yet.
    uint64_t remaining() const { return remaining_; }

   private:
    friend class SourceTextGenerator;
    const Pool* pool_ = nullptr;
    uint64_t rng_ = 0;
    uint64_t remaining_ = 0;
    std::string header_;
    size_t header_pos_ = 0;
    const char* run_ = nullptr;  // the rest of the current run of pool lines
    size_t run_len_ = 0;
  };

  /// Starts the content of the file `path` (as in a plan) of `bytes` bytes. The kind of text
  /// comes from the path's name, as in scripts/measure-kernel-tree.
  Stream Open(std::string_view path, uint64_t bytes) const;

 private:
  std::unique_ptr<Pools> pools_;
};

/// How WriteSourceTree and CopySourceTree finish and report.
struct TreeWriteOptions {
  /// One syncfs() of root's filesystem after the last entry, so that a probe starting next
  /// reads a tree that is on disk rather than dirty in the page cache (drop the caches as well
  /// for a cold tree). syncfs() flushes the whole filesystem, other writers' data too, which is
  /// what a benchmark wants before its timed part; turn it off when the caller syncs itself.
  bool sync = true;
  /// Called after each regular file with the file bytes written so far and the total
  /// (the plan's total; for a copy, the source's total as walked).
  std::function<void(uint64_t done, uint64_t total)> progress;
};

/// Writes `plan` under `root`, which must be an empty directory or not exist (then it is made;
/// its parent must exist). Entries are made in plan order, as tar extracts: mkdir for
/// directories, symlink for symlinks, and for each file one open(O_CREAT|O_EXCL), plain write()
/// calls of up to 64 KiB of generated text (SourceTextGenerator(plan.seed)) and close. No file is
/// fsync'ed on its own (tar does not either); see TreeWriteOptions::sync. Returns false with a
/// one-line `err` naming the path on the first failure, when a plan path is not a plain relative
/// path, or when an interrupt signal arrived (InterruptRequested()); what was written stays, for
/// the caller to remove.
[[nodiscard]] bool WriteSourceTree(const TreePlan& plan, const std::string& root, std::string* err,
                                   const TreeWriteOptions& options = {});

/// Copies a real tree (`--tree DIR`) from `from` onto `root` (same rules for root as
/// WriteSourceTree; root must not lie inside `from`, checked before anything is made).
/// Directories, regular files and symlinks are copied in plan order (byte order of the paths)
/// with their permission bits, file data with read()/write() of 64 KiB; symlink targets are
/// copied verbatim; other file types are skipped; times and owners are not kept. On success
/// `*copied` is the plan of what was copied (seed 0); on failure it is untouched and `err` is one
/// line.
[[nodiscard]] bool CopySourceTree(const std::string& from, const std::string& root,
                                  TreePlan* copied, std::string* err,
                                  const TreeWriteOptions& options = {});

/// A stable SHA-256 digest (64 lowercase hex digits) of the tree under `root`, for tests and
/// the results record. It covers every directory, regular file and symlink below root, in byte
/// order of their relative paths: the SHA-256 of the manifest whose lines are
/// "d <path>", "f <size> <sha256 of the content> <path>" and "l <path> -> <target>", each
/// ending in "\n". Permission bits, owners and times are left out, so a generated tree and a
/// copy of it have the same digest; other file types are left out as CopySourceTree skips them.
[[nodiscard]] bool DigestTree(const std::string& root, std::string* hex, std::string* err);

}  // namespace elevbench
