#include "harness/engine/page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

namespace elevbench {
namespace {

bool EvictOne(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
  return true;
}

}  // namespace

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
