#include "harness/trace/bio_timing.h"

#include <map>
#include <utility>

namespace elevbench {
namespace {

struct Outstanding {
  uint64_t end = 0;  // one past its last sector still outstanding
  size_t index = 0;  // into the result
};

// direction (0 read, 1 write, 2 discard) -> start sector -> bios starting there
using OutstandingMap = std::multimap<std::pair<int, uint64_t>, Outstanding>;

int DirectionIndex(TraceOp op) {
  return op == TraceOp::kRead ? 0 : op == TraceOp::kWrite ? 1 : op == TraceOp::kDiscard ? 2 : -1;
}

void Complete(const TraceEvent& e, int dir, OutstandingMap* open, std::vector<TimedBio>* bios) {
  const uint64_t end = e.sector + e.sectors;
  std::vector<Outstanding> moved;
  auto it = open->lower_bound({dir, e.sector});
  while (it != open->end() && it->first.first == dir && it->first.second < end) {
    if (it->second.end <= end) {
      (*bios)[it->second.index].done_ns = e.time_ns;
    } else {
      moved.push_back(it->second);  // only its front is done: it now starts at `end`
    }
    it = open->erase(it);
  }
  for (const Outstanding& o : moved) open->insert({{dir, end}, o});
}

}  // namespace

std::vector<TimedBio> TimeBiosFromTrace(std::string_view text, uint32_t major, uint32_t minor,
                                        uint64_t* unreadable) {
  std::vector<TimedBio> bios;
  OutstandingMap open;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    TraceEvent e;
    std::string err;
    if (!ParseTraceLine(line, &e, &err)) {
      if (unreadable != nullptr) ++*unreadable;
      continue;
    }
    if (e.dev_major != major || e.dev_minor != minor) continue;
    const int dir = DirectionIndex(e.op);
    if (e.kind == TraceEventKind::kBioQueue) {
      if (dir >= 0 && e.sectors > 0)
        open.insert({{dir, e.sector}, {e.sector + e.sectors, bios.size()}});
      bios.push_back({std::move(e), 0});
    } else if (e.kind == TraceEventKind::kRqComplete && dir >= 0 && e.sectors > 0) {
      Complete(e, dir, &open, &bios);
    }
  }
  return bios;
}

}  // namespace elevbench
