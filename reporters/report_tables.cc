#include "reporters/report_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "harness/core/append_unique.h"
#include "harness/core/json_fields.h"
#include "harness/stats/metric_table.h"

namespace elevbench {
namespace {

using CellKey = std::tuple<std::string, std::string, std::string, std::string>;  // section,
                                                                                 // row, id,
                                                                                 // metric

std::string ContextString(const nlohmann::json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return "";
}

// Decimals that give four significant digits; -1 when the value needs an exponent.
int DecimalsFor(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return 2;
  if (magnitude >= 1e7) return -1;
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  const int decimals = std::max(0, 3 - exponent);
  return decimals > 9 ? -1 : decimals;
}

std::string Fixed(double value, int decimals) {
  char buf[64];
  if (decimals < 0) {
    std::snprintf(buf, sizeof buf, "%.4g", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  }
  return buf;
}

std::string MachineText(const nlohmann::json& ctx) {
  // Numbers through GetJsonField: get<int64_t>() of a float such as 1e300 is undefined, and
  // value() of a string throws.
  int64_t cpus = 0;
  uint64_t mem_bytes = 0;
  uint64_t swap_bytes = 0;
  std::string ignored;
  if (!ctx.contains("cpus") || !GetJsonField(ctx, "cpus", &cpus, &ignored)) return "";
  if (!GetOptionalJsonField(ctx, "memory_bytes", &mem_bytes, &ignored)) mem_bytes = 0;
  if (!GetOptionalJsonField(ctx, "swap_bytes", &swap_bytes, &ignored)) swap_bytes = 0;
  const uint64_t mem_mb = mem_bytes >> 20;
  const uint64_t swap_mb = swap_bytes >> 20;
  std::string model = ContextString(ctx, "cpu_model");
  std::string text = std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs");
  if (!model.empty()) text += " (" + model + ")";
  text += ", " + std::to_string(mem_mb) + " MB RAM, ";
  text += swap_mb ? std::to_string(swap_mb) + " MB swap" : std::string("no swap");
  return text;
}

std::string TargetText(const nlohmann::json& ctx) {
  if (!ctx.contains("target") || !ctx["target"].is_object()) return "";
  const nlohmann::json& t = ctx["target"];
  const std::string kind = ContextString(t, "kind");
  const std::string fs = ContextString(t, "filesystem");
  std::string text;
  if (kind == "emulated") {
    std::string profile;
    if (t.contains("profile") && t["profile"].is_object()) {
      profile = ContextString(t["profile"], "name");
    }
    text = "emulated " + (profile.empty() ? std::string("rotating") : profile) + " disk";
    const std::string loop = ContextString(t, "loop_device");
    if (!loop.empty()) text += " on " + loop;
  } else if (kind == "scratch") {
    text = "scratch loop device";
    const std::string loop = ContextString(t, "loop_device");
    if (!loop.empty()) text += " " + loop;
  } else {
    text = (kind.empty() ? std::string("target") : kind) + " " + ContextString(t, "path");
  }
  if (!fs.empty()) text += ", " + fs;
  if (ctx.contains("emulated_queue") && ctx["emulated_queue"].is_object()) {
    const nlohmann::json& q = ctx["emulated_queue"];
    int64_t tags = 0;
    std::string ignored;
    if (q.contains("driver_tags") && GetJsonField(q, "driver_tags", &tags, &ignored)) {
      text += "; driver tags " + std::to_string(tags);
    }
    const std::string wbt = ContextString(q, "writeback_throttling");
    if (!wbt.empty()) text += ", writeback throttling " + wbt;
  }
  return text;
}

std::string DevicesText(const nlohmann::json& ctx) {
  if (!ctx.contains("devices") || !ctx["devices"].is_array()) return "";
  std::string text;
  for (const nlohmann::json& d : ctx["devices"]) {
    if (!text.empty()) text += "; ";
    text += ContextString(d, "name");
    const std::string model = ContextString(d, "model");
    if (!model.empty()) text += " (" + model + ")";
    text += d.value("rotational", false) ? ", rotational" : ", non-rotational";
  }
  return text;
}

}  // namespace

std::string ReportNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return Fixed(value, DecimalsFor(value));
}

std::string ReportMeanText(const SampleSummary& s) {
  const int decimals = DecimalsFor(s.mean);
  std::string text = Fixed(s.mean, decimals);
  if (!s.has_spread) return text;
  if (!std::isfinite(s.ci_high) || !std::isfinite(s.ci_low)) {
    return text + " (n=" + std::to_string(s.n) + ": no interval)";  // never "± inf"
  }
  // "mean ± h" would reach below 0 for a duration or a rate: give the interval's ends.
  if (IntervalNeedsEnds(s)) {
    const std::string low = s.ci_low == 0 ? "0" : Fixed(s.ci_low, decimals);
    return text + " (" + low + " – " + Fixed(s.ci_high, decimals) + ")";
  }
  return text + " ± " + Fixed((s.ci_high - s.ci_low) / 2, decimals);
}

std::string ReportCountText(const ReportRow& row) {
  if (row.requested > 0 && (row.incomplete || row.n < row.requested)) {
    return std::to_string(row.n) + " of " + std::to_string(row.requested);
  }
  return std::to_string(row.n);
}

std::string ReportColumnUnit(const MetricInfo& metric) {
  switch (metric.direction) {
    case Direction::kHigherIsBetter:
      return metric.unit + ", ↑";
    case Direction::kLowerIsBetter:
      return metric.unit + ", ↓";
    case Direction::kNeither:
      break;
  }
  return metric.unit;
}

namespace {

using MetricsOfCell = std::map<std::string, const MetricRow*>;  // metric → row

// The metric rows of one file laid out for tables: sections, their row keys and metrics in
// order of first appearance, configurations in the document's order (IdentifierOrder, then
// others), and the rows by cell.
struct TableLayout {
  std::vector<std::string> sections;
  std::map<std::string, std::vector<std::string>> row_keys;
  std::map<std::string, std::vector<MetricInfo>> metrics;
  std::vector<std::string> identifiers;
  std::map<std::tuple<std::string, std::string, std::string>, MetricsOfCell>
      by_cell;            // (section, row, identifier) → metric → row
  std::set<CellKey> dnf;  // cells with a repetition that did not finish
};

TableLayout LayoutOf(const ResultsDocument& doc, const std::vector<Measurement>& measurements,
                     const std::vector<MetricRow>& metric_rows) {
  TableLayout layout;
  for (const Measurement& m : measurements) {
    if (m.status == "dnf") layout.dnf.insert({m.section, m.row, m.identifier, m.metric.name});
  }
  std::vector<std::string> seen;
  for (const MetricRow& r : metric_rows) {
    AppendUnique(&layout.sections, r.section);
    AppendUnique(&layout.row_keys[r.section], r.row);
    std::vector<MetricInfo>& infos = layout.metrics[r.section];
    if (std::none_of(infos.begin(), infos.end(),
                     [&](const MetricInfo& i) { return i.name == r.metric.name; })) {
      infos.push_back(r.metric);
    }
    AppendUnique(&seen, r.identifier);
    layout.by_cell[{r.section, r.row, r.identifier}][r.metric.name] = &r;
  }
  // MetricRowsFrom orders configurations inside each row; keep the document's order overall.
  layout.identifiers = IdentifierOrder(doc);
  for (const std::string& id : seen) AppendUnique(&layout.identifiers, id);
  return layout;
}

// The cell of `column` in `row`: the mean ± half-width, DNF, failed, or missing.
ReportCell CellOf(const TableLayout& layout, const MetricsOfCell& metrics,
                  const ReportColumn& column, ReportTable* table, ReportRow* row) {
  ReportCell cell;
  const auto m = metrics.find(column.metric.name);
  if (m == metrics.end()) {
    cell.missing = true;
    return cell;
  }
  const MetricRow& mr = *m->second;
  table->suite = mr.suite;
  if (row->label.empty()) row->label = mr.label;
  if (row->scheduler.empty()) row->scheduler = mr.scheduler;
  row->requested = std::max(row->requested, mr.requested);
  row->incomplete = row->incomplete || mr.incomplete();
  cell.n = mr.summary.n;
  if (cell.n == 0) {
    cell.missing = true;
    const bool dnf =
        layout.dnf.count({table->section, row->row, row->identifier, column.metric.name}) > 0;
    cell.text = dnf ? "DNF" : "failed";
  } else {
    cell.text = ReportMeanText(mr.summary);
    // A buffered load's rate: the page cache's, never to be read as the disk's.
    if (column.metric.page_cache) cell.text += " (page cache)";
  }
  return cell;
}

ReportRow RowOf(const TableLayout& layout, const MetricsOfCell& metrics, const std::string& key,
                const std::string& id, ReportTable* table) {
  ReportRow row;
  row.row = key;
  row.identifier = id;
  for (const ReportColumn& column : table->columns) {
    row.cells.push_back(CellOf(layout, metrics, column, table, &row));
  }
  row.n = row.cells.empty() ? 0 : row.cells.front().n;
  row.failed =
      std::all_of(row.cells.begin(), row.cells.end(), [](const ReportCell& c) { return c.n == 0; });
  for (ReportCell& cell : row.cells) {
    // A metric the configuration has no row for: "failed" when nothing of it was measured
    // here, else "—" (the metric does not apply to this row).
    if (cell.missing && cell.text.empty()) cell.text = row.failed ? "failed" : "—";
    cell.differs = !cell.missing && cell.n != row.n;
  }
  return row;
}

ReportTable TableOf(const TableLayout& layout, const std::string& section,
                    const std::string& doc_suite) {
  ReportTable table;
  table.section = section;
  std::vector<MetricInfo> infos = layout.metrics.at(section);
  std::stable_partition(infos.begin(), infos.end(), [](const MetricInfo& i) { return i.headline; });
  for (const MetricInfo& i : infos) table.columns.push_back({i});
  for (const std::string& key : layout.row_keys.at(section)) {
    for (const std::string& id : layout.identifiers) {
      const auto found = layout.by_cell.find({section, key, id});
      if (found == layout.by_cell.end()) continue;
      ReportRow row = RowOf(layout, found->second, key, id, &table);
      table.has_row_keys = table.has_row_keys || !key.empty();
      table.has_schedulers = table.has_schedulers || !row.scheduler.empty();
      table.rows.push_back(std::move(row));
    }
  }
  if (table.suite.empty()) table.suite = doc_suite;
  return table;
}

}  // namespace

std::vector<ReportTable> BuildReportTables(const NamedResults& file) {
  const std::vector<MetricRow> metric_rows = MetricRowsFrom(file.doc, file.measurements);
  const TableLayout layout = LayoutOf(file.doc, file.measurements, metric_rows);
  std::vector<ReportTable> tables;
  for (const std::string& section : layout.sections) {
    tables.push_back(TableOf(layout, section, file.doc.suite));
  }
  return tables;
}

std::vector<std::pair<std::string, std::string>> ReportHeaderFields(const ResultsDocument& doc,
                                                                    const std::string& name) {
  const nlohmann::json& ctx = doc.context;
  std::vector<std::pair<std::string, std::string>> fields;
  auto add = [&](const char* field, const std::string& value) {
    if (!value.empty()) fields.emplace_back(field, value);
  };
  add("Suite", doc.suite);
  add("File", name);
  add("Machine", MachineText(ctx));
  add("Host", ContextString(ctx, "hostname"));
  add("Kernel", ContextString(ctx, "kernel"));
  add("Target", TargetText(ctx));
  add("Devices", DevicesText(ctx));
  add("fio", ContextString(ctx, "fio_version"));
  add("elevbench", ContextString(ctx, "elevbench_version"));
  add("Started", ContextString(ctx, "start_time"));
  if (ctx.contains("repetitions") && ctx["repetitions"].is_number_unsigned()) {
    std::string reps = std::to_string(ctx["repetitions"].get<uint64_t>());
    if (ctx.contains("seed") && ctx["seed"].is_number_unsigned()) {
      reps += " (order seed " + std::to_string(ctx["seed"].get<uint64_t>()) + ")";
    }
    add("Repetitions", reps);
  }
  add("Caches", ContextString(ctx, "cache_policy"));
  add("Complete", doc.complete ? "yes" : "no: the run was interrupted or is still running");
  add("Command", ContextString(ctx, "command_line"));
  return fields;
}

std::vector<std::string> ReportLegend(const std::vector<ReportTable>& tables) {
  std::set<std::string> hmean;
  bool spread = false;
  bool incomplete = false;
  bool dnf = false;
  bool failed = false;
  bool cut = false;
  bool differs = false;
  bool mb = false;
  bool page_cache = false;
  for (const ReportTable& t : tables) {
    for (const ReportColumn& c : t.columns) {
      page_cache = page_cache || c.metric.page_cache;
      if (c.metric.mean == MeanKind::kHarmonic) hmean.insert(c.metric.name);
      mb = mb || c.metric.unit.find("MB") != std::string::npos;
    }
    for (const ReportRow& r : t.rows) {
      incomplete = incomplete || r.incomplete;
      for (const ReportCell& c : r.cells) {
        spread = spread || c.text.find(" ± ") != std::string::npos;
        cut = cut || c.text.find(" – ") != std::string::npos;
        dnf = dnf || c.text == "DNF";
        failed = failed || c.text == "failed";
        differs = differs || c.differs;
      }
    }
  }
  std::vector<std::string> lines;
  lines.push_back(
      "Each cell is the mean over repetitions; n is how many repetitions the row's first "
      "(headline) column is made of. A value without ± is a single repetition: no spread.");
  if (spread) {
    lines.push_back(
        "± is half the width of the 95 % Student t confidence interval of the mean (for "
        "harmonic means the interval is asymmetric; csv-summary gives both ends).");
  }
  if (cut) {
    lines.push_back(
        "(low – high) gives that interval by its ends where mean ± h would reach below 0 for "
        "values none of which is negative (a duration, a rate); an arithmetic mean's interval "
        "is cut at 0, a harmonic mean's is asymmetric.");
  }
  lines.push_back("Headline metrics come first. ↑ higher is better, ↓ lower is better.");
  if (!hmean.empty()) {
    std::string names;
    for (const std::string& n : hmean) names += (names.empty() ? "" : ", ") + n;
    lines.push_back("Harmonic means (rates): " + names +
                    "; the other metrics are arithmetic "
                    "means.");
  }
  if (mb) {
    lines.push_back(
        "MB is 2^20 bytes (MiB), as tiobench counted it: MB/s is MiB a second; only the emulated "
        "disk's profile rates are decimal (10^6 bytes a second).");
  }
  if (page_cache) {
    lines.push_back(
        "(page cache) after a rate: a buffered load's, which went into or came from the page "
        "cache; it is not the disk's and may be far above what the disk can do.");
  }
  if (differs) lines.push_back("(n=k) after a value: that cell is made of k repetitions.");
  if (incomplete) {
    lines.push_back(
        "\"k of N\": fewer numbers than the N repetitions asked (a failed cell, a DNF or an "
        "interrupted run).");
  }
  if (dnf) lines.push_back("DNF: did not finish before its timeout in any repetition.");
  if (failed) lines.push_back("failed: no repetition of this configuration produced a number.");
  return lines;
}

}  // namespace elevbench
