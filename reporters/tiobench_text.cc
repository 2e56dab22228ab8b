#include "reporters/tiobench_text.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "reporters/environment_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {
namespace {

// Perl format text fields truncate to the field width.
std::string LeftField(const std::string& text, size_t width) {
  std::string s = text.substr(0, width);
  s.append(width - s.size(), ' ');
  return s;
}

std::string RightField(const std::string& text, size_t width) {
  std::string s = text.substr(0, width);
  return std::string(width - s.size(), ' ') + s;
}

// `@|||` centring: Perl puts half of the padding (rounded down) on the left.
std::string CentreField(const std::string& text, size_t width) {
  std::string s = text.substr(0, width);
  size_t pad = width - s.size();
  return std::string(pad / 2, ' ') + s + std::string(pad - pad / 2, ' ');
}

const char kNickHeader[] =
    "                Num                   Avg      Maximum     Lat%  Lat%   CPU\n"
    "Identifier      Thr   Rate  (CPU%)  Latency    Latency     >2s   >10s   Eff\n"
    "--------------- ---  ------ ------ --------- -----------  ----- ------ -----\n";

// Nick's header with an identifier column `width` wide (the seed's is 15).
std::string NickHeader(size_t width) {
  const size_t seed = 15;
  std::string header;
  std::string_view lines(kNickHeader);
  for (int i = 0; i < 3; ++i) {
    const size_t end = lines.find('\n');
    const std::string_view rest = lines.substr(seed, end + 1 - seed);
    const std::string head = i == 0   ? std::string()
                             : i == 1 ? "Identifier"
                                      : std::string(width, '-');
    header += LeftField(head, width) + std::string(rest);
    lines.remove_prefix(end + 1);
  }
  return header;
}

// The nick layout's identifier column: the seed's 15, or the longest identifier when one is
// longer (issue 45: "6.18.44-fc-v1272" printed as "6.18.44-fc-v127").
size_t NickIdentifierWidth(const std::vector<TioTableRow>& rows) {
  size_t width = 15;
  for (const TioTableRow& row : rows) width = std::max(width, row.identifier.size());
  return width;
}

const char kTiobenchHeader[] =
    "                              File  Blk   Num                   Avg      Maximum      Lat%"
    "     Lat%    CPU\n"
    "Identifier                    Size  Size  Thr   Rate  (CPU%)  Latency    Latency      >2s "
    "     >10s    Eff\n"
    "---------------------------- ------ ----- ---  ------ ------ --------- -----------  "
    "-------- -------- -----\n";

const char kTiobenchUnits[] =
    "\nUnit information\n"
    "================\n"
    "File size = megabytes\n"
    "Blk Size  = bytes\n"
    "Rate      = megabytes per second\n"
    "CPU%      = percentage of CPU used during the test\n"
    "Latency   = milliseconds\n"
    "Lat%      = percent of requests that took longer than X seconds\n"
    "CPU Eff   = Rate divided by CPU% - throughput per cpu load\n";

}  // namespace

std::string PerlCpuText(double cpu_pct) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", cpu_pct);
  return std::string(buf).substr(0, 5);
}

std::string PerlNumericField(double value, int width, int decimals) {
  char buf[64];
  if (!std::isfinite(value)) {
    std::snprintf(buf, sizeof buf, "%*s", width,
                  std::isnan(value) ? "nan"
                  : value > 0       ? "inf"
                                    : "-inf");
    return buf;
  }
  // Perl's formline prints '#' characters for a number wider than its field; a reader needs
  // the number (a rate of 1362 MB/s), so give up decimals first, then widen the field.
  for (int d = decimals; d >= 0; --d) {
    std::snprintf(buf, sizeof buf, "%*.*f", width, d, value);
    if (static_cast<int>(std::string(buf).size()) <= width) return buf;
  }
  return buf;
}

namespace {

// The columns both layouts share, from the thread count on; only the Lat% precision differs
// (Nick: @#.##, tiobench.pl: @#.#####).
std::string MetricColumns(uint32_t threads, const TioRowMetrics& m, int lat_pct_width,
                          int lat_pct_decimals) {
  std::string row = RightField(std::to_string(threads), 3);
  row += "  " + PerlNumericField(m.rate_mb_s, 6, 2);
  row += " " + RightField(PerlCpuText(m.cpu_pct), 5) + "%";
  row += " " + PerlNumericField(m.avg_latency_ms, 9, 3);
  row += " " + PerlNumericField(m.max_latency_ms, 11, 2);
  row += "  " + PerlNumericField(m.lat_pct_over_2s, lat_pct_width, lat_pct_decimals);
  row += " " + PerlNumericField(m.lat_pct_over_10s, lat_pct_width, lat_pct_decimals);
  // CPU Eff is Rate ÷ CPU%: undefined, "-", where no CPU time was measured (a 0 % row).
  row += " " + (m.cpu_pct > 0 ? PerlNumericField(m.cpu_eff, 5, 0) : RightField("-", 5));
  return row;
}

// A configuration × thread count with cells but no record in a phase (every cell failed): its
// row says so, so the configuration stays in the table ("Failed cells" below gives the reason).
std::string FailedTioRow(const TioTableRow& row, const TiobenchParams& params, TioLayout layout,
                         size_t nick_width) {
  const std::string threads = RightField(std::to_string(row.threads), 3) + "  failed";
  if (layout == TioLayout::kNick) return LeftField(row.identifier, nick_width) + " " + threads;
  return LeftField(row.identifier, 28) + " " + CentreField(std::to_string(params.size_mb), 6) +
         " " + CentreField(std::to_string(params.block_bytes), 5) + " " + threads;
}

// `rows` with a row of no repetitions for each phase × configuration × thread count that has
// cells in the document but no record, in the table's order: configurations in `order`, then
// thread counts ascending.
std::vector<TioTableRow> WithFailedTioRows(const ResultsDocument& doc,
                                           const std::vector<std::string>& order,
                                           std::vector<TioTableRow> rows) {
  std::set<std::pair<std::string, uint32_t>> cells;
  for (const CellRecord& cell : doc.cells) {
    if (cell.variant.is_object() && cell.variant.contains("threads") &&
        cell.variant["threads"].is_number_unsigned()) {
      cells.insert({cell.identifier, cell.variant["threads"].get<uint32_t>()});
    }
  }
  const size_t before = rows.size();
  for (TioPhase phase : kTioReportOrder) {
    for (const auto& cell : cells) {
      const std::string& identifier = cell.first;  // named: the lambda captures it
      const uint32_t threads = cell.second;
      const bool present = std::any_of(rows.begin(), rows.begin() + before, [&](const auto& r) {
        return r.phase == phase && r.identifier == identifier && r.threads == threads;
      });
      if (present) continue;
      TioTableRow failed;
      failed.identifier = identifier;
      failed.threads = threads;
      failed.phase = phase;
      rows.push_back(failed);
    }
  }
  if (rows.size() == before) return rows;
  auto rank = [&](const std::string& id) {
    return static_cast<size_t>(std::find(order.begin(), order.end(), id) - order.begin());
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const TioTableRow& a, const TioTableRow& b) {
    return std::tuple(rank(a.identifier), a.threads) < std::tuple(rank(b.identifier), b.threads);
  });
  return rows;
}

}  // namespace

std::string RenderNickRow(const std::string& identifier, uint32_t threads, const TioRowMetrics& m,
                          size_t width) {
  // Picture: @<<<<<<<<<<<<<< @>>  @##.## @>>>>% @####.### @#######.##  @#.## @#.## @####
  return LeftField(identifier, width) + " " + MetricColumns(threads, m, 5, 2);
}

std::string RenderTiobenchRow(const std::string& identifier, uint64_t size_mb, uint32_t block_bytes,
                              uint32_t threads, const TioRowMetrics& m) {
  // Picture: @<<<<<<<<<<<<<<<<<<<<<<<<<<< @||||| @|||| @>>  @##.## @>>>>% @####.###
  //          @#######.##  @#.##### @#.##### @####
  return LeftField(identifier, 28) + " " + CentreField(std::to_string(size_mb), 6) + " " +
         CentreField(std::to_string(block_bytes), 5) + " " + MetricColumns(threads, m, 8, 5);
}

std::string RenderTiobenchTables(const nlohmann::json& context, const TiobenchParams& params,
                                 const std::vector<TioTableRow>& rows, TioLayout layout) {
  std::ostringstream out;
  out << RenderEnvironmentHeader(context, kUnitsMebibytes);
  if (layout == TioLayout::kNick) {
    out << "Unit information\n================\n"
        << "File size = " << params.size_mb << "MB\n"
        << "Blk Size  = " << params.block_bytes << "B\n";
  } else {
    out << kTiobenchUnits;
  }
  std::vector<uint32_t> repetitions;
  for (const TioTableRow& row : rows) {
    if (row.repetitions > 0) repetitions.push_back(row.repetitions);
  }
  out << MeansLine(repetitions, "Rate and CPU Eff are harmonic means");
  const uint32_t requested = RequestedRepetitions(context);
  const size_t width = NickIdentifierWidth(rows);
  bool header_done = false;
  for (TioPhase phase : kTioReportOrder) {
    out << "\n" << TioPhaseTitle(phase) << "\n";
    if (!header_done) {
      out << (layout == TioLayout::kNick ? NickHeader(width) : std::string(kTiobenchHeader));
      header_done = true;
    }
    for (const TioTableRow& row : rows) {
      if (row.phase != phase) continue;
      if (row.repetitions == 0) {
        out << FailedTioRow(row, params, layout, width) << "\n";
        continue;
      }
      out << (layout == TioLayout::kNick
                  ? RenderNickRow(row.identifier, row.threads, row.mean, width)
                  : RenderTiobenchRow(row.identifier, params.size_mb, params.block_bytes,
                                      row.threads, row.mean))
          << ShortRowMark(row.repetitions, requested) << "\n";
    }
  }
  return out.str();
}

bool RenderTiobenchReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                          std::string* err) {
  if (!CheckSuiteFormat({"tiobench", {"nick", "tiobench"}}, format, err)) return false;
  TiobenchParams params;
  std::vector<TioRecord> records;
  if (!TiobenchParamsFromJson(doc.parameters, &params, err) ||
      !TioRecordsFromDocument(doc, &records, err)) {
    return false;
  }
  const std::vector<std::string> order = IdentifierOrder(doc);
  *text = RenderTiobenchTables(doc.context, params,
                               WithFailedTioRows(doc, order, AggregateTioRows(records, order)),
                               format == "nick" ? TioLayout::kNick : TioLayout::kTiobench);
  return true;
}

}  // namespace elevbench
