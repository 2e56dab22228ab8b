#pragma once
// Where a block trace's offsets go on the replay's target (docs/replay.md): as recorded when the
// trace's span fits the target, shifted to start at 0 when only its length does, scaled onto the
// target on request. Pure, one part of the replay plan (replay_plan.h).

#include <cstdint>
#include <string>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// A traced sector's bytes: offsets and lengths of the trace are in 512-byte sectors.
inline constexpr uint64_t kReplaySectorBytes = 512;

/// Where the trace's offsets go on the target.
enum class ReplayFit {
  kAuto,   ///< as recorded if the span fits, else shifted to start at 0, else refused
  kScale,  ///< as kAuto, but a span larger than the target is scaled onto it
};

/// How the offsets were mapped (for the cell's record and docs).
struct ReplayMapping {
  std::string mode;         ///< "as recorded", "shifted", "scaled"
  int64_t shift_bytes = 0;  ///< subtracted from every offset (shifted, scaled)
  double scale = 1;         ///< offsets multiplied by this after the shift (scaled)
  uint64_t span_bytes = 0;  ///< the trace's first to last byte
  uint64_t target_bytes = 0;
};

/// Maps the trace's extents onto a target of `target_bytes` (see ReplayFit). False with one line
/// naming both sizes when the span does not fit and `fit` is not kScale, or for an empty trace.
[[nodiscard]] bool MapReplayOffsets(const BlockTrace& trace, uint64_t target_bytes, ReplayFit fit,
                                    ReplayMapping* mapping, std::string* err);

/// The target's byte offset of `sectors` sectors traced at `sector`, under mapping `m`: scaled
/// offsets are aligned to 4 KiB (which every logical block size divides) and kept inside the
/// target.
uint64_t MappedOffset(const ReplayMapping& m, uint64_t sector, uint32_t sectors);

}  // namespace elevbench
