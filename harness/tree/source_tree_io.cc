// Writing, copying and digesting trees on disk (source_tree.h). The plan is in
// source_tree_plan.cc, the text generator in source_tree_text.cc.

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/tree/source_tree.h"

namespace elevbench {
namespace {

constexpr size_t kChunk = 64 * 1024;  // bytes per write() (and read() when copying)

// ---------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), small and streaming; used only for DigestTree.
// ---------------------------------------------------------------------------------------------

class Sha256 {
 public:
  void Update(const void* data, size_t len) {
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += len;
    while (len > 0) {
      const size_t c = std::min(len, size_t{64} - used_);
      std::memcpy(block_ + used_, p, c);
      used_ += c;
      p += c;
      len -= c;
      if (used_ == 64) {
        Compress();
        used_ = 0;
      }
    }
  }
  void Update(std::string_view s) { Update(s.data(), s.size()); }

  std::string HexDigest() {
    const uint64_t bits = total_ * 8;
    const unsigned char pad = 0x80;
    Update(&pad, 1);
    const unsigned char zero = 0;
    while (used_ != 56) Update(&zero, 1);
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    Update(len, 8);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (uint32_t v : h_) {
      for (int i = 7; i >= 0; --i) out += kHex[(v >> (4 * i)) & 15];
    }
    return out;
  }

 private:
  static uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

  void Compress() {
    static constexpr uint32_t kK[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      w[i] = uint32_t{block_[4 * i]} << 24 | uint32_t{block_[4 * i + 1]} << 16 |
             uint32_t{block_[4 * i + 2]} << 8 | uint32_t{block_[4 * i + 3]};
    }
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 =
          h + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
      const uint32_t t2 = (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
    h_[5] += f;
    h_[6] += g;
    h_[7] += h;
  }

  uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char block_[64] = {};
  size_t used_ = 0;
  uint64_t total_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

bool WriteAll(int fd, const char* data, size_t len, const std::string& path, std::string* err) {
  while (len > 0) {
    const ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR && !InterruptRequested()) continue;
    if (n <= 0) {
      *err = n < 0 && errno == EINTR ? "interrupted while writing " + path
                                     : ErrnoMessage("cannot write", path, n < 0 ? errno : EIO);
      return false;
    }
    data += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

/// Makes `root` ready to receive a tree: an existing empty directory, or a new one.
bool PrepareRoot(const std::string& root, std::string* err) {
  if (root.empty()) {
    *err = "tree root is empty";
    return false;
  }
  struct stat st;
  if (stat(root.c_str(), &st) != 0) {
    if (errno != ENOENT) {
      *err = ErrnoMessage("cannot use tree root", root, errno);
      return false;
    }
    if (mkdir(root.c_str(), 0755) != 0) {
      *err = ErrnoMessage("cannot create tree root", root, errno);
      return false;
    }
    return true;
  }
  if (!S_ISDIR(st.st_mode)) {
    *err = "tree root " + root + " exists and is not a directory";
    return false;
  }
  DIR* dir = opendir(root.c_str());
  if (dir == nullptr) {
    *err = ErrnoMessage("cannot open tree root", root, errno);
    return false;
  }
  bool empty = true;
  while (dirent* d = readdir(dir)) {
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) {
      empty = false;
      break;
    }
  }
  closedir(dir);
  if (!empty) {
    *err = "tree root " + root + " is not empty";
    return false;
  }
  if (access(root.c_str(), W_OK) != 0) {
    *err = ErrnoMessage("cannot write to tree root", root, errno);
    return false;
  }
  return true;
}

/// One syncfs() of the filesystem holding `root`.
bool SyncTree(const std::string& root, std::string* err) {
  const int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *err = ErrnoMessage("cannot open", root, errno);
    return false;
  }
  const bool ok = syncfs(fd) == 0;
  const int e = errno;
  close(fd);
  if (!ok) *err = ErrnoMessage("syncfs failed on", root, e);
  return ok;
}

struct WalkEntry {
  TreeEntryType type;
  std::string path;  // relative
  uint64_t bytes = 0;
  uint32_t mode = 0;
  std::string link_target;
};

/// Every directory, regular file and symlink below `root` (not following symlinks), in byte
/// order of the relative paths. Other file types are left out.
bool WalkTree(const std::string& root, std::vector<WalkEntry>* out, std::string* err) {
  std::vector<std::string> pending = {""};
  while (!pending.empty()) {
    const std::string rel = pending.back();
    pending.pop_back();
    const std::string dir_path = rel.empty() ? root : root + "/" + rel;
    DIR* dir = opendir(dir_path.c_str());
    if (dir == nullptr) {
      *err = ErrnoMessage("cannot read directory", dir_path, errno);
      return false;
    }
    errno = 0;
    while (dirent* d = readdir(dir)) {
      if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
      WalkEntry e;
      e.path = rel.empty() ? d->d_name : rel + "/" + d->d_name;
      const std::string full = root + "/" + e.path;
      struct stat st;
      if (lstat(full.c_str(), &st) != 0) {
        *err = ErrnoMessage("cannot stat", full, errno);
        closedir(dir);
        return false;
      }
      e.mode = st.st_mode & 07777;
      if (S_ISDIR(st.st_mode)) {
        e.type = TreeEntryType::kDirectory;
        pending.push_back(e.path);
      } else if (S_ISREG(st.st_mode)) {
        e.type = TreeEntryType::kFile;
        e.bytes = static_cast<uint64_t>(st.st_size);
      } else if (S_ISLNK(st.st_mode)) {
        e.type = TreeEntryType::kSymlink;
        std::string target(PATH_MAX, '\0');
        const ssize_t n = readlink(full.c_str(), target.data(), target.size());
        if (n < 0) {
          *err = ErrnoMessage("cannot read symlink", full, errno);
          closedir(dir);
          return false;
        }
        target.resize(static_cast<size_t>(n));
        e.link_target = target;
      } else {
        continue;
      }
      out->push_back(std::move(e));
    }
    closedir(dir);
  }
  std::sort(out->begin(), out->end(),
            [](const WalkEntry& a, const WalkEntry& b) { return a.path < b.path; });
  return true;
}

/// The absolute, symlink-free form of `path`; for a path that does not exist yet, that of its
/// parent directory with the last component appended.
bool ResolvePath(const std::string& path, std::string* out, std::string* err) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) != nullptr) {
    *out = buf;
    return true;
  }
  if (errno == ENOENT) {
    std::string p = path;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    const size_t slash = p.rfind('/');
    const std::string parent = slash == std::string::npos ? "."
                               : slash == 0               ? "/"
                                                          : p.substr(0, slash);
    const std::string last = slash == std::string::npos ? p : p.substr(slash + 1);
    if (realpath(parent.c_str(), buf) != nullptr) {
      *out = std::string(buf) + (std::strcmp(buf, "/") == 0 ? "" : "/") + last;
      return true;
    }
  }
  *err = ErrnoMessage("cannot resolve", path, errno);
  return false;
}

bool CheckPlanPath(const std::string& path, std::string* err) {
  bool bad = path.empty() || path[0] == '/';
  size_t start = 0;
  while (!bad && start <= path.size()) {
    const size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part(path.data() + start, end - start);
    bad = part.empty() || part == "." || part == "..";
    start = end + 1;
  }
  if (bad) *err = "plan entry \"" + path + "\" is not a plain relative path";
  return !bad;
}

/// The checks before a copy: `from` is a directory, and `root` does not lie inside it (it would
/// copy itself).
bool CheckTreeCopyEnds(const std::string& from, const std::string& root, std::string* err) {
  struct stat st;
  if (stat(from.c_str(), &st) != 0) {
    *err = ErrnoMessage("cannot read source tree", from, errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    *err = "source tree " + from + " is not a directory";
    return false;
  }
  std::string from_real, root_real;
  if (!ResolvePath(from, &from_real, err) || !ResolvePath(root, &root_real, err)) return false;
  if (root_real == from_real || (root_real.size() > from_real.size() &&
                                 root_real.compare(0, from_real.size(), from_real) == 0 &&
                                 (from_real == "/" || root_real[from_real.size()] == '/'))) {
    *err = "tree root " + root + " lies inside the source tree " + from;
    return false;
  }
  return true;
}

/// Copies the regular file src to the new file dst (mode `mode`) through buf (kChunk bytes),
/// adding the bytes copied to *bytes.
bool CopyTreeFile(const std::string& src, const std::string& dst, uint32_t mode, char* buf,
                  uint64_t* bytes, std::string* err) {
  const int in = open(src.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    *err = ErrnoMessage("cannot read", src, errno);
    return false;
  }
  const int out = open(dst.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) {
    *err = ErrnoMessage("cannot create", dst, errno);
    close(in);
    return false;
  }
  bool ok = true;
  while (ok) {
    const ssize_t n = read(in, buf, kChunk);
    if (n < 0 && errno == EINTR && !InterruptRequested()) continue;
    if (n < 0) {
      *err = errno == EINTR ? "interrupted while reading " + src
                            : ErrnoMessage("cannot read", src, errno);
      ok = false;
    }
    if (n <= 0) break;
    ok = WriteAll(out, buf, static_cast<size_t>(n), dst, err);
    *bytes += static_cast<uint64_t>(n);
  }
  if (ok && fchmod(out, mode) != 0) {
    *err = ErrnoMessage("cannot set the mode of", dst, errno);
    ok = false;
  }
  close(in);
  if (close(out) != 0 && ok) {
    *err = ErrnoMessage("cannot write", dst, errno);
    ok = false;
  }
  return ok;
}

/// The copied directories' modes, deepest first (a read-only directory is filled before).
bool ApplyCopiedDirModes(const std::vector<std::pair<std::string, uint32_t>>& dir_modes,
                         std::string* err) {
  for (auto it = dir_modes.rbegin(); it != dir_modes.rend(); ++it) {
    if (chmod(it->first.c_str(), it->second) != 0) {
      *err = ErrnoMessage("cannot set the mode of", it->first, errno);
      return false;
    }
  }
  return true;
}

}  // namespace

bool WriteSourceTree(const TreePlan& plan, const std::string& root, std::string* err,
                     const TreeWriteOptions& options) {
  for (const TreeEntry& e : plan.entries) {
    if (!CheckPlanPath(e.path, err)) return false;
  }
  if (!PrepareRoot(root, err)) return false;
  const SourceTextGenerator text(plan.seed);
  std::unique_ptr<char[]> buf(new char[kChunk]);
  uint64_t done = 0;
  for (const TreeEntry& e : plan.entries) {
    if (InterruptRequested()) {
      *err = "interrupted while writing the tree under " + root;
      return false;
    }
    const std::string path = root + "/" + e.path;
    if (e.type == TreeEntryType::kDirectory) {
      if (mkdir(path.c_str(), e.mode & 07777) != 0) {
        *err = ErrnoMessage("cannot create directory", path, errno);
        return false;
      }
      continue;
    }
    if (e.type == TreeEntryType::kSymlink) {
      if (symlink(e.link_target.c_str(), path.c_str()) != 0) {
        *err = ErrnoMessage("cannot create symlink", path, errno);
        return false;
      }
      continue;
    }
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, e.mode & 07777);
    if (fd < 0) {
      *err = ErrnoMessage("cannot create", path, errno);
      return false;
    }
    SourceTextGenerator::Stream s = text.Open(e.path, e.bytes);
    bool ok = true;
    while (ok && s.remaining() > 0) {
      const size_t n = s.Read(buf.get(), kChunk);
      ok = WriteAll(fd, buf.get(), n, path, err);
    }
    if (close(fd) != 0 && ok) {
      *err = ErrnoMessage("cannot write", path, errno);
      ok = false;
    }
    if (!ok) return false;
    done += e.bytes;
    if (options.progress) options.progress(done, plan.total_bytes);
  }
  return !options.sync || SyncTree(root, err);
}

bool CopySourceTree(const std::string& from, const std::string& root, TreePlan* copied,
                    std::string* err, const TreeWriteOptions& options) {
  // Refuse a root inside the source before anything is made.
  if (!CheckTreeCopyEnds(from, root, err)) return false;
  std::vector<WalkEntry> entries;
  if (!WalkTree(from, &entries, err)) return false;
  if (!PrepareRoot(root, err)) return false;
  uint64_t walked_bytes = 0;
  for (const WalkEntry& w : entries) walked_bytes += w.bytes;

  TreePlan plan;
  std::unique_ptr<char[]> buf(new char[kChunk]);
  std::vector<std::pair<std::string, uint32_t>> dir_modes;  // applied last (read-only dirs)
  for (const WalkEntry& w : entries) {
    if (InterruptRequested()) {
      *err = "interrupted while copying the tree to " + root;
      return false;
    }
    const std::string src = from + "/" + w.path, dst = root + "/" + w.path;
    TreeEntry e{w.type, w.path, 0, w.link_target, w.mode};
    if (w.type == TreeEntryType::kDirectory) {
      if (mkdir(dst.c_str(), 0700) != 0) {
        *err = ErrnoMessage("cannot create directory", dst, errno);
        return false;
      }
      dir_modes.emplace_back(dst, w.mode);
      plan.directory_count++;
    } else if (w.type == TreeEntryType::kSymlink) {
      if (symlink(w.link_target.c_str(), dst.c_str()) != 0) {
        *err = ErrnoMessage("cannot create symlink", dst, errno);
        return false;
      }
      plan.symlink_count++;
    } else {
      if (!CopyTreeFile(src, dst, w.mode, buf.get(), &e.bytes, err)) return false;
      plan.file_count++;
      plan.total_bytes += e.bytes;
      if (options.progress) options.progress(plan.total_bytes, walked_bytes);
    }
    plan.entries.push_back(std::move(e));
  }
  if (!ApplyCopiedDirModes(dir_modes, err)) return false;
  if (options.sync && !SyncTree(root, err)) return false;
  *copied = std::move(plan);
  return true;
}

bool DigestTree(const std::string& root, std::string* hex, std::string* err) {
  struct stat st;
  if (stat(root.c_str(), &st) != 0) {
    *err = ErrnoMessage("cannot read tree", root, errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    *err = "tree " + root + " is not a directory";
    return false;
  }
  std::vector<WalkEntry> entries;
  if (!WalkTree(root, &entries, err)) return false;
  Sha256 manifest;
  std::unique_ptr<char[]> buf(new char[kChunk]);
  for (const WalkEntry& e : entries) {
    if (e.type == TreeEntryType::kDirectory) {
      manifest.Update("d " + e.path + "\n");
    } else if (e.type == TreeEntryType::kSymlink) {
      manifest.Update("l " + e.path + " -> " + e.link_target + "\n");
    } else {
      const std::string full = root + "/" + e.path;
      const int fd = open(full.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        *err = ErrnoMessage("cannot read", full, errno);
        return false;
      }
      Sha256 content;
      uint64_t size = 0;
      for (;;) {
        const ssize_t n = read(fd, buf.get(), kChunk);
        if (n < 0 && errno == EINTR && !InterruptRequested()) continue;
        if (n < 0) {
          *err = ErrnoMessage("cannot read", full, errno);
          close(fd);
          return false;
        }
        if (n == 0) break;
        content.Update(buf.get(), static_cast<size_t>(n));
        size += static_cast<uint64_t>(n);
      }
      close(fd);
      manifest.Update("f " + std::to_string(size) + " " + content.HexDigest() + " " + e.path +
                      "\n");
    }
  }
  *hex = manifest.HexDigest();
  return true;
}

}  // namespace elevbench
