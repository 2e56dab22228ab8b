#include "scenarios/contest/contest_workers.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "harness/core/interrupt.h"

namespace elevbench {
namespace {

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// Reads exactly len bytes; false at EOF or on an error.
bool ReadFull(int fd, char* buf, size_t len) {
  while (len > 0) {
    const ssize_t n = read(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buf += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

bool WriteFull(int fd, const char* buf, size_t len) {
  while (len > 0) {
    const ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buf += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

// One process of the ring: forwards chunks, retiring each when its hops are used up. Runs in a
// forked child; only read/write/_exit.
[[noreturn]] void RingMember(int in, int out, int done) {
  char chunk[kProcessRingChunkBytes];
  for (;;) {
    if (!ReadFull(in, chunk, sizeof chunk)) _exit(0);
    uint64_t left = 0;
    std::memcpy(&left, chunk, sizeof left);
    --left;  // this transfer was one hop
    std::memcpy(chunk, &left, sizeof left);
    const bool ok = left == 0 ? WriteFull(done, "x", 1) : WriteFull(out, chunk, sizeof chunk);
    if (!ok) _exit(1);
  }
}

void KillAndReap(const std::vector<pid_t>& children) {
  for (pid_t pid : children) kill(pid, SIGKILL);
  for (pid_t pid : children) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

class Fds {
 public:
  ~Fds() {
    for (int fd : fds_) close(fd);
  }
  void Add(int fd) { fds_.push_back(fd); }

 private:
  std::vector<int> fds_;
};

}  // namespace

bool RunMemLoadIteration(const MemLoad& load, uint64_t* pages_touched, std::string* err) {
  *pages_touched = 0;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t pages = std::max<uint64_t>(1, load.bytes / page);
  void* mem = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) {
    *err = Errno("cannot map " + std::to_string(pages * page) + " bytes");
    return false;
  }
  // A prime stride that does not divide the page count visits every page once per pass.
  uint64_t stride = 1;
  for (uint64_t p : {1031u, 1033u, 1039u, 1049u, 1051u}) {
    if (pages % p != 0) {
      stride = p % pages == 0 ? 1 : p;
      break;
    }
  }
  volatile char* base = static_cast<volatile char*>(mem);
  bool ok = true;
  for (uint32_t pass = 0; ok && pass < load.passes; ++pass) {
    uint64_t index = 0;
    for (uint64_t i = 0; i < pages; ++i) {
      base[index * page] = static_cast<char>(pass + 1);
      index = (index + stride) % pages;
      ++*pages_touched;
      if ((i & 0xffff) == 0 && InterruptRequested()) {
        *err = "interrupted";
        ok = false;
        break;
      }
    }
  }
  munmap(mem, pages * page);
  return ok;
}

bool CheckProcessRing(const ProcessRing& ring, std::string* err) {
  if (ring.processes >= 2 && ring.chunks >= 1 && ring.hops >= ring.chunks) return true;
  *err = "a process ring needs at least 2 processes and 1 <= chunks <= hops";
  return false;
}

bool RunProcessRingIteration(const ProcessRing& ring, std::string* err) {
  if (!CheckProcessRing(ring, err)) return false;
  Fds fds;
  std::vector<int> read_end(ring.processes), write_end(ring.processes);
  for (uint32_t i = 0; i < ring.processes; ++i) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
      *err = Errno("pipe");
      return false;
    }
    fds.Add(p[0]);
    fds.Add(p[1]);
    read_end[i] = p[0];
    write_end[i] = p[1];
  }
  int done[2];
  if (pipe2(done, O_CLOEXEC) != 0) {
    *err = Errno("pipe");
    return false;
  }
  fds.Add(done[0]);
  fds.Add(done[1]);
  std::vector<pid_t> children;
  for (uint32_t i = 0; i < ring.processes; ++i) {
    const pid_t pid = fork();
    if (pid < 0) {
      *err = Errno("fork");
      KillAndReap(children);
      return false;
    }
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      signal(SIGTERM, SIG_DFL);
      signal(SIGINT, SIG_DFL);
      RingMember(read_end[i], write_end[(i + 1) % ring.processes], done[1]);
    }
    children.push_back(pid);
  }
  // Put the chunks in, each with its share of the hops in its first bytes.
  char chunk[kProcessRingChunkBytes] = {};
  for (uint32_t c = 0; c < ring.chunks; ++c) {
    const uint64_t share = ring.hops / ring.chunks + (c < ring.hops % ring.chunks ? 1 : 0);
    std::memcpy(chunk, &share, sizeof share);
    if (!WriteFull(write_end[c % ring.processes], chunk, sizeof chunk)) {
      *err = Errno("writing into the ring");
      KillAndReap(children);
      return false;
    }
  }
  // Wait until every chunk has been retired, watching for interrupts and early deaths.
  uint32_t retired = 0;
  bool ok = true;
  while (ok && retired < ring.chunks) {
    pollfd pfd{done[0], POLLIN, 0};
    const int r = poll(&pfd, 1, 100);
    if (InterruptRequested()) {
      *err = "interrupted";
      ok = false;
    } else if (r > 0) {
      char buf[64];
      const ssize_t n = read(done[0], buf, sizeof buf);
      if (n > 0) retired += static_cast<uint32_t>(n);
    } else if (r == 0) {
      for (pid_t pid : children) {
        if (waitpid(pid, nullptr, WNOHANG) == pid) {
          *err = "a process of the ring died";
          ok = false;
          break;
        }
      }
    }
  }
  KillAndReap(children);
  return ok;
}

}  // namespace elevbench
