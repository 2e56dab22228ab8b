// Writing the compile tree onto the target and its `make clean` (compile_tree.h).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/tree/compile_tree.h"

namespace elevbench {
namespace {

bool WriteWhole(const std::string& path, const std::string& text, std::string* err) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = ErrnoMessage("cannot create", path, errno);
    return false;
  }
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = write(fd, data, left);
    if (n < 0 && errno == EINTR && !InterruptRequested()) continue;
    if (n <= 0) {
      *err = ErrnoMessage("cannot write", path, n < 0 ? errno : EIO);
      close(fd);
      return false;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  if (close(fd) != 0) {
    *err = ErrnoMessage("cannot write", path, errno);
    return false;
  }
  return true;
}

}  // namespace

bool WriteCompileTree(const CompileTree& tree, const std::string& root, std::string* err) {
  std::error_code ec;
  if (std::filesystem::exists(root, ec)) {
    if (!std::filesystem::is_directory(root, ec) || !std::filesystem::is_empty(root, ec)) {
      *err = "compile tree root " + root + " exists and is not an empty directory";
      return false;
    }
  } else if (mkdir(root.c_str(), 0755) != 0) {
    *err = ErrnoMessage("cannot create compile tree root", root, errno);
    return false;
  }
  for (const std::string& d : tree.directories) {
    const std::string path = root + "/" + d;
    if (mkdir(path.c_str(), 0755) != 0) {
      *err = ErrnoMessage("cannot create directory", path, errno);
      return false;
    }
  }
  for (const CompileTreeFile& f : tree.files) {
    if (InterruptRequested()) {
      *err = "interrupted while writing the compile tree under " + root;
      return false;
    }
    if (!WriteWhole(root + "/" + f.path, f.text, err)) return false;
  }
  const int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *err = ErrnoMessage("cannot open", root, errno);
    return false;
  }
  const bool synced = syncfs(fd) == 0;
  const int e = errno;
  close(fd);
  if (!synced) *err = ErrnoMessage("syncfs failed on", root, e);
  return synced;
}

bool RemoveCompileProducts(const CompileTree& tree, const std::string& root, std::string* err) {
  for (const std::string& p : tree.products) {
    const std::string path = root + "/" + p;
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      *err = ErrnoMessage("cannot remove", path, errno);
      return false;
    }
  }
  return true;
}

}  // namespace elevbench
