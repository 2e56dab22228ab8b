#include "reporters/protection_text.h"

#include "harness/core/strings.h"
#include "reporters/text_table.h"
#include "reporters/verdict_text.h"

namespace elevbench {
namespace {

std::string Number(double value) { return FormatDouble("%.2f", value); }

const ProtectionRow* RowNamed(const ProtectionTable& table, const std::string& name) {
  for (const ProtectionRow& r : table.rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// "p50 12.67 s, load 9.98 MB/s"
std::string RowFigures(const ProtectionTable& table, const ProtectionRow& row) {
  std::string text = "p50 " + Number(row.p50) + " " + table.protected_metric.unit;
  if (row.load_n > 0) text += ", load " + Number(row.load_mean) + " " + table.load_metric.unit;
  return text;
}

std::string CountText(const ProtectionRow& row) {
  std::string text = std::to_string(row.n);
  if (row.dnf > 0) text += "+" + std::to_string(row.dnf) + " DNF";
  if (row.failed > 0) text += "+" + std::to_string(row.failed) + " failed";
  return text;
}

}  // namespace

std::string ProtectionChangeText(const ProtectionRow& row, const ProtectionChange& change,
                                 const VerdictSettings& settings) {
  if (!row.has_baseline) return row.control == "none" ? "baseline" : "no baseline";
  const std::string pct = FormatDouble("%+.1f %%", change.change_pct);
  switch (change.kind) {
    case VerdictKind::kBetter:
      return pct + " (" + PText(change.p_value) + ")";
    case VerdictKind::kWithinThreshold:
      return "within " + FormatDouble("%g", settings.threshold_pct) + " % (" +
             PText(change.p_value) + ")";
    case VerdictKind::kNoDifference:
      return change.tested ? "no difference (" + PText(change.p_value) + ")" : "no difference";
    case VerdictKind::kUntested:
      return pct + " (not tested: n<" + std::to_string(settings.min_values_tested) + ")";
    case VerdictKind::kNotMeasured:
      break;
  }
  return "not measured";
}

std::string ProtectionBestText(const ProtectionTable& table) {
  if (!table.has_best) return "";
  const ProtectionRow* best = RowNamed(table, table.best);
  const ProtectionRow* cheapest = RowNamed(table, table.least_cost);
  if (best == nullptr || cheapest == nullptr) return "";
  if (best == cheapest) {
    // A best row whose load lost throughput beyond doubt says so: "the least cost" would read
    // as "no cost" beside a load starved to 0 (ionice idle under mq-deadline, nickbench bench 2).
    const ProtectionChange& cost = best->cost;
    if (best->has_baseline && cost.kind == VerdictKind::kBetter && cost.change_pct < 0) {
      return "Best protection: " + best->name + " (" + RowFigures(table, *best) +
             "), at a cost: its load " + FormatDouble("%+.1f %%", cost.change_pct) + " against " +
             best->baseline + " (" + PText(cost.p_value) + "); no row protects as well for less.";
    }
    return "Best protection at the least cost: " + best->name + " (" + RowFigures(table, *best) +
           ").";
  }
  const VerdictVersus& v = table.least_cost_vs_best;
  const std::string same =
      v.kind == VerdictKind::kWithinThreshold
          ? "time within the threshold of it, " + PText(v.p_value)
          : "no difference in time from it" + (v.tested ? ", " + PText(v.p_value) : std::string());
  return "Best protection: " + best->name + " (" + RowFigures(table, *best) +
         "); at the least cost: " + cheapest->name + " (" + RowFigures(table, *cheapest) + "; " +
         same + ").";
}

std::string ProtectionHeading(const ProtectionTable& table, const VerdictSettings& settings) {
  std::string what = table.section;
  if (!table.row.empty()) what += " " + table.row;
  if (!table.group.empty()) what += ", " + table.group;
  return "Protection, " + what + " (" + MetricDisplayName(table.protected_metric) + " in " +
         table.protected_metric.unit + "; the load in " + table.load_metric.unit +
         (table.load_metric.page_cache ? " into the page cache, not the disk's" : "") +
         "; each control against its scheduler without one: U test two-sided, p < " +
         FormatDouble("%g", settings.alpha) + " with " +
         std::to_string(settings.min_values_tested) + " or more values a side, threshold " +
         FormatDouble("%g", settings.threshold_pct) + " %)";
}

std::vector<std::vector<std::string>> ProtectionCells(const ProtectionTable& table,
                                                      const VerdictSettings& settings) {
  const std::string unit = table.protected_metric.unit;
  const bool rate = table.protected_metric.direction == Direction::kHigherIsBetter;
  std::vector<std::vector<std::string>> rows = {
      {"row", "control", "n", "p50 " + unit,
       "p" + std::to_string(table.tail_percentile) + " " + unit, "load " + table.load_metric.unit,
       rate ? "rate vs none" : "time vs none", "load vs none"}};
  for (const ProtectionRow& r : table.rows) {
    rows.push_back({r.name, r.control, CountText(r), r.n > 0 ? Number(r.p50) : "-",
                    r.n > 0 ? Number(r.tail) : "-", r.load_n > 0 ? Number(r.load_mean) : "-",
                    ProtectionChangeText(r, r.protection, settings),
                    ProtectionChangeText(r, r.cost, settings)});
  }
  return rows;
}

const std::vector<bool>& ProtectionNumericColumns() {
  static const std::vector<bool> kRight = {false, false, true, true, true, true, false, false};
  return kRight;
}

std::string ProtectionTableText(const ProtectionTable& table, const VerdictSettings& settings) {
  std::string text = ProtectionHeading(table, settings) + ":\n";
  text += RenderTextTable(ProtectionCells(table, settings), ProtectionNumericColumns());
  const std::string best = ProtectionBestText(table);
  if (!best.empty()) text += best + "\n";
  return text;
}

std::string RenderProtectionText(const std::vector<ProtectionTable>& tables,
                                 const VerdictSettings& settings) {
  std::string text;
  for (const ProtectionTable& t : tables) text += "\n" + ProtectionTableText(t, settings);
  return text;
}

}  // namespace elevbench
