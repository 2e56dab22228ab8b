#include "harness/core/trace_mode.h"

namespace elevbench {

const char* TraceModeName(TraceMode mode) {
  switch (mode) {
    case TraceMode::kSummary:
      return "summary";
    case TraceMode::kFull:
      return "full";
    default:
      return "off";
  }
}

bool ParseTraceMode(const std::string& text, TraceMode* mode) {
  for (TraceMode m : {TraceMode::kOff, TraceMode::kSummary, TraceMode::kFull}) {
    if (text == TraceModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

}  // namespace elevbench
