#include "scenarios/replay/replay_iolog.h"

#include <utility>

namespace elevbench {
namespace {

// fio releases its jobs about 100 ms after its genesis (it polls every 100 ms for them to have
// started, backend.c of 3.33), so the trace's time 0 is this long after genesis: its first I/Os
// would otherwise all be late by that much. Two polls' worth, in case one poll is not enough.
constexpr uint64_t kLeadInMs = 250;

}  // namespace

const char* IologAction(BlockTraceOp op) {
  switch (op) {
    case BlockTraceOp::kRead:
      return "read";
    case BlockTraceOp::kWrite:
      return "write";
    case BlockTraceOp::kDiscard:
      return "trim";
    case BlockTraceOp::kFlush:
      return "sync";
  }
  return "sync";
}

IologWriter::IologWriter(std::string device) : device_(std::move(device)) {
  text_ = "fio version 2 iolog\n" + device_ + " add\n" + device_ + " open\n";
}

// The iolog v2 line "DEVICE wait MS 0" that holds the job until MS milliseconds after fio's
// genesis, unless `ms` is not later than the last wait written.
void IologWriter::WaitMs(uint64_t ms) {
  if (ms <= last_wait_ms_) return;
  text_ += device_ + " wait " + std::to_string(ms) + " 0\n";
  last_wait_ms_ = ms;
}

void IologWriter::WaitUntil(uint64_t at_us) { WaitMs(kLeadInMs + at_us / 1000); }

void IologWriter::KeepOneWait() { WaitMs(kLeadInMs); }

void IologWriter::Io(BlockTraceOp op, uint64_t offset, uint64_t bytes) {
  text_ += device_ + " " + IologAction(op) + " " + std::to_string(offset) + " " +
           std::to_string(bytes) + "\n";
}

std::string IologWriter::Close() { return text_ + device_ + " close\n"; }

}  // namespace elevbench
