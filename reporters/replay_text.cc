#include "reporters/replay_text.h"

#include <algorithm>
#include <cstdio>

#include "reporters/environment_text.h"
#include "reporters/suite_report.h"
#include "scenarios/replay/replay_fidelity.h"
#include "scenarios/replay/replay_records.h"
#include "scenarios/replay/replay_summary.h"

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

// One configuration's line.
std::string ConfigurationLine(const ReplayConfigurationSummary& c) {
  char line[320];
  std::snprintf(
      line, sizeof line, "%-24s %8.2f %7.2f %8s %8s %8s %8s %8s %8s %8s %s\n", c.identifier.c_str(),
      c.seconds, c.mb_s, Ms(c.reads, 50).c_str(), Ms(c.reads, 99).c_str(),
      Ms(c.reads, 99.9).c_str(), Ms(c.writes, 50).c_str(), Ms(c.writes, 99).c_str(),
      Ms(c.writes, 99.9).c_str(),
      c.lag_measured ? (std::to_string(static_cast<int>(c.lag_p99_ms + 0.5))).c_str() : "-",
      c.lag_measured ? (c.kept_time ? "yes" : "NO") : "-");
  return line;
}

// Whether the dependent replayer (elevbench's engine) ran rather than fio.
bool DependentReplayer(const ResultsDocument& doc) {
  return doc.parameters.value("replayer", std::string("fio")) == "dependent";
}

std::string RenderProcessRows(const std::vector<ReplayProcessSummary>& rows, bool dependent) {
  std::string out = std::string("Per process (one ") + (dependent ? "engine thread" : "fio job") +
                    " each; latency of every bio as the kernel traced it, in ms; its span, first "
                    "bio queued to last completed, mean of the cells):\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-20s %-6s %-8s %-16s %8s %8s %8s %8s %12s %8s\n",
                "Process", "Configuration", "Dir", "Engine", "Replayed as", "Bios", "p50", "p99",
                "p99.9", dependent ? "its own p99" : "fio clat p99", "Span s");
  out += line;
  for (const ReplayProcessSummary& r : rows) {
    char span[32] = "-";
    if (r.span_seconds >= 0) std::snprintf(span, sizeof span, "%.3f", r.span_seconds);
    std::snprintf(line, sizeof line, "%-24s %-20s %-6s %-8s %-16s %8llu %8s %8s %8s %12.2f %8s\n",
                  r.job.c_str(), r.configuration.c_str(), r.direction.c_str(), r.engine.c_str(),
                  r.replayed_as.c_str(), static_cast<unsigned long long>(r.latency.count()),
                  Ms(r.latency, 50).c_str(), Ms(r.latency, 99).c_str(), Ms(r.latency, 99.9).c_str(),
                  r.fio_p99_ms, span);
    out += line;
  }
  return out;
}

// The buffered writers' lines (ReplayWriterSummary): what each wrote through the page cache in
// each configuration against its pages in the trace; "" when there were none.
std::string RenderWriterRows(const std::vector<ReplayWriterSummary>& rows) {
  if (rows.empty()) return "";
  std::string out =
      "Buffered writers (held back in the capture: written through the target's page cache as "
      "fast as the kernel let them, MB = 2^20 bytes, means of the cells):\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-20s %-22s %10s %10s %9s\n", "Process", "Configuration",
                "Wrote", "MB", "Trace MB", "Seconds");
  out += line;
  for (const ReplayWriterSummary& w : rows) {
    std::snprintf(
        line, sizeof line, "%-24s %-20s %-22s %10.1f %10.1f %9.3f\n", w.job.c_str(),
        w.configuration.c_str(), w.until_readers_end ? "until the readers ended" : "its volume",
        w.written_bytes / 1048576.0, static_cast<double>(w.trace_bytes) / 1048576.0, w.seconds);
    out += line;
  }
  return out;
}

// "1 flush", "2 reads, 1 flush": the kinds of the trace's bios a cell did not replay.
std::string MissingKinds(const ReplayShortfall& f) {
  std::string out;
  for (const auto& [count, kind] : {std::pair<uint64_t, const char*>{f.reads, "read"},
                                    {f.writes, "write"},
                                    {f.discards, "discard"},
                                    {f.flushes, "flush"}}) {
    if (count == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
    if (count > 1) out += std::string(kind) == "flush" ? "es" : "s";
  }
  return out;
}

// How much of the trace the cells replayed: every bio and byte, or which cells fell short and,
// for the one with the fewest bios, of which kinds (a reader must not take one unreplayed
// flush for a failed replay).
std::string AccountLine(size_t cells, const ReplaySummary& summary) {
  if (cells == 0) return "";
  if (summary.exact_cells == cells) {
    return "replayed every bio and byte in all " + std::to_string(cells) + " cells\n";
  }
  const std::string of = " of " + std::to_string(cells) + " cells";
  std::string line = "replayed every byte in " + std::to_string(summary.every_byte_cells) + of +
                     ", every bio in " + std::to_string(summary.exact_cells) + of;
  const ReplayShortfall& f = summary.fewest_bios;
  line += "; the fewest: " + std::to_string(f.replayed_ops) + " of " + std::to_string(f.trace_ops) +
          " bios";
  const std::string kinds = MissingKinds(f);
  if (!f.traced) {
    line += " (the replayer's count: its bios were not traced)";
  } else if (!kinds.empty()) {
    line += ", not seen at the device: " + kinds;
  }
  return line + "\n";
}

std::string CheckLine(const std::vector<ReplayRecord>& records, const ReplaySummary& summary,
                      bool dependent) {
  std::string line;
  if (!records.empty()) {
    const ReplayRecord& r = records.front();
    line += "trace: " + std::to_string(r.trace_ops) + " bios, " + std::to_string(r.trace_bytes) +
            " bytes; " + std::to_string(r.processes.size()) +
            (dependent ? " engine threads for " : " fio jobs for ") +
            std::to_string(r.processes.size()) + " processes; offsets " + r.mapping;
    if (r.added_syncs > 0) line += "; " + std::to_string(r.added_syncs) + " preflushes as fsync";
    if (r.fua_writes > 0) line += "; " + std::to_string(r.fua_writes) + " FUA writes as plain";
    if (summary.buffered_ops > 0) {
      line += "; " + std::to_string(summary.buffered_ops) + " bios (" +
              std::to_string(summary.buffered_bytes) +
              " bytes) of buffered writers' pages replayed as their writes";
    }
    if (r.journal_log_writes > 0) {
      line +=
          ", pausing during the journal's " + std::to_string(r.journal_log_writes) + " log writes";
    }
    if (r.fio_bytes != r.replayed_bytes) {
      line += std::string(dependent ? "; the engine" : "; fio") + " itself counted " +
              std::to_string(r.fio_bytes) + " bytes";
    }
    line += "\n";
  }
  line += AccountLine(records.size(), summary);
  if (summary.latest_first_lag_ms >= 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "every job's first I/O within %.1f ms of its schedule\n",
                  summary.latest_first_lag_ms);
    line += buf;
  }
  return line;
}

// The readers' waits after their journal handles, by configuration; "" without any.
std::string JournalWaitLine(const ReplaySummary& summary) {
  uint64_t ios = 0;
  for (const ReplayConfigurationSummary& c : summary.configurations) {
    ios = std::max(ios, c.journal_wait_ios);
  }
  if (ios == 0) return "";
  std::string line = "journal waits: the readers' " + std::to_string(ios) +
                     (ios == 1 ? " I/O" : " I/Os") +
                     " after a journal handle, held while a metadata write was in flight "
                     "(mean s a cell):";
  for (const ReplayConfigurationSummary& c : summary.configurations) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " %s %.3f,", c.identifier.c_str(), c.journal_wait_seconds);
    line += buf;
  }
  line.back() = '\n';
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
      RenderEnvironmentHeader(doc.context, kUnitsMebibytes) + Heading(doc) +
      FidelityLine(FidelityOf(records, doc.parameters.value("trace_scheduler", std::string()))) +
      "\n";
  char head[320];
  std::snprintf(head, sizeof head, "%-24s %8s %7s %8s %8s %8s %8s %8s %8s %8s %s\n",
                "Configuration", "Seconds", "MB/s", "Rd p50", "Rd p99", "Rd p99.9", "Wr p50",
                "Wr p99", "Wr p99.9", "Lag p99", "Kept time");
  out += "(latencies in ms over every I/O of every repetition; lag bound " +
         std::to_string(static_cast<int>(doc.parameters.value("lag_bound_ms", 0.0))) +
         " ms at p99)\n" + head;
  const ReplaySummary summary = SummarizeReplay(records, IdentifierOrder(doc));
  for (const ReplayConfigurationSummary& c : summary.configurations) out += ConfigurationLine(c);
  for (const auto& identifier_key : CellVariantKeys(doc, "")) {  // every cell failed: a row
    const std::string& identifier = identifier_key.first;        // named: the lambda captures it
    const bool has_row = std::any_of(
        summary.configurations.begin(), summary.configurations.end(),
        [&](const ReplayConfigurationSummary& c) { return c.identifier == identifier; });
    if (has_row) continue;
    char line[160];
    std::snprintf(line, sizeof line, "%-24s failed\n", identifier.c_str());
    out += line;
  }
  const std::string writers = RenderWriterRows(summary.writers);
  *text = out + "\n" + RenderProcessRows(summary.processes, DependentReplayer(doc)) + "\n" +
          (writers.empty() ? "" : writers + "\n") +
          CheckLine(records, summary, DependentReplayer(doc)) + JournalWaitLine(summary);
  return true;
}

}  // namespace elevbench
