#include "scenarios/replay/replay_fidelity.h"

#include <algorithm>
#include <cstdio>

namespace elevbench {

namespace {

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// Each process's reads pooled over `cells` (the kernel's latencies), against the trace's median.
std::vector<ReplayReadFidelity> ReadFidelity(const std::vector<const ReplayRecord*>& cells) {
  std::vector<ReplayReadFidelity> out;
  const std::vector<ReplayProcess>& processes = cells.front()->processes;
  for (size_t i = 0; i < processes.size(); ++i) {
    if (processes[i].trace_read_p50_ms <= 0) continue;
    LatencyHistogram reads;
    for (const ReplayRecord* r : cells) {
      if (i < r->processes.size()) reads.Merge(r->processes[i].kernel_read);
    }
    if (reads.count() == 0) continue;
    ReplayReadFidelity f;
    f.process = "p" + std::to_string(processes[i].pid) + "_" + processes[i].comm;
    f.traced_ms = processes[i].trace_read_p50_ms;
    f.replayed_ms = static_cast<double>(reads.ValueAtPercentile(50)) / 1e6;
    f.ratio = f.replayed_ms / f.traced_ms;
    out.push_back(f);
  }
  return out;
}

}  // namespace

ReplayFidelity FidelityOf(const std::vector<ReplayRecord>& records,
                          const std::string& capture_scheduler) {
  ReplayFidelity f;
  f.scheduler = capture_scheduler;
  std::vector<const ReplayRecord*> mine;
  bool any = false;
  std::string untraced_why;  // the first cell's under the scheduler whose bios were not traced
  for (const ReplayRecord& r : records) {
    if (r.scheduler != capture_scheduler) continue;
    any = true;
    if (r.lag_measured && r.trace_span_seconds > 0) mine.push_back(&r);
    if (!r.lag_measured && untraced_why.empty()) untraced_why = r.lag_problem;
  }
  if (!any) {
    f.problem =
        "the capture ran under " + capture_scheduler + ", which is not among the configurations";
    return f;
  }
  if (mine.empty() && !untraced_why.empty()) {
    f.problem = "the replays' bios were not traced: " + untraced_why;
    return f;
  }
  if (mine.empty()) {
    f.problem =
        "the replays' bios were not traced (root and tracefs), or the capture has no "
        "timed bios";
    return f;
  }
  std::vector<double> spans;
  for (const ReplayRecord* r : mine) spans.push_back(r->replay_seconds);
  f.cells = mine.size();
  f.trace_span_seconds = mine.front()->trace_span_seconds;
  f.replay_span_seconds = Median(spans);
  f.span_ratio = f.replay_span_seconds / f.trace_span_seconds;
  f.reads = ReadFidelity(mine);
  return f;
}

nlohmann::json FidelityToJson(const ReplayFidelity& f) {
  if (!f.problem.empty()) return {{"scheduler", f.scheduler}, {"problem", f.problem}};
  nlohmann::json reads = nlohmann::json::array();
  for (const ReplayReadFidelity& r : f.reads) {
    reads.push_back({{"process", r.process},
                     {"traced_ms", r.traced_ms},
                     {"replayed_ms", r.replayed_ms},
                     {"ratio", r.ratio}});
  }
  return {{"scheduler", f.scheduler},
          {"cells", f.cells},
          {"trace_span_seconds", f.trace_span_seconds},
          {"replay_span_seconds", f.replay_span_seconds},
          {"span_ratio", f.span_ratio},
          {"read_p50", std::move(reads)}};
}

std::string FidelityLine(const ReplayFidelity& f) {
  if (!f.problem.empty()) return "Fidelity under " + f.scheduler + ": not measured: " + f.problem;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "Fidelity under %s (the capture's scheduler): the replay took %.2f× the traced "
                "span (%.3f s against %.3f s, median of %zu cell%s)",
                f.scheduler.c_str(), f.span_ratio, f.replay_span_seconds, f.trace_span_seconds,
                f.cells, f.cells == 1 ? "" : "s");
  std::string line = buf;
  for (size_t i = 0; i < f.reads.size(); ++i) {
    const ReplayReadFidelity& r = f.reads[i];
    std::snprintf(buf, sizeof buf, "%s %.2f× (%.2f ms against %.2f ms)", r.process.c_str(), r.ratio,
                  r.replayed_ms, r.traced_ms);
    line += (i == 0 ? "; reads p50: " : ", ") + std::string(buf);
  }
  return line;
}

}  // namespace elevbench
