#pragma once
// `elevbench run replay --trace FILE`: a block trace made by `elevbench capture` replayed under
// every configuration by elevbench's io_uring engine (`--replayer dependent`, the default), each
// I/O that waited for its predecessor in the capture issued after that one completes
// (replay_engine.h); with `--replayer fio`, by fio instead, one fio job per traced process, each
// I/O at its recorded time (docs/replay.md). Runs on a raw block device: the emulated or scratch
// device without a filesystem, or the user's --device (with --allow-writes when the trace writes).

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the replay suite (the table of suites calls this).
std::unique_ptr<Suite> MakeReplaySuite();

}  // namespace elevbench
