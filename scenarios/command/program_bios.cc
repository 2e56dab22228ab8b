#include "scenarios/command/program_bios.h"

#include <cstdlib>
#include <map>
#include <string>

namespace elevbench {
namespace {

// The number after `key` in `line` from `from` on; -1 when absent.
int64_t CommandNumberAfter(std::string_view line, std::string_view key, size_t from = 0) {
  const size_t at = line.find(key, from);
  if (at == std::string_view::npos) return -1;
  const std::string digits(line.substr(at + key.size(), 12));
  char* end = nullptr;
  const long long v = std::strtoll(digits.c_str(), &end, 10);
  return end == digits.c_str() ? -1 : v;
}

}  // namespace

std::vector<std::string> ProgramTraceEvents() {
  return {"block/block_bio_queue", "block/block_rq_complete", "sched/sched_process_fork"};
}

std::set<int32_t> DescendantsInTrace(std::string_view text, int32_t forking_tid) {
  std::multimap<int32_t, int32_t> children;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const size_t event = line.find("sched_process_fork:");
    if (event == std::string_view::npos) continue;
    const size_t child_at = line.rfind(" child_comm=");
    if (child_at == std::string_view::npos) continue;
    // The parent's pid is the last " pid=" before the child's fields (a comm may hold blanks).
    const size_t parent_at = line.substr(0, child_at).rfind(" pid=");
    const int64_t parent = CommandNumberAfter(
        line, " pid=", parent_at == std::string_view::npos ? std::string_view::npos : parent_at);
    const int64_t child = CommandNumberAfter(line, " child_pid=", child_at);
    if (parent < 0 || child < 0) continue;
    children.emplace(static_cast<int32_t>(parent), static_cast<int32_t>(child));
  }
  std::set<int32_t> found;
  std::vector<int32_t> todo = {forking_tid};
  while (!todo.empty()) {
    const int32_t p = todo.back();
    todo.pop_back();
    const auto [first, last] = children.equal_range(p);
    for (auto it = first; it != last; ++it) {
      if (found.insert(it->second).second) todo.push_back(it->second);
    }
  }
  return found;
}

ProgramBios ProgramBiosOf(const std::vector<BlockTraceRecord>& records,
                          const std::set<int32_t>& pids) {
  ProgramBios out;
  for (const BlockTraceRecord& r : records) {
    if (pids.count(r.pid) == 0) continue;
    ++out.bios;
    if (r.latency_ns < 0) {
      ++out.untimed;
      continue;
    }
    const auto ns = static_cast<uint64_t>(r.latency_ns);
    if (r.op == BlockTraceOp::kRead) (void)out.read.Record(ns);
    if (r.op == BlockTraceOp::kWrite) (void)out.write.Record(ns);
  }
  return out;
}

}  // namespace elevbench
