#pragma once
// Every bio of one device in a raw tracefs text (block_bio_queue), with the time its last
// sector completed (block_rq_complete): how long the traced system waited for it. A completion
// finishes every outstanding bio of its direction that lies inside it and moves the start of
// one it covers only the front of (a bio split over several requests). Pure, for `capture`
// (each record's latency) and `run replay` (each replayed bio's latency, immune to fio 3.33
// reaping completions late during replay waits).

#include <cstdint>
#include <string_view>
#include <vector>

#include "harness/trace/block_events.h"

namespace elevbench {

/// One bio and when it was done.
struct TimedBio {
  TraceEvent bio;        ///< its block_bio_queue event
  uint64_t done_ns = 0;  ///< trace time of the completion of its last sector; 0: not seen
};

/// The bios of device major:minor in trace order. `unreadable` (may be null) counts event
/// lines that did not parse. Data-less bios (flushes) get no completion.
std::vector<TimedBio> TimeBiosFromTrace(std::string_view text, uint32_t major, uint32_t minor,
                                        uint64_t* unreadable);

}  // namespace elevbench
