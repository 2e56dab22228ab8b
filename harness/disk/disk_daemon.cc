#define FUSE_USE_VERSION 314

#include "harness/disk/disk_daemon.h"

#include <fcntl.h>
#include <fuse.h>
#include <linux/magic.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <string_view>
#include <vector>

#include "harness/disk/disk_counters.h"
#include "harness/disk/disk_engine.h"

namespace elevbench {
namespace {

constexpr int kPrSetIoFlusher = 57;  // PR_SET_IO_FLUSHER (linux/prctl.h, Linux 5.6)

constexpr char kImageName[] = "disk.img";
constexpr char kStatsName[] = "stats.json";
// fi->fh of an open disk.img; stats.json handles hold a heap pointer instead.
constexpr uint64_t kImageHandle = 1;

struct DaemonState {
  int fd = -1;
  uint64_t image_bytes = 0;
  bool backing_on_tmpfs = false;
  DiskProfile profile;
  DiskStats stats;
  DiskTrace trace;
  std::unique_ptr<DiskEngine> engine;
  int64_t started_ns = 0;
  int spin_us = 0;
  timespec mount_time{};
  uid_t uid = 0;
  gid_t gid = 0;
};

DaemonState* State() { return static_cast<DaemonState*>(fuse_get_context()->private_data); }

enum class Node { kRoot, kImage, kStats, kNone };

Node NodeOf(const char* path) {
  if (path == nullptr) return Node::kNone;
  const std::string_view p(path);
  if (p == "/") return Node::kRoot;
  if (p.size() > 1 && p.substr(1) == kImageName) return Node::kImage;
  if (p.size() > 1 && p.substr(1) == kStatsName) return Node::kStats;
  return Node::kNone;
}

// With nullpath_ok the kernel may hand us only the open handle.
Node NodeOf(const char* path, const fuse_file_info* fi) {
  if (path == nullptr && fi != nullptr) return fi->fh == kImageHandle ? Node::kImage : Node::kStats;
  return NodeOf(path);
}

std::string RenderStats(DaemonState* s) {
  const int64_t now = MonotonicNowNs();
  nlohmann::json j = DiskStatsToJson(s->stats.Snapshot(now), s->profile, now - s->started_ns);
  j["image_bytes"] = s->image_bytes;
  j["backing_on_tmpfs"] = s->backing_on_tmpfs;
  j["spin_us"] = s->spin_us;
  j["realtime"] = s->engine->realtime();
  return j.dump(2) + "\n";
}

void* OnInit(fuse_conn_info* conn, fuse_config* cfg) {
  DaemonState* s = State();
  cfg->direct_io = 1;  // Every read/write reaches the model; no FUSE page cache.
  cfg->kernel_cache = 0;
  cfg->nullpath_ok = 1;  // Skip path building on the hot read/write path.
  cfg->attr_timeout = 1.0;
  // Let at least queue_depth asynchronous (loop/aio) requests reach the disk
  // queue; the kernel's default cap of 12 would hide NCQ depth.
  const unsigned background = static_cast<unsigned>(std::max(12, 2 * s->profile.queue_depth + 4));
  conn->max_background = background;
  conn->congestion_threshold = background * 3 / 4;
  return s;
}

int OnGetattr(const char* path, struct stat* st, fuse_file_info* fi) {
  DaemonState* s = State();
  std::memset(st, 0, sizeof(*st));
  st->st_uid = s->uid;
  st->st_gid = s->gid;
  st->st_atim = st->st_mtim = st->st_ctim = s->mount_time;
  switch (NodeOf(path, fi)) {
    case Node::kRoot:
      st->st_mode = S_IFDIR | 0755;
      st->st_nlink = 2;
      return 0;
    case Node::kImage:
      st->st_mode = S_IFREG | 0644;
      st->st_nlink = 1;
      st->st_size = static_cast<off_t>(s->image_bytes);
      st->st_blocks = static_cast<blkcnt_t>((s->image_bytes + 511) / 512);
      st->st_blksize = 4096;
      return 0;
    case Node::kStats:
      st->st_mode = S_IFREG | 0444;
      st->st_nlink = 1;
      st->st_size = static_cast<off_t>(RenderStats(s).size());
      return 0;
    case Node::kNone:
      break;
  }
  return -ENOENT;
}

int OnReaddir(const char* path, void* buf, fuse_fill_dir_t filler, off_t, fuse_file_info*,
              fuse_readdir_flags) {
  // The root is the only directory (with nullpath_ok the path may be null).
  if (path != nullptr && NodeOf(path) != Node::kRoot) return -ENOTDIR;
  for (const char* name : {".", "..", kImageName, kStatsName}) {
    filler(buf, name, nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  }
  return 0;
}

int OnOpen(const char* path, fuse_file_info* fi) {
  switch (NodeOf(path)) {
    case Node::kImage:
      if ((fi->flags & O_TRUNC) != 0) return -EPERM;  // The image size is fixed.
      fi->fh = kImageHandle;
      fi->direct_io = 1;
      fi->keep_cache = 0;
      return 0;
    case Node::kStats: {
      if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EACCES;
      // A snapshot per open, so that successive reads see one consistent text.
      auto* snapshot = new std::string(RenderStats(State()));
      fi->fh = reinterpret_cast<uint64_t>(snapshot);
      fi->direct_io = 1;
      return 0;
    }
    case Node::kRoot:
      return -EISDIR;
    case Node::kNone:
      break;
  }
  return -ENOENT;
}

int OnRelease(const char*, fuse_file_info* fi) {
  if (fi->fh != kImageHandle) delete reinterpret_cast<std::string*>(fi->fh);
  return 0;
}

int OnRead(const char*, char* buf, size_t size, off_t offset, fuse_file_info* fi) {
  if (offset < 0) return -EINVAL;
  const uint64_t off = static_cast<uint64_t>(offset);
  if (fi->fh != kImageHandle) {
    const std::string* text = reinterpret_cast<const std::string*>(fi->fh);
    if (off >= text->size()) return 0;
    const size_t n = std::min(size, text->size() - static_cast<size_t>(off));
    std::memcpy(buf, text->data() + off, n);
    return static_cast<int>(n);
  }
  DaemonState* s = State();
  if (off >= s->image_bytes || size == 0) return 0;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(size, s->image_bytes - off));
  return static_cast<int>(s->engine->Submit(false, buf, n, off));
}

int OnWrite(const char*, const char* buf, size_t size, off_t offset, fuse_file_info* fi) {
  if (fi->fh != kImageHandle) return -EBADF;
  if (offset < 0) return -EINVAL;
  DaemonState* s = State();
  const uint64_t off = static_cast<uint64_t>(offset);
  if (size == 0) return 0;
  if (off >= s->image_bytes) return -ENOSPC;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(size, s->image_bytes - off));
  // pwrite does not modify the buffer; the engine's interface is shared with
  // reads.
  return static_cast<int>(s->engine->Submit(true, const_cast<char*>(buf), n, off));
}

int OnTruncate(const char* path, off_t size, fuse_file_info* fi) {
  const Node node = NodeOf(path, fi);
  if (node != Node::kImage) return node == Node::kNone ? -ENOENT : -EACCES;
  return static_cast<uint64_t>(size) == State()->image_bytes ? 0 : -EPERM;
}

// FUSE's flush is close() of a descriptor, not a request for durability: nothing to do.
int OnFlush(const char*, fuse_file_info*) { return 0; }
// fsync / fdatasync of the image is how the loop device passes on the kernel's REQ_OP_FLUSH
// (and the post-flush the block layer makes of a FUA write, loop not taking FUA itself): a
// SATA FLUSH CACHE for the model when the profile has a write cache or dies
// (DiskEngine::Flush), as before (nothing to wait for) otherwise.
int OnFsync(const char*, int, fuse_file_info* fi) {
  if (fi != nullptr && fi->fh != kImageHandle) return 0;
  return State()->engine->Flush();
}

int OnStatfs(const char*, struct statvfs* sv) {
  std::memset(sv, 0, sizeof(*sv));
  sv->f_bsize = sv->f_frsize = 4096;
  sv->f_blocks = State()->image_bytes / 4096;
  sv->f_files = 2;
  sv->f_namemax = 255;
  return 0;
}

fuse_operations MakeOperations() {
  fuse_operations ops{};
  ops.init = OnInit;
  ops.getattr = OnGetattr;
  ops.readdir = OnReaddir;
  ops.open = OnOpen;
  ops.release = OnRelease;
  ops.read = OnRead;
  ops.write = OnWrite;
  ops.truncate = OnTruncate;
  ops.flush = OnFlush;
  ops.fsync = OnFsync;
  ops.statfs = OnStatfs;
  return ops;
}

bool OpenBacking(const DiskDaemonOptions& o, DaemonState* s, std::string* err) {
  s->fd = open(o.backing_path.c_str(), O_RDWR | O_CLOEXEC);
  if (s->fd < 0) {
    *err = "cannot open backing file " + o.backing_path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    *err = "backing file " + o.backing_path + " is not a non-empty regular file";
    return false;
  }
  s->image_bytes = static_cast<uint64_t>(st.st_size);
  struct statfs sfs {};
  s->backing_on_tmpfs = fstatfs(s->fd, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC;
  struct stat mp {};
  if (stat(o.mountpoint.c_str(), &mp) != 0 || !S_ISDIR(mp.st_mode)) {
    *err = "mountpoint " + o.mountpoint + " is not a directory";
    return false;
  }
  return true;
}

// Everything that needs undoing, undone in reverse order by the destructor
// so that every early return cleans up.
struct Session {
  fuse* f = nullptr;
  bool mounted = false;
  bool signals = false;
  DaemonState* state = nullptr;
  ~Session() {
    if (state != nullptr && state->engine != nullptr) state->engine->Stop();
    if (signals) fuse_remove_signal_handlers(fuse_get_session(f));
    if (mounted) fuse_unmount(f);
    if (f != nullptr) fuse_destroy(f);
  }
};

// Creates the FUSE session on options.mountpoint, mounts it, daemonizes (unless foreground)
// and installs fuse's signal handlers, noting in *session what its destructor must undo.
bool MountDiskSession(const DiskDaemonOptions& options, DaemonState* state, Session* session,
                      std::string* err) {
  std::vector<std::string> arg_text = {"elevbench-disk", "-o",
                                       "fsname=elevbench-disk,subtype=elevbench"};
  std::vector<char*> argv;
  for (std::string& a : arg_text) argv.push_back(a.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());
  const fuse_operations ops = MakeOperations();
  session->f = fuse_new(&args, &ops, sizeof(ops), state);
  fuse_opt_free_args(&args);
  if (session->f == nullptr) {
    *err = "fuse_new failed";
    return false;
  }
  if (fuse_mount(session->f, options.mountpoint.c_str()) != 0) {
    *err = "cannot mount FUSE filesystem on " + options.mountpoint;
    return false;
  }
  session->mounted = true;
  if (!options.foreground && fuse_daemonize(0) != 0) {
    *err = "fuse_daemonize failed";
    return false;
  }
  if (fuse_set_signal_handlers(fuse_get_session(session->f)) != 0) {
    *err = "cannot install signal handlers";
    return false;
  }
  session->signals = true;
  return true;
}

// fuse's loop, multi-threaded when the disk queues more than one request. >= 0: unmounted, or
// a signal (its number); < 0: -errno.
int RunDiskFuseLoop(fuse* f, int queue_depth) {
  if (queue_depth <= 1) return fuse_loop(f);
  fuse_loop_config* cfg = fuse_loop_cfg_create();
  const unsigned threads = static_cast<unsigned>(queue_depth + 4);
  fuse_loop_cfg_set_max_threads(cfg, threads);
  fuse_loop_cfg_set_idle_threads(cfg, threads);
  const int loop_rc = fuse_loop_mt(f, cfg);
  fuse_loop_cfg_destroy(cfg);
  return loop_rc;
}

// Mounts the disk, starts its engine and serves requests until unmounted or signalled; the
// session's destructor then stops the disk, unmounts and destroys the session. 0 or 1 (*err).
int ServeDiskSession(const DiskDaemonOptions& options, DaemonState* state, std::string* err) {
  Session session;
  session.state = state;
  // An I/O flusher (PR_SET_IO_FLUSHER, Linux 5.6): the daemon serves the loop device's writeback,
  // so its own allocations must not wait on that writeback (no reclaim through I/O, no dirty
  // throttling), or the disk would deadlock under memory pressure (a small --machine ram=).
  // Threads started below inherit it. Without CAP_SYS_RESOURCE it is only noted.
  if (prctl(kPrSetIoFlusher, 1UL, 0UL, 0UL, 0UL) != 0) {
    std::fprintf(stderr, "elevbench disk: PR_SET_IO_FLUSHER: %s (serving without it)\n",
                 std::strerror(errno));
  }
  int rc = MountDiskSession(options, state, &session, err) ? 0 : 1;
  // Sleep deadlines are absolute; a 1 ns timer slack (instead of the default
  // 50 us) keeps wake-ups on time. Threads started below inherit it.
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  if (rc == 0 && !state->engine->Start(err)) rc = 1;
  if (rc == 0) {
    state->started_ns = MonotonicNowNs();
    const int loop_rc = RunDiskFuseLoop(session.f, state->profile.queue_depth);
    if (loop_rc < 0) {
      *err = std::string("FUSE loop failed: ") + std::strerror(-loop_rc);
      rc = 1;
    }
  }
  return rc;
}

}  // namespace

int RunDiskDaemon(const DiskDaemonOptions& options, std::string* err) {
  if (!ValidateDiskProfile(options.profile, err)) return 1;
  if (options.spin_us < 0 || options.rt_priority < 0 || options.rt_priority > 99) {
    *err = "spin_us must be >= 0 and rt_priority in [0, 99]";
    return 1;
  }
  DaemonState state;
  state.profile = options.profile;
  state.spin_us = options.spin_us;
  const bool setup_ok = OpenBacking(options, &state, err);
  auto close_fd = [&state] {
    if (state.fd >= 0) close(state.fd);
    state.fd = -1;
  };
  if (!setup_ok) {
    close_fd();
    return 1;
  }
  if (!options.trace_path.empty() && !state.trace.Open(options.trace_path, err)) {
    close_fd();
    return 1;
  }
  state.uid = getuid();
  state.gid = getgid();
  clock_gettime(CLOCK_REALTIME, &state.mount_time);
  state.engine = std::make_unique<DiskEngine>(state.fd, state.profile, &state.stats,
                                              state.trace.is_open() ? &state.trace : nullptr,
                                              int64_t{options.spin_us} * 1000, options.rt_priority);

  int rc = ServeDiskSession(options, &state, err);

  std::string trace_err;
  if (!state.trace.Close(&trace_err) && rc == 0) {
    *err = trace_err;
    rc = 1;
  }
  state.engine.reset();
  close_fd();
  return rc;
}

}  // namespace elevbench
