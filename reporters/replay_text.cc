#include "reporters/replay_text.h"

#include <algorithm>
#include <cstdio>

#include "reporters/environment_text.h"
#include "scenarios/replay/replay_fidelity.h"
#include "scenarios/replay/replay_records.h"

namespace elevbench {
namespace {

std::string Ms(const LatencyHistogram& h, double p) {
  if (h.count() == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(h.ValueAtPercentile(p)) / 1e6);
  return buf;
}

std::string Heading(const ResultsDocument& doc) {
  const nlohmann::json& p = doc.parameters;
  std::string text = "Replay of " + p.value("trace", std::string("?")) + " (" +
                     std::to_string(p.value("trace_records", uint64_t{0})) + " bios, captured on " +
                     p.value("trace_device", std::string("?")) + " under " +
                     p.value("trace_scheduler", std::string("?")) + ": " +
                     p.value("trace_source", std::string("?")) + ")";
  char speed[64];
  std::snprintf(speed, sizeof speed, "; speed %g%s; replayer %s", p.value("speed", 1.0),
                p.value("no_stall", false) ? ", no stall" : "",
                p.value("replayer", std::string("fio")) == "dependent" ? "dependent" : "fio");
  return text + speed + "\n";
}

// One configuration's line: its repetitions combined.
std::string ConfigurationLine(const std::string& name, const std::vector<const ReplayRecord*>& rs) {
  LatencyHistogram reads, writes;
  double seconds = 0, mb_s = 0, lag = 0;
  bool lag_measured = true, kept = true;
  for (const ReplayRecord* r : rs) {
    reads.Merge(r->ReadLatency());
    writes.Merge(r->WriteLatency());
    seconds += r->replay_seconds / static_cast<double>(rs.size());
    mb_s += r->MegabytesPerSecond() / static_cast<double>(rs.size());
    lag = std::max(lag, r->lag_p99_ms);
    lag_measured = lag_measured && r->lag_measured;
    kept = kept && r->keeps_time;
  }
  char line[320];
  std::snprintf(line, sizeof line, "%-24s %8.2f %7.2f %8s %8s %8s %8s %8s %8s %8s %s\n",
                name.c_str(), seconds, mb_s, Ms(reads, 50).c_str(), Ms(reads, 99).c_str(),
                Ms(reads, 99.9).c_str(), Ms(writes, 50).c_str(), Ms(writes, 99).c_str(),
                Ms(writes, 99.9).c_str(),
                lag_measured ? (std::to_string(static_cast<int>(lag + 0.5))).c_str() : "-",
                lag_measured ? (kept ? "yes" : "NO") : "-");
  return line;
}

// One process's direction in one configuration, repetitions merged.
struct ProcessRow {
  std::string job, configuration, direction, engine;
  LatencyHistogram latency;  // the kernel's (or fio's when the cell was not traced)
  double fio_p99_ms = 0;     // fio's clat p99, beside it
};

void AddProcessRows(const std::string& id, const std::vector<const ReplayRecord*>& rs,
                    std::vector<ProcessRow>* rows) {
  std::vector<ProcessRow> mine;
  for (const ReplayRecord* r : rs) {
    for (size_t i = 0; i < r->processes.size(); ++i) {
      const ReplayProcess& p = r->processes[i];
      for (int d = 0; d < 2; ++d) {
        const LatencyHistogram& kernel = d == 0 ? p.kernel_read : p.kernel_write;
        const LatencyHistogram& fio = d == 0 ? p.job.read.clat : p.job.write.clat;
        const LatencyHistogram& used = r->lag_measured ? kernel : fio;
        if (used.count() == 0) continue;
        const std::string name = "p" + std::to_string(p.pid) + "_" + p.comm;
        auto it = std::find_if(mine.begin(), mine.end(), [&](const ProcessRow& row) {
          return row.job == name && row.direction == (d == 0 ? "read" : "write");
        });
        if (it == mine.end()) {
          mine.push_back({name, id, d == 0 ? "read" : "write", p.ioengine, {}, 0});
          it = mine.end() - 1;
        }
        it->latency.Merge(used);
        it->fio_p99_ms =
            std::max(it->fio_p99_ms, static_cast<double>(fio.ValueAtPercentile(99)) / 1e6);
      }
    }
  }
  rows->insert(rows->end(), mine.begin(), mine.end());
}

// Whether the dependent replayer (elevbench's engine) ran rather than fio.
bool DependentReplayer(const ResultsDocument& doc) {
  return doc.parameters.value("replayer", std::string("fio")) == "dependent";
}

std::string RenderProcessRows(const std::vector<ProcessRow>& rows, bool dependent) {
  std::string out = std::string("Per process (one ") + (dependent ? "engine thread" : "fio job") +
                    " each; latency of every bio as the kernel traced it, in ms):\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-20s %-6s %-7s %8s %8s %8s %8s %12s\n", "Process",
                "Configuration", "Dir", "Engine", "Bios", "p50", "p99", "p99.9",
                dependent ? "its own p99" : "fio clat p99");
  out += line;
  for (const ProcessRow& r : rows) {
    std::snprintf(line, sizeof line, "%-24s %-20s %-6s %-7s %8llu %8s %8s %8s %12.2f\n",
                  r.job.c_str(), r.configuration.c_str(), r.direction.c_str(), r.engine.c_str(),
                  static_cast<unsigned long long>(r.latency.count()), Ms(r.latency, 50).c_str(),
                  Ms(r.latency, 99).c_str(), Ms(r.latency, 99.9).c_str(), r.fio_p99_ms);
    out += line;
  }
  return out;
}

std::string CheckLine(const std::vector<ReplayRecord>& records, bool dependent) {
  size_t exact = 0;
  for (const ReplayRecord& r : records) {
    if (r.replayed_ops == r.trace_ops && r.replayed_bytes == r.trace_bytes) ++exact;
  }
  std::string line = "replayed exactly the trace's I/Os and bytes in " + std::to_string(exact) +
                     " of " + std::to_string(records.size()) + " cells";
  if (!records.empty()) {
    const ReplayRecord& r = records.front();
    line += " (" + std::to_string(r.trace_ops) + " I/Os, " + std::to_string(r.trace_bytes) +
            " bytes, " + std::to_string(r.processes.size()) +
            (dependent ? " engine threads for " : " fio jobs for ") +
            std::to_string(r.processes.size()) + " processes; offsets " + r.mapping;
    if (r.added_syncs > 0) line += "; " + std::to_string(r.added_syncs) + " preflushes as fsync";
    if (r.fua_writes > 0) line += "; " + std::to_string(r.fua_writes) + " FUA writes as plain";
    if (r.fio_bytes != r.replayed_bytes) {
      line += std::string(dependent ? "; the engine" : "; fio") + " itself counted " +
              std::to_string(r.fio_bytes) + " bytes";
    }
    line += ")";
  }
  line += "\n";
  double latest_start = -1;
  for (const ReplayRecord& r : records) {
    for (const ReplayProcess& p : r.processes)
      latest_start = std::max(latest_start, p.first_lag_ms);
  }
  if (latest_start >= 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "every job's first I/O within %.1f ms of its schedule\n",
                  latest_start);
    line += buf;
  }
  return line;
}

}  // namespace

bool RenderReplayReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                        std::string* err) {
  if (format != "table") {
    *err = "replay results print as table, not '" + format + "'";
    return false;
  }
  std::vector<ReplayRecord> records;
  if (!ReplayRecordsFromDocument(doc, &records, err)) return false;
  std::string out =
      RenderEnvironmentHeader(doc.context) + Heading(doc) +
      FidelityLine(FidelityOf(records, doc.parameters.value("trace_scheduler", std::string()))) +
      "\n";
  char head[320];
  std::snprintf(head, sizeof head, "%-24s %8s %7s %8s %8s %8s %8s %8s %8s %8s %s\n",
                "Configuration", "Seconds", "MB/s", "Rd p50", "Rd p99", "Rd p99.9", "Wr p50",
                "Wr p99", "Wr p99.9", "Lag p99", "Kept time");
  out += "(latencies in ms over every I/O of every repetition; lag bound " +
         std::to_string(static_cast<int>(doc.parameters.value("lag_bound_ms", 0.0))) +
         " ms at p99)\n" + head;
  std::vector<ProcessRow> process_rows;
  for (const std::string& id : IdentifierOrder(doc)) {
    std::vector<const ReplayRecord*> rs;
    for (const ReplayRecord& r : records) {
      if (r.identifier == id) rs.push_back(&r);
    }
    if (rs.empty()) continue;
    out += ConfigurationLine(id, rs);
    AddProcessRows(id, rs, &process_rows);
  }
  std::stable_sort(process_rows.begin(), process_rows.end(),
                   [](const ProcessRow& a, const ProcessRow& b) { return a.job < b.job; });
  *text = out + "\n" + RenderProcessRows(process_rows, DependentReplayer(doc)) + "\n" +
          CheckLine(records, DependentReplayer(doc));
  return true;
}

}  // namespace elevbench
