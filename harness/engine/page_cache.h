#pragma once
// Evicting a probe's own files from the page cache, so that it reads them from the disk beside
// its load, without the global drop (/proc/sys/vm/drop_caches) that needs root and touches every
// other process's cache. Dentries and inodes stay cached: only a global drop evicts metadata.

#include <cstdint>
#include <string>
#include <vector>

namespace elevbench {

/// posix_fadvise(POSIX_FADV_DONTNEED) over each whole file: the kernel drops its clean pages
/// (dirty ones are written back first and may stay; write and fsync files before evicting them).
/// Files that cannot be opened are skipped (a probe's tree may lose files while it runs).
/// Returns how many files were advised.
uint64_t EvictFilesFromPageCache(const std::vector<std::string>& paths);

/// The same for every regular file below `root` (symlinks are not followed). Returns how many
/// files were advised; 0 when root does not exist.
uint64_t EvictTreeFromPageCache(const std::string& root);

}  // namespace elevbench
