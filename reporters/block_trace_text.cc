#include "reporters/block_trace_text.h"

#include <cstdio>

#include "harness/core/strings.h"

namespace elevbench {
namespace {

std::string Megabytes(uint64_t bytes) {
  return FormatDouble("%.2f MB", static_cast<double>(bytes) / 1e6);
}

std::string SizeLabel(uint64_t bytes) {
  if (bytes >= (1ULL << 20)) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string DirectionLine(const char* name, const TraceDirectionSummary& d) {
  const double seq =
      d.ops > 0 ? 100.0 * static_cast<double>(d.sequential_ops) / static_cast<double>(d.ops) : 0;
  return std::string(name) + std::to_string(d.ops) + " bios, " + Megabytes(d.bytes) + ", " +
         FormatDouble("%.1f", seq) + " % sequential\n";
}

std::string LatencyText(const LatencyHistogram& h) {
  if (h.count() == 0) return "-";
  char buf[96];
  std::snprintf(buf, sizeof buf, "p50 %.2f ms, p99 %.2f ms",
                static_cast<double>(h.ValueAtPercentile(50)) / 1e6,
                static_cast<double>(h.ValueAtPercentile(99)) / 1e6);
  return buf;
}

nlohmann::json LatencyJson(const LatencyHistogram& h) {
  return {{"count", h.count()},
          {"p50_ms", static_cast<double>(h.ValueAtPercentile(50)) / 1e6},
          {"p99_ms", static_cast<double>(h.ValueAtPercentile(99)) / 1e6},
          {"max_ms", static_cast<double>(h.max_ns()) / 1e6}};
}

// null for a version 1 trace: not "none", nobody knows.
nlohmann::json BufferedWritersJson(const BlockTraceHeader& h, const BlockTraceSummary& s) {
  if (!h.writeback_traced) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const TraceBufferedWriter& w : s.buffered_writers) {
    out.push_back({{"pid", w.dirtier.pid},
                   {"comm", w.dirtier.comm},
                   {"folios", w.dirtier.folios},
                   {"first_dirtied_s", static_cast<double>(w.dirtier.first_ns) / 1e9},
                   {"last_dirtied_s", static_cast<double>(w.dirtier.last_ns) / 1e9},
                   {"held_back_s", static_cast<double>(w.dirtier.held_back_ns) / 1e9},
                   {"writes", w.writes},
                   {"bytes", w.bytes}});
  }
  return out;
}

nlohmann::json DirectionJson(const TraceDirectionSummary& d) {
  return {{"ops", d.ops}, {"bytes", d.bytes}, {"sequential_ops", d.sequential_ops}};
}

std::string ProcessTable(const BlockTraceSummary& s, size_t max_processes) {
  // Every bio in one column: bios = reads + writes + discards + flushes.
  std::string out =
      "\n  pid      comm              bios      reads     writes   discards    flushes         "
      "MB\n";
  size_t shown = 0;
  for (const TraceProcessSummary& p : s.processes) {
    if (shown++ == max_processes) {
      out += "  (" + std::to_string(s.processes.size() - max_processes) + " more processes)\n";
      break;
    }
    char line[160];
    std::snprintf(line, sizeof line, "  %-8d %-16s %6llu %10llu %10llu %10llu %10llu %10.2f\n",
                  p.pid, p.comm.c_str(), static_cast<unsigned long long>(p.ops),
                  static_cast<unsigned long long>(p.reads),
                  static_cast<unsigned long long>(p.writes),
                  static_cast<unsigned long long>(p.discards),
                  static_cast<unsigned long long>(p.flushes), static_cast<double>(p.bytes) / 1e6);
    out += line;
  }
  return out;
}

// The buffered writers of a version 2 trace: whose pages the writes were, whoever queued them.
std::string BufferedWriterTable(const BlockTraceHeader& h, const BlockTraceSummary& s) {
  if (!h.writeback_traced) return "";
  if (s.buffered_writers.empty())
    return "\n  buffered writers: none (no page of this disk dirtied)\n";
  std::string out =
      "\n  buffered writers (writes of their pages, whoever queued them):\n"
      "  pid      comm             folios     writes         MB   held back, s   dirtying, s\n";
  for (const TraceBufferedWriter& w : s.buffered_writers) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-8d %-16s %6llu %10llu %10.2f %14.3f   %.3f-%.3f\n",
                  w.dirtier.pid, w.dirtier.comm.c_str(),
                  static_cast<unsigned long long>(w.dirtier.folios),
                  static_cast<unsigned long long>(w.writes), static_cast<double>(w.bytes) / 1e6,
                  static_cast<double>(w.dirtier.held_back_ns) / 1e9,
                  static_cast<double>(w.dirtier.first_ns) / 1e9,
                  static_cast<double>(w.dirtier.last_ns) / 1e9);
    out += line;
  }
  return out +
         "  (held back: pauses of 50 ms or more in its dirtying while writes of its pages "
         "were queued)\n";
}

}  // namespace

std::string RenderBlockTraceText(const BlockTraceHeader& h, const BlockTraceSummary& s,
                                 size_t max_processes) {
  std::string out = "block trace of " + h.device + " (" + Megabytes(h.device_bytes) + ", " +
                    std::to_string(h.logical_block_bytes) + "-byte blocks), " + h.scheduler +
                    ", Linux " + h.kernel + ", " + h.captured_at + "\n";
  std::string source = h.source;  // a command may span lines: one line here
  for (char& c : source) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  out += "  source: " + source + "\n";
  // Every size here is decimal, as the trace's bytes are counted (docs/replay.md §2); the
  // reports' MB is 2^20 bytes, so the page says which it uses (#45 §5).
  out += "  units: MB = 10^6 bytes\n";
  out += "  duration " + FormatDouble("%.3f", s.duration_seconds) + " s, " +
         std::to_string(s.records) + " bios from " + std::to_string(s.processes.size()) +
         " processes" +
         (h.lost_events > 0 ? ", " + std::to_string(h.lost_events) + " EVENTS LOST" : "") + "\n";
  out += DirectionLine("  reads:    ", s.reads);
  out += DirectionLine("  writes:   ", s.writes);
  if (s.discards.ops > 0) out += DirectionLine("  discards: ", s.discards);
  out += "  flushes:  " + std::to_string(s.flushes) + " (and " + std::to_string(s.preflushes) +
         " writes with a preflush, " + std::to_string(s.fua) + " FUA writes); " +
         std::to_string(s.sync_ops) + " bios marked sync\n";
  out += "  sizes:   ";
  for (const auto& [bytes, count] : s.sizes) {
    out += " <=" + SizeLabel(bytes) + ": " + std::to_string(count) + ";";
  }
  if (!s.sizes.empty()) out.pop_back();
  out += "\n  span:     sectors " + std::to_string(s.first_sector) + " to " +
         std::to_string(s.end_sector) + " (" + Megabytes(s.SpanBytes()) + "); " +
         FormatDouble("%.1f", 100 * s.SequentialShare()) + " % of the data bios sequential\n";
  out += "  latency as traced: reads " + LatencyText(s.read_latency) + "; writes " +
         LatencyText(s.write_latency) + "\n";
  out += "  busiest second: " + std::to_string(s.busiest_second) + "-" +
         std::to_string(s.busiest_second + 1) + " s, " + std::to_string(s.busiest_second_ops) +
         " bios, " + Megabytes(s.busiest_second_bytes) + "\n";
  return out + ProcessTable(s, max_processes) + BufferedWriterTable(h, s);
}

nlohmann::json BlockTraceSummaryJson(const BlockTraceHeader& h, const BlockTraceSummary& s) {
  nlohmann::json sizes = nlohmann::json::object();
  for (const auto& [bytes, count] : s.sizes) sizes[std::to_string(bytes)] = count;
  nlohmann::json processes = nlohmann::json::array();
  for (const TraceProcessSummary& p : s.processes) {
    processes.push_back({{"pid", p.pid},
                         {"comm", p.comm},
                         {"ops", p.ops},
                         {"bytes", p.bytes},
                         {"reads", p.reads},
                         {"writes", p.writes},
                         {"discards", p.discards},
                         {"flushes", p.flushes}});
  }
  return {{"format_version", h.version},
          {"device", h.device},
          {"device_bytes", h.device_bytes},
          {"logical_block_bytes", h.logical_block_bytes},
          {"kernel", h.kernel},
          {"scheduler", h.scheduler},
          {"captured_at", h.captured_at},
          {"source", h.source},
          {"command", h.command},
          {"lost_events", h.lost_events},
          {"duration_seconds", s.duration_seconds},
          {"records", s.records},
          {"reads", DirectionJson(s.reads)},
          {"writes", DirectionJson(s.writes)},
          {"discards", DirectionJson(s.discards)},
          {"flushes", s.flushes},
          {"preflush_writes", s.preflushes},
          {"fua_writes", s.fua},
          {"sync_ops", s.sync_ops},
          {"sizes", sizes},
          {"first_sector", s.first_sector},
          {"end_sector", s.end_sector},
          {"span_bytes", s.SpanBytes()},
          {"sequential_share", s.SequentialShare()},
          {"busiest_second",
           {{"start_s", s.busiest_second},
            {"ops", s.busiest_second_ops},
            {"bytes", s.busiest_second_bytes}}},
          {"read_latency", LatencyJson(s.read_latency)},
          {"write_latency", LatencyJson(s.write_latency)},
          {"processes", processes},
          {"buffered_writers", BufferedWritersJson(h, s)}};
}

}  // namespace elevbench
