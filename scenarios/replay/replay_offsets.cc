#include "scenarios/replay/replay_offsets.h"

#include <algorithm>
#include <cmath>

namespace elevbench {
namespace {

// Scaled offsets are aligned to this, which every logical block size divides.
constexpr uint64_t kScaledAlignment = 4096;

std::string MiB(uint64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB (" + std::to_string(bytes) +
         " bytes)";
}

}  // namespace

uint64_t MappedOffset(const ReplayMapping& m, uint64_t sector, uint32_t sectors) {
  const uint64_t offset = sector * kReplaySectorBytes;
  if (m.mode == "as recorded") return offset;
  const uint64_t shifted = offset - static_cast<uint64_t>(m.shift_bytes);
  if (m.mode == "shifted") return shifted;
  const uint64_t len = static_cast<uint64_t>(sectors) * kReplaySectorBytes;
  uint64_t scaled = static_cast<uint64_t>(std::floor(static_cast<double>(shifted) * m.scale));
  scaled -= scaled % kScaledAlignment;
  const uint64_t last = m.target_bytes > len ? m.target_bytes - len : 0;
  return std::min(scaled, last - last % kScaledAlignment);
}

bool MapReplayOffsets(const BlockTrace& trace, uint64_t target_bytes, ReplayFit fit,
                      ReplayMapping* m, std::string* err) {
  uint64_t first = UINT64_MAX, end = 0, max_len = 0;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kFlush) continue;
    first = std::min(first, r.sector * kReplaySectorBytes);
    end = std::max(end, (r.sector + r.sectors) * kReplaySectorBytes);
    max_len = std::max(max_len, static_cast<uint64_t>(r.sectors) * kReplaySectorBytes);
  }
  if (trace.records.empty()) {
    *err = "the trace has no bios to replay";
    return false;
  }
  *m = ReplayMapping{};
  m->target_bytes = target_bytes;
  if (first == UINT64_MAX) first = end = 0;  // flushes only
  m->span_bytes = end - first;
  if (end <= target_bytes) {
    m->mode = "as recorded";
  } else if (m->span_bytes <= target_bytes) {
    m->mode = "shifted";
    m->shift_bytes = static_cast<int64_t>(first);
  } else if (fit == ReplayFit::kScale && target_bytes > max_len) {
    m->mode = "scaled";
    m->shift_bytes = static_cast<int64_t>(first);
    m->scale = static_cast<double>(target_bytes - max_len) / static_cast<double>(m->span_bytes);
  } else {
    *err = "the trace spans " + MiB(m->span_bytes) + ", more than the target's " +
           MiB(target_bytes) + " (a larger target, or --fit scale)";
    return false;
  }
  return true;
}

}  // namespace elevbench
