#include "scenarios/replay/replay_buffered_writer.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

namespace elevbench {
namespace {

// The most one pwrite writes: dd's bs=1M, and what the O_DIRECT jobs' largest I/O is.
constexpr uint64_t kWriteChunkBytes = 1ULL << 20;
// The longest the writer sleeps at once before its start, so that an abort is seen soon.
constexpr int64_t kStartPollNs = 50000000;

int64_t NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void SleepNs(int64_t ns) {
  if (ns <= 0) return;
  const timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  nanosleep(&ts, nullptr);
}

double ThreadCpuSeconds() {
  rusage ru{};
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return 0;
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// Opens the device for buffered writes; its size in *bytes. False with err.
bool OpenForBufferedWrites(const std::string& name, const std::string& device,
                           const ReplayBufferedWriter& w, int* fd, uint64_t* bytes,
                           std::string* err) {
  *fd = open(device.c_str(), O_WRONLY | O_CLOEXEC);
  if (*fd < 0) {
    *err = name + ": cannot open " + device + " for buffered writes: " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (fstat(*fd, &st) != 0 || !S_ISBLK(st.st_mode) || ioctl(*fd, BLKGETSIZE64, bytes) != 0) {
    *err = name + ": " + device + " is not a block device";
    close(*fd);
    return false;
  }
  for (const auto& [offset, len] : w.extents) {
    if (offset > *bytes || len > *bytes - offset) {
      *err = name + ": an extent of " + std::to_string(len) + " bytes at " +
             std::to_string(offset) + " is outside the " + std::to_string(*bytes) + " bytes of " +
             device;
      close(*fd);
      return false;
    }
  }
  return true;
}

// Waits until the writer's start; false when the deadline or an abort came first.
bool WaitForStart(const std::string& name, int64_t at_ns, const BufferedWriterContext& ctx,
                  std::string* err) {
  for (int64_t now = NowNs(); now < at_ns; now = NowNs()) {
    if (ctx.abort->load() || now > ctx.deadline_ns) {
      *err = name + (ctx.abort->load() ? ": stopped, another job failed"
                                       : ": the replay ran past its deadline before it started");
      return false;
    }
    SleepNs(std::min(at_ns - now, kStartPollNs));
  }
  return true;
}

// Whether the writer is done: its bytes written, or (until_readers_end) the readers ended.
bool Done(const ReplayBufferedWriter& w, uint64_t written, const BufferedWriterContext& ctx) {
  return w.until_readers_end ? ctx.readers_left->load() <= 0 : written >= w.bytes;
}

// Why the writer stops early: an abort or the deadline, with what it had written.
std::string StopReason(const std::string& name, const BufferedWriterContext& ctx,
                       const std::string& when) {
  return name + (ctx.abort->load() ? ": stopped, another job failed"
                                   : ": the replay ran past its deadline " + when);
}

}  // namespace

bool WaitForTheRules(const std::string& name, const BufferedWriterContext& ctx, std::string* err) {
  if (ctx.rules == nullptr) return true;
  ReplayRuleWaiter waiter(ctx.rules);
  while (!waiter.WriterMayGo(NowNs())) {
    if (ctx.abort->load() || NowNs() > ctx.deadline_ns) {
      *err = StopReason(name, ctx, "while a wait rule held it");
      return false;
    }
    SleepNs(kReplayRulePollNs);
  }
  return true;
}

uint64_t BufferedWriteOffset(const ReplayBufferedWriter& w, uint64_t device_bytes, uint64_t written,
                             uint64_t* contiguous_bytes) {
  uint64_t before = 0;
  for (const auto& [offset, len] : w.extents) {
    if (written < before + len) {
      *contiguous_bytes = len - (written - before);
      return offset + (written - before);
    }
    before += len;
  }
  // Past the extents: on after the last one, then round from the first one's start.
  const uint64_t first = w.extents.empty() ? 0 : w.extents.front().first;
  const uint64_t after = w.extents.empty() ? 0 : w.extents.back().first + w.extents.back().second;
  uint64_t over = written - before;
  if (after < device_bytes && over < device_bytes - after) {
    *contiguous_bytes = device_bytes - after - over;
    return after + over;
  }
  over -= after < device_bytes ? device_bytes - after : 0;
  const uint64_t ring = device_bytes > first ? device_bytes - first : 1;
  const uint64_t offset = first + over % ring;
  *contiguous_bytes = device_bytes > offset ? device_bytes - offset : 0;
  return offset;
}

bool RunBufferedWriter(const std::string& name, const ReplayBufferedWriter& w,
                       const BufferedWriterContext& ctx, JobResult* result, int64_t* last_done_ns,
                       std::string* err) {
  result->name = name;
  result->clones = 1;
  int fd = -1;
  uint64_t device_bytes = 0;
  if (!OpenForBufferedWrites(name, ctx.device, w, &fd, &device_bytes, err)) return false;
  const int64_t start_at = ctx.start_ns + static_cast<int64_t>(w.start_us) * 1000;
  if (!WaitForStart(name, start_at, ctx, err)) {
    close(fd);
    return false;
  }
  const std::vector<char> buffer(kWriteChunkBytes, 0);
  const int64_t first_ns = NowNs();
  uint64_t written = 0;
  bool ok = true;
  while (ok && !Done(w, written, ctx)) {
    if (ctx.abort->load() || NowNs() > ctx.deadline_ns) {
      *err = StopReason(name, ctx, "after " + std::to_string(written) + " bytes");
      ok = false;
      break;
    }
    if (!WaitForTheRules(name, ctx, err)) {
      ok = false;
      break;
    }
    uint64_t contiguous = 0;
    const uint64_t offset = BufferedWriteOffset(w, device_bytes, written, &contiguous);
    uint64_t len = std::min(kWriteChunkBytes, contiguous);
    if (!w.until_readers_end) len = std::min(len, w.bytes - written);
    const int64_t t0 = NowNs();
    const ssize_t n = pwrite(fd, buffer.data(), len, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *err = name + ": buffered write of " + std::to_string(len) + " bytes at " +
             std::to_string(offset) + ": " + (n < 0 ? std::strerror(errno) : "wrote nothing");
      ok = false;
      break;
    }
    written += static_cast<uint64_t>(n);
    result->write.bytes += static_cast<uint64_t>(n);
    ++result->write.ios;
    result->write.clat.Record(static_cast<uint64_t>(NowNs() - t0));
  }
  // What it dirtied goes to the disk before the cell ends (as the capture's syncfs did); not
  // after a failure, which may be a disk that stopped answering.
  if (ok && fdatasync(fd) != 0) {
    *err = name + ": fdatasync of " + ctx.device + ": " + std::strerror(errno);
    ok = false;
  }
  ++result->sync_ios;
  close(fd);
  *last_done_ns = NowNs();
  if (result->write.ios > 0) {
    result->write.runtime_seconds = static_cast<double>(*last_done_ns - first_ns) / 1e9;
  }
  result->cpu_seconds = ThreadCpuSeconds();
  return ok;
}

}  // namespace elevbench
