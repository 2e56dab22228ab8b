#include "scenarios/replay/replay_summary.h"

#include <algorithm>
#include <map>

namespace elevbench {
namespace {

ReplayConfigurationSummary CombineRepetitions(const std::string& id,
                                              const std::vector<const ReplayRecord*>& rs) {
  ReplayConfigurationSummary c;
  c.identifier = id;
  for (const ReplayRecord* r : rs) {
    c.reads.Merge(r->ReadLatency());
    c.writes.Merge(r->WriteLatency());
    c.seconds += r->replay_seconds / static_cast<double>(rs.size());
    c.mb_s += r->MegabytesPerSecond() / static_cast<double>(rs.size());
    c.lag_p99_ms = std::max(c.lag_p99_ms, r->lag_p99_ms);
    c.lag_measured = c.lag_measured && r->lag_measured;
    c.kept_time = c.kept_time && r->keeps_time;
    c.journal_wait_ios = std::max(c.journal_wait_ios, r->journal_wait_ios);
    c.journal_wait_seconds += r->journal_wait_seconds / static_cast<double>(rs.size());
  }
  return c;
}

// The per-process row's "Replayed as" (ReplayProcess::replayed_as), "-" in older files.
std::string ReplayedAs(const ReplayProcess& p) {
  if (p.replayed_as == "buffered_writer") {
    return p.until_readers_end ? "buffered, to end" : "buffered";
  }
  if (p.replayed_as == "dependencies") return "dependencies";
  if (p.replayed_as == "recorded_times") return "recorded times";
  return "-";
}

// A process's row: "p<pid>_<comm>", and "_pagecache" after the buffered writer of a process
// that also had bios of its own, which the plan replays as two jobs (replay_plan.cc): their
// spans and latencies stay apart instead of merging into one row.
std::string ProcessRowName(const ReplayProcess& p) {
  const std::string tail = "_pagecache";
  const bool split = p.replayed_as == "buffered_writer" && p.job.name.size() > tail.size() &&
                     p.job.name.ends_with(tail);
  return "p" + std::to_string(p.pid) + "_" + p.comm + (split ? tail : "");
}

void AddProcesses(const std::string& id, const std::vector<const ReplayRecord*>& rs,
                  std::vector<ReplayProcessSummary>* rows) {
  std::vector<ReplayProcessSummary> mine;
  std::map<std::string, std::pair<double, int>> spans;  // by job name: sum, cells
  for (const ReplayRecord* r : rs) {
    for (const ReplayProcess& p : r->processes) {
      const std::string name = ProcessRowName(p);
      if (p.replay_span_seconds >= 0) {
        auto& [sum, cells] = spans[name];
        sum += p.replay_span_seconds;
        ++cells;
      }
      for (int d = 0; d < 2; ++d) {
        const LatencyHistogram& kernel = d == 0 ? p.kernel_read : p.kernel_write;
        const LatencyHistogram& fio = d == 0 ? p.job.read.clat : p.job.write.clat;
        const LatencyHistogram& used = r->lag_measured ? kernel : fio;
        if (used.count() == 0) continue;
        const std::string direction = d == 0 ? "read" : "write";
        auto it = std::find_if(mine.begin(), mine.end(), [&](const ReplayProcessSummary& row) {
          return row.job == name && row.direction == direction;
        });
        if (it == mine.end()) {
          mine.push_back({name, id, direction, p.ioengine, ReplayedAs(p), {}, 0});
          it = mine.end() - 1;
        }
        it->latency.Merge(used);
        it->fio_p99_ms =
            std::max(it->fio_p99_ms, static_cast<double>(fio.ValueAtPercentile(99)) / 1e6);
      }
    }
  }
  for (ReplayProcessSummary& row : mine) {
    const auto span = spans.find(row.job);
    if (span != spans.end()) row.span_seconds = span->second.first / span->second.second;
  }
  rows->insert(rows->end(), mine.begin(), mine.end());
}

// The buffered writers of one configuration, their cells' means.
void AddWriters(const std::string& id, const std::vector<const ReplayRecord*>& rs,
                std::vector<ReplayWriterSummary>* writer_rows) {
  std::vector<ReplayWriterSummary> writers;
  for (const ReplayRecord* r : rs) {
    for (const ReplayProcess& p : r->processes) {
      if (p.replayed_as != "buffered_writer") continue;
      const std::string name = ProcessRowName(p);
      auto it = std::find_if(writers.begin(), writers.end(),
                             [&](const ReplayWriterSummary& w) { return w.job == name; });
      if (it == writers.end()) {
        writers.push_back({name, id, p.until_readers_end, p.trace_bytes, 0, 0});
        it = writers.end() - 1;
      }
      const auto cells = static_cast<double>(rs.size());
      it->written_bytes += static_cast<double>(p.job.write.bytes) / cells;
      it->seconds += p.job.write.runtime_seconds / cells;
    }
  }
  writer_rows->insert(writer_rows->end(), writers.begin(), writers.end());
}

}  // namespace

ReplaySummary SummarizeReplay(const std::vector<ReplayRecord>& records,
                              const std::vector<std::string>& identifier_order) {
  ReplaySummary s;
  for (const std::string& id : identifier_order) {
    std::vector<const ReplayRecord*> rs;
    for (const ReplayRecord& r : records) {
      if (r.identifier == id) rs.push_back(&r);
    }
    if (rs.empty()) continue;
    s.configurations.push_back(CombineRepetitions(id, rs));
    AddProcesses(id, rs, &s.processes);
    AddWriters(id, rs, &s.writers);
  }
  std::stable_sort(
      s.processes.begin(), s.processes.end(),
      [](const ReplayProcessSummary& a, const ReplayProcessSummary& b) { return a.job < b.job; });
  std::stable_sort(
      s.writers.begin(), s.writers.end(),
      [](const ReplayWriterSummary& a, const ReplayWriterSummary& b) { return a.job < b.job; });
  for (const ReplayRecord& r : records) {
    // A buffered writer's pages count as replayed: its writes through the page cache stand for
    // them (ReplayRecord::buffered_ops).
    const uint64_t ops = r.replayed_ops + r.buffered_ops;
    const uint64_t bytes = r.replayed_bytes + r.buffered_bytes;
    if (ops == r.trace_ops && bytes == r.trace_bytes) ++s.exact_cells;
    if (bytes == r.trace_bytes) ++s.every_byte_cells;
    if (&r == &records.front() || ops < s.fewest_bios.replayed_ops) {
      s.fewest_bios = {ops,
                       r.trace_ops,
                       r.lag_measured,
                       r.missed_reads,
                       r.missed_writes,
                       r.missed_discards,
                       r.missed_flushes};
    }
    s.buffered_ops = std::max(s.buffered_ops, r.buffered_ops);
    s.buffered_bytes = std::max(s.buffered_bytes, r.buffered_bytes);
    for (const ReplayProcess& p : r.processes) {
      s.latest_first_lag_ms = std::max(s.latest_first_lag_ms, p.first_lag_ms);
    }
  }
  return s;
}

}  // namespace elevbench
