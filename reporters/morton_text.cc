#include "reporters/morton_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/gnu_time.h"
#include "reporters/probes_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {
namespace {

// What a probe position is when it has no finished repetition, or a note when only some did.
std::string NotFinishedText(const MortonProbeRow& p) {
  if (p.dnf > 0) {
    return p.timeout_seconds > 0 ? "DNF after " + ProbeTimeoutText(p.timeout_seconds) : "DNF";
  }
  return "failed (exit " + std::to_string(p.failed_exit_code) + ")";
}

// " (1 of 3 repetitions DNF)" for a probe that finished in some repetitions only (so `total` is
// at least 2: never the single repetition's bare "DNF").
std::string PartialNote(const MortonProbeRow& p) {
  const uint32_t total = p.ok + p.dnf + p.failed;
  std::string note;
  if (p.dnf > 0) note += " (" + HowManyText(p.dnf, total, "DNF") + ")";
  if (p.failed > 0) {
    note += " (" + HowManyText(p.failed, total, "failed") + ", exit " +
            std::to_string(p.failed_exit_code) + ")";
  }
  return note;
}

// "(streaming writer 40.1 MB/s into the page cache)": the loads are buffered, so their rate is
// the page cache's, which may be far above the disk's (12805.7 MB/s on a 49 MB/s disk).
std::string LoadText(const std::vector<MortonLoadRow>& load) {
  std::string text;
  for (const MortonLoadRow& l : load) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s %.1f MB/s %s the page cache",
                  l.name == "streaming-writer"   ? "streaming writer"
                  : l.name == "streaming-reader" ? "streaming reader"
                                                 : l.name.c_str(),
                  l.mb_s, l.direction == "write" ? "into" : "from");
    text += (text.empty() ? "" : ", ") + std::string(buf);
  }
  return text.empty() ? "" : " (" + text + ")";
}

// Probe positions in the order a shell prints their `time` lines: finished ones by elapsed
// time, then the others in start order.
std::vector<size_t> CompletionOrder(const std::vector<MortonProbeRow>& probes) {
  std::vector<size_t> order(probes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const bool fa = probes[a].ok > 0, fb = probes[b].ok > 0;
    if (fa != fb) return fa;
    return fa && probes[a].elapsed_seconds < probes[b].elapsed_seconds;
  });
  return order;
}

}  // namespace

std::string MortonSecondsText(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return "0.00";
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(seconds))), 2, 6);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, seconds);
  return buf;
}

std::vector<std::string> RenderMortonRow(const std::string& label, const MortonRow& row) {
  std::vector<std::string> lines;
  if (row.repetitions == 0) return {label + ": failed"};  // no record: every cell failed
  const MortonTimeStyle style = MortonTimeStyleOf(row.test);
  if (style == MortonTimeStyle::kSeconds) {
    std::string line = label + ": ";
    for (size_t i = 0; i < row.probes.size(); ++i) {
      const MortonProbeRow& p = row.probes[i];
      if (i > 0) line += ", ";
      line += p.ok > 0 ? MortonSecondsText(p.elapsed_seconds) + " seconds" + PartialNote(p)
                       : NotFinishedText(p);
    }
    lines.push_back(line + LoadText(row.load));
    return lines;
  }
  lines.push_back(label + ":");
  for (size_t i : CompletionOrder(row.probes)) {
    const MortonProbeRow& p = row.probes[i];
    if (style == MortonTimeStyle::kZsh) {
      lines.push_back(
          p.ok > 0 ? ZshTimeLine(p.command, p.user_seconds, p.system_seconds, p.elapsed_seconds) +
                         PartialNote(p)
                   : p.command + "  " + NotFinishedText(p));
    } else {
      lines.push_back(p.ok > 0 ? BashTimeReal(p.elapsed_seconds) + PartialNote(p)
                               : "real\t" + NotFinishedText(p));
    }
  }
  return lines;
}

std::string RenderMortonText(const nlohmann::json& context, const std::vector<MortonRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const MortonRow& row : rows) {
    if (row.repetitions > 0) repetitions.push_back(row.repetitions);
  }
  out << RenderEnvironmentHeader(context, std::string(kUnitsMebibytes) +
                                              "; a tree's size in MB of 10^6 bytes, as "
                                              "--tree-size takes it")
      << MeansLine(repetitions, "");
  for (size_t i = 0; i < rows.size();) {
    const int test = rows[i].test;
    if (i > 0) out << "\n";
    out << MortonTestTitle(test) << "\n" << rows[i].description << "\n";
    if (!rows[i].stand_in.empty()) out << "(" << rows[i].stand_in << ")\n";
    const bool blocks = MortonTimeStyleOf(test) != MortonTimeStyle::kSeconds;
    for (; i < rows.size() && rows[i].test == test; ++i) {
      const std::string label = rows[i].label.empty() ? rows[i].identifier : rows[i].label;
      if (blocks) out << "\n";
      for (const std::string& line : RenderMortonRow(label, rows[i])) out << line << "\n";
    }
  }
  return out.str();
}

bool RenderMortonReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                        std::string* err) {
  return RenderSuiteReport(
      doc, format, {"morton", {"akpm"}}, MortonRecordsFromDocument, AggregateMortonRows,
      [&](std::vector<MortonRow> rows) {
        InsertFailedRows(
            doc, "test", &rows,
            [](const MortonRow& r, const nlohmann::json& key) {
              return key.is_number_integer() && r.test == key.get<int>();
            },
            [&](const nlohmann::json& key) {
              MortonRow row;
              row.test = key.is_number_integer() ? key.get<int>() : 0;
              for (const MortonRow& r : rows) {  // the test's words, from a row that has them
                if (r.test == row.test && r.repetitions > 0) {
                  row.description = r.description;
                  row.stand_in = r.stand_in;
                }
              }
              return row;
            });
        return RenderMortonText(doc.context, rows);
      },
      text, err);
}

}  // namespace elevbench
