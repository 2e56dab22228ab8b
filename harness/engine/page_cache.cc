#include "harness/engine/page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace elevbench {
namespace {

// Opens path with `open_flags` and advises DONTNEED over all of it. 0 when done; otherwise the
// error number of open (*opened false) or of posix_fadvise (*opened true).
int AdviseDontNeed(const std::string& path, int open_flags, bool* opened) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | open_flags);
  *opened = fd >= 0;
  if (fd < 0) return errno;
  const int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);  // returns the error number
  close(fd);
  return rc;
}

// A probe's file: symlinks are not followed, and a file that cannot be opened is skipped.
bool EvictOne(const std::string& path) {
  bool opened = false;
  (void)AdviseDontNeed(path, O_NOFOLLOW, &opened);
  return opened;
}

}  // namespace

bool EvictFileFromPageCache(const std::string& path, std::string* err) {
  bool opened = false;
  const int rc = AdviseDontNeed(path, 0, &opened);
  if (rc == 0 || (!opened && rc == ENOENT)) return true;
  *err = opened ? "posix_fadvise(DONTNEED) on " + path + " failed: " + strerror(rc)
                : "cannot open " + path + " to evict it from the page cache: " + strerror(rc);
  return false;
}

uint64_t EvictFilesFromPageCache(const std::vector<std::string>& paths) {
  uint64_t n = 0;
  for (const std::string& p : paths) n += EvictOne(p) ? 1 : 0;
  return n;
}

uint64_t EvictTreeFromPageCache(const std::string& root) {
  namespace fs = std::filesystem;
  uint64_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && !it->is_symlink(type_ec)) {
      n += EvictOne(it->path().string()) ? 1 : 0;
    }
  }
  return n;
}

}  // namespace elevbench
