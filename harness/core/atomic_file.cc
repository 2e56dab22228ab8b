#include "harness/core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace elevbench {

bool CheckParentFolderExists(const std::string& flag, const std::string& path, std::string* err,
                             const std::string& example) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const std::string folder = path.ends_with('/') ? path.substr(0, path.size() - 1) : path;
    *err =
        flag + " " + path + " is a directory; give a file name such as " + folder + "/" + example;
    return false;
  }
  const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
  if (!ec && std::filesystem::is_directory(folder, ec)) return true;
  *err = flag + " " + path + ": no folder " + folder.string() + " to write it in";
  return false;
}

bool FsyncDirectory(const std::string& dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = fsync(fd) == 0;
  close(fd);
  return ok;
}

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* err) {
  return WriteFileAtomically(
      path, [content](const ContentSink& sink) { sink(content); }, err);
}

bool WriteFileAtomically(const std::string& path, const ContentProducer& produce,
                         std::string* err) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = dir + "/." + base + ".XXXXXX";
  int fd = mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) {
    *err = "cannot write " + path + ": " + strerror(errno);
    return false;
  }
  fchmod(fd, 0644);
  bool ok = true;
  int write_errno = 0;  // a failed write's errno: the producer may run on and change errno
  auto write_all = [&](std::string_view piece) {
    size_t done = 0;
    while (ok && done < piece.size()) {
      ssize_t n = write(fd, piece.data() + done, piece.size() - done);
      if (n < 0 && errno == EINTR) continue;
      ok = n > 0;
      if (ok) done += static_cast<size_t>(n);
      if (!ok) write_errno = n < 0 ? errno : EIO;
    }
  };
  // Small pieces are gathered into writes of about kWriteChunk bytes; a failed write ends the
  // writing (the producer still runs to its end, its pieces dropped).
  constexpr size_t kWriteChunk = 64 * 1024;
  std::string buffer;
  const ContentSink sink = [&](std::string_view piece) {
    if (!ok) return;
    if (buffer.size() + piece.size() < kWriteChunk) {
      if (buffer.capacity() < kWriteChunk) buffer.reserve(kWriteChunk);
      buffer.append(piece);
      return;
    }
    write_all(buffer);
    buffer.clear();
    write_all(piece);
  };
  try {
    produce(sink);
  } catch (...) {
    close(fd);
    unlink(tmp.c_str());
    throw;
  }
  write_all(buffer);
  ok = ok && fsync(fd) == 0;
  ok = (close(fd) == 0) && ok;
  ok = ok && rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) {
    *err = "cannot write " + path + ": " + strerror(write_errno != 0 ? write_errno : errno);
    unlink(tmp.c_str());
    return false;
  }
  FsyncDirectory(dir);  // make the rename itself durable
  return true;
}

bool ReadWholeFile(const std::string& path, std::string* content, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = "cannot read " + path + ": " + strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  *content = ss.str();
  return true;
}

}  // namespace elevbench
