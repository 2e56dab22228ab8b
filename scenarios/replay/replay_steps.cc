#include "scenarios/replay/replay_steps.h"

#include <cmath>

#include "scenarios/replay/replay_offsets.h"

namespace elevbench {

uint64_t ReplayClock::Us(uint64_t time_ns) const {
  return static_cast<uint64_t>(std::llround(static_cast<double>(time_ns) / 1000.0 / speed));
}

std::vector<uint32_t> LastSteps(const std::vector<ReplayIo>& ios) {
  std::vector<uint32_t> last;
  uint32_t steps = 0;
  for (const ReplayIo& io : ios) {
    steps += (io.flags & kTracePreflush) ? 2 : 1;
    last.push_back(steps - 1);
  }
  return last;
}

void AppendSteps(const ReplayIo& io, const ReplayDependency& dep,
                 const std::vector<std::vector<uint32_t>>& last_steps, uint64_t offset,
                 const ReplayClock& clock, ReplayJobSteps* out) {
  ReplayStep step;
  step.after_previous = dep.after_previous;
  if (dep.after_completion) {
    step.after_job = static_cast<int32_t>(dep.of.process);
    step.after_step = last_steps[dep.of.process][dep.of.io];
  }
  const bool waits = dep.after_previous || dep.after_completion;
  if (!clock.no_stall) step.us = waits ? clock.Us(dep.think_ns) : clock.Us(io.time_ns);
  if (waits) ++out->dependent_ios;
  if (dep.after_completion) ++out->woken_ios;
  if (io.flags & kTracePreflush) {
    step.op = BlockTraceOp::kFlush;
    out->steps.push_back(step);
    step = ReplayStep{};
    step.after_previous = true;
  }
  step.op = io.op;
  step.offset = offset;
  step.bytes = io.sectors * kReplaySectorBytes;
  out->steps.push_back(step);
}

}  // namespace elevbench
