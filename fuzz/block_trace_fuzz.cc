// libFuzzer target: the block trace file reader (harness/trace/block_trace_file.h) and what
// reads a parsed trace: the summary of `trace show` and the replay plan. A trace that parses
// must render back to a text that parses to the same records. Seeds: tests/fixtures/trace/.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "harness/trace/block_trace_file.h"
#include "harness/trace/block_trace_summary.h"
#include "reporters/block_trace_text.h"
#include "scenarios/replay/replay_plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(elevbench::fuzz::AsText(data, size));
  elevbench::BlockTrace trace;
  std::string err;
  if (!elevbench::ParseBlockTrace(text, &trace, &err)) return 0;
  const std::string again = elevbench::RenderBlockTrace(trace);
  elevbench::BlockTrace back;
  if (!elevbench::ParseBlockTrace(again, &back, &err) ||
      elevbench::RenderBlockTrace(back) != again) {
    std::abort();  // what the writer writes, the reader must read back
  }
  const elevbench::BlockTraceSummary summary = elevbench::SummarizeBlockTrace(trace);
  (void)elevbench::RenderBlockTraceText(trace.header, summary);
  (void)elevbench::BlockTraceSummaryJson(trace.header, summary).dump();
  elevbench::ReplayPlan plan;
  (void)elevbench::PlanReplay(trace, "/dev/loop9", 1ULL << 30, {}, &plan, &err);
  return 0;
}
