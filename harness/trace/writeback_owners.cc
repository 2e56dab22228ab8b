#include "harness/trace/writeback_owners.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "harness/trace/block_events.h"

namespace elevbench {
namespace {

// One process's dirtying of the disk's pages, and of each inode.
struct DirtierCount {
  BlockTraceDirtier total;
  std::map<uint64_t, uint64_t> folios_by_inode;
  std::vector<uint64_t> times;  // of each dirtying, in order
};

// A pause in dirtying this long or longer is one the writer may have been held in.
constexpr uint64_t kHeldBackPauseNs = 50'000'000;

// The pauses of kHeldBackPauseNs or more between two dirtyings (`dirtied`, in order) during
// which a write of the writer's own pages was queued (`owned_writes`, sorted).
uint64_t HeldBackNanoseconds(const std::vector<uint64_t>& dirtied,
                             const std::vector<uint64_t>& owned_writes) {
  uint64_t held = 0;
  for (size_t i = 1; i < dirtied.size(); ++i) {
    const uint64_t from = dirtied[i - 1], to = dirtied[i];
    if (to - from < kHeldBackPauseNs) continue;
    const auto write = std::upper_bound(owned_writes.begin(), owned_writes.end(), from);
    if (write != owned_writes.end() && *write < to) held += to - from;
  }
  return held;
}

// The pid that dirtied most of each inode's folios (the lower pid of equals, for determinism).
std::map<uint64_t, int32_t> MainDirtierByInode(const std::map<int32_t, DirtierCount>& dirtiers) {
  std::map<uint64_t, std::pair<uint64_t, int32_t>> best;  // ino -> folios, pid
  for (const auto& [pid, count] : dirtiers) {
    for (const auto& [ino, folios] : count.folios_by_inode) {
      auto [it, fresh] = best.try_emplace(ino, folios, pid);
      if (!fresh && folios > it->second.first) it->second = {folios, pid};
    }
  }
  std::map<uint64_t, int32_t> out;
  for (const auto& [ino, folios_pid] : best) out[ino] = folios_pid.second;
  return out;
}

}  // namespace

std::vector<std::string> WritebackEventsToTrace(const std::string& tracefs) {
  std::error_code ec;
  auto has = [&](const char* name) {
    return std::filesystem::is_directory(tracefs + "/events/writeback/" + name, ec);
  };
  const char* dirty = has("writeback_dirty_folio")  ? "writeback_dirty_folio"
                      : has("writeback_dirty_page") ? "writeback_dirty_page"
                                                    : nullptr;
  if (dirty == nullptr || !has("writeback_single_inode_start") || !has("writeback_single_inode")) {
    return {};
  }
  std::vector<std::string> events = {std::string("writeback/") + dirty,
                                     "writeback/writeback_single_inode_start",
                                     "writeback/writeback_single_inode"};
  // A short-lived writer's comm is often not in the instance's cache ("<...>"); its exec says it.
  if (std::filesystem::is_directory(tracefs + "/events/sched/sched_process_exec", ec)) {
    events.push_back("sched/sched_process_exec");
  }
  // Who changed metadata when: a reader's access-time update waits for a metadata write.
  if (std::filesystem::is_directory(tracefs + "/events/jbd2/jbd2_handle_start", ec)) {
    events.push_back("jbd2/jbd2_handle_start");
    // Which inode a handle changed (ext4's): the buffer its change waits for.
    if (std::filesystem::is_directory(tracefs + "/events/ext4/ext4_mark_inode_dirty", ec)) {
      events.push_back("ext4/ext4_mark_inode_dirty");
    }
  }
  return events;
}

void AttributeWriteback(std::string_view text, uint32_t major, uint32_t minor, uint64_t start_ns,
                        std::vector<BlockTraceRecord>* records,
                        std::vector<BlockTraceDirtier>* dirtiers) {
  std::map<int32_t, DirtierCount> counts;
  std::map<int32_t, std::string> exec_comm;  // pid -> the program it last exec'd
  std::map<int32_t, uint64_t> writing_back;  // task -> the inode it is writing back
  // A write bio queued inside a bracket, by (relative time, pid, sector): its inode.
  std::map<std::tuple<uint64_t, int32_t, uint64_t>, uint64_t> bio_inode;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    const std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    TraceEvent e;
    std::string ignored;
    if (!ParseTraceLine(line, &e, &ignored)) continue;
    if (e.kind == TraceEventKind::kProcessExec) exec_comm[e.pid] = e.text;
    if (e.dev_major != major || e.dev_minor != minor) continue;
    const uint64_t t = e.time_ns > start_ns ? e.time_ns - start_ns : 0;
    if (e.kind == TraceEventKind::kWritebackDirty) {
      DirtierCount& c = counts[e.pid];
      if (c.total.folios == 0) c.total = {e.pid, e.task, 0, t, t};
      const auto exec = exec_comm.find(e.pid);
      if (c.total.comm == "<...>" && exec != exec_comm.end()) c.total.comm = exec->second;
      ++c.total.folios;
      c.total.last_ns = t;
      c.times.push_back(t);
      ++c.folios_by_inode[e.ino];
    } else if (e.kind == TraceEventKind::kWritebackInodeStart) {
      writing_back[e.pid] = e.ino;
    } else if (e.kind == TraceEventKind::kWritebackInodeDone) {
      writing_back.erase(e.pid);
    } else if (e.kind == TraceEventKind::kBioQueue && e.op == TraceOp::kWrite && e.sectors > 0) {
      const auto open = writing_back.find(e.pid);
      if (open != writing_back.end()) bio_inode[{t, e.pid, e.sector}] = open->second;
    }
  }
  const std::map<uint64_t, int32_t> main_dirtier = MainDirtierByInode(counts);
  for (BlockTraceRecord& r : *records) {
    if (r.op != BlockTraceOp::kWrite) continue;
    const auto ino = bio_inode.find({r.time_ns, r.pid, r.sector});
    if (ino == bio_inode.end()) continue;
    const auto owner = main_dirtier.find(ino->second);
    if (owner != main_dirtier.end()) r.owner = owner->second;
  }
  std::map<int32_t, std::vector<uint64_t>> owned_writes;  // records are in time order
  for (const BlockTraceRecord& r : *records) {
    if (r.owner > 0) owned_writes[r.owner].push_back(r.time_ns);
  }
  dirtiers->clear();
  for (auto& [pid, c] : counts) {
    c.total.held_back_ns = HeldBackNanoseconds(c.times, owned_writes[pid]);
    dirtiers->push_back(c.total);
  }
  std::stable_sort(
      dirtiers->begin(), dirtiers->end(),
      [](const BlockTraceDirtier& a, const BlockTraceDirtier& b) { return a.folios > b.folios; });
}

std::vector<BlockTraceJournalHandles> JournalHandleStarts(
    std::string_view text, uint32_t major, uint32_t minor, uint64_t start_ns,
    const std::vector<BlockTraceRecord>& records) {
  std::set<int32_t> with_bios;
  for (const BlockTraceRecord& r : records) with_bios.insert(r.pid);
  std::map<int32_t, BlockTraceJournalHandles> starts;
  bool any_inode = false;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    const std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.find("jbd2_handle_start") == std::string_view::npos &&
        line.find("ext4_mark_inode_dirty") == std::string_view::npos) {
      continue;
    }
    TraceEvent e;
    std::string ignored;
    if (!ParseTraceLine(line, &e, &ignored) || e.dev_major != major || e.dev_minor != minor ||
        with_bios.count(e.pid) == 0) {
      continue;
    }
    BlockTraceJournalHandles& h = starts[e.pid];
    if (e.kind == TraceEventKind::kJournalHandleStart) {
      h.pid = e.pid;
      h.times_ns.push_back(e.time_ns > start_ns ? e.time_ns - start_ns : 0);
      h.inodes.push_back(0);
    } else if (e.kind == TraceEventKind::kInodeDirty && !h.inodes.empty() && h.inodes.back() == 0) {
      h.inodes.back() = e.ino;  // the first inode the process's latest handle changed
      any_inode = true;
    }
  }
  std::vector<BlockTraceJournalHandles> out;
  for (auto& entry : starts) {
    const int32_t pid = entry.first;
    const BlockTraceJournalHandles& h = entry.second;  // (a lambda below reads it: no binding)
    if (h.times_ns.empty()) continue;                  // an inode changed outside a handle seen
    // Sorted by time, the inodes with them (the lines come in time order: a stable no-op).
    std::vector<size_t> order(h.times_ns.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return h.times_ns[a] < h.times_ns[b]; });
    BlockTraceJournalHandles sorted;
    sorted.pid = pid;
    for (size_t i : order) {
      sorted.times_ns.push_back(h.times_ns[i]);
      if (any_inode) sorted.inodes.push_back(h.inodes[i]);
    }
    out.push_back(std::move(sorted));
  }
  return out;
}

}  // namespace elevbench
