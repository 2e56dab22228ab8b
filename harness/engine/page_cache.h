#pragma once
// Evicting a suite's own files from the page cache, so that a read phase or a probe reads them
// from the disk, without the global drop (/proc/sys/vm/drop_caches) that needs root and touches
// every other process's cache. Dentries and inodes stay cached: only a global drop evicts
// metadata. The one place elevbench calls posix_fadvise(DONTNEED).

#include <cstdint>
#include <string>
#include <vector>

namespace elevbench {

/// posix_fadvise(POSIX_FADV_DONTNEED) over the whole file: drops its clean cached pages (dirty
/// ones stay until written back), keeps its metadata cached, needs no root. A file that does not
/// exist has nothing cached: true. Why: a suite that must read from the disk evicts its own files
/// before it starts fio, so the eviction's CPU and time fall in no measured window (fio's
/// invalidate=1 does it inside the job's runtime and CPU). False with err on any other failure:
/// tiobench's files must be evicted, or its read phases would measure the page cache.
[[nodiscard]] bool EvictFileFromPageCache(const std::string& path, std::string* err);

/// The same over each whole file, forgiving: the kernel drops its clean pages
/// (dirty ones are written back first and may stay; write and fsync files before evicting them).
/// Files that cannot be opened are skipped (a probe's tree may lose files while it runs).
/// Returns how many files were advised.
uint64_t EvictFilesFromPageCache(const std::vector<std::string>& paths);

/// The same for every regular file below `root` (symlinks are not followed). Returns how many
/// files were advised; 0 when root does not exist.
uint64_t EvictTreeFromPageCache(const std::string& root);

/// The words with which a suite that drops the clean caches as root (DropCleanCaches) and
/// otherwise evicts its own files' pages says so in its cache policy (Suite::CachePolicy), after
/// what it evicts and when: the same words in every suite that does it.
inline constexpr char kDropOrEvictPolicy[] =
    " (as root: clean page cache, dentries and inodes dropped without a sync; otherwise the "
    "files' pages only)";

}  // namespace elevbench
