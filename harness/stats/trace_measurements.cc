#include "harness/stats/trace_measurements.h"

#include <algorithm>

#include "harness/results/record_header.h"

namespace elevbench {
namespace {

std::string VariantValueText(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The metrics of one direction that has requests.
void AddTraceDirection(const RecordMeasurements& add, const std::string& dir,
                       const TraceDirection& d) {
  using D = Direction;
  using K = MeanKind;
  const auto ms = [](const CompactHistogram& h) { return h.mean_ns() / 1e6; };
  add({dir + "_q2c_mean_ms", "ms", D::kLowerIsBetter, K::kArithmetic, false}, ms(d.q2c));
  add({dir + "_i2d_mean_ms", "ms", D::kLowerIsBetter, K::kArithmetic, false}, ms(d.i2d));
  add({dir + "_d2c_mean_ms", "ms", D::kLowerIsBetter, K::kArithmetic, false}, ms(d.d2c));
  add({dir + "_mean_dispatch_run", "requests", D::kNeither, K::kArithmetic, false},
      d.mean_dispatch_run);
  add({dir + "_seek_share", "fraction", D::kNeither, K::kArithmetic, false}, d.seek_share);
}

}  // namespace

std::string VariantText(const nlohmann::json& variant) {
  if (!variant.is_object()) return "";
  std::string text;
  for (const auto& [key, value] : variant.items()) {
    text += (text.empty() ? "" : " ") + key + "=" + VariantValueText(value);
  }
  return text;
}

bool VariantNamesRow(const nlohmann::json& variant, const std::string& suite,
                     const std::string& section, const std::string& row) {
  if (!variant.is_object()) return true;
  // The words a row is named by: its suite, its section, and the words of its row key.
  std::vector<std::string> words = {suite, section};
  size_t start = 0;
  while (start <= row.size()) {
    const size_t end = std::min(row.find(' ', start), row.size());
    if (end > start) words.push_back(row.substr(start, end - start));
    start = end + 1;
  }
  for (const auto& [key, value] : variant.items()) {
    const std::string v = VariantValueText(value);
    bool named = false;
    for (const std::string& w : words)
      named = named || w == key + "=" + v || w == key + v || w == v;
    if (!named) return false;
  }
  return true;
}

std::vector<TracedCell> TracedCellsOf(const ResultsDocument& doc) {
  std::vector<TracedCell> cells;
  for (const CellRecord& c : doc.cells) {
    if (c.status == "ok" && c.request_trace) cells.push_back({&c, &*c.request_trace});
  }
  return cells;
}

const TraceDirections& TraceAccountOf(const RequestTraceRecord& trace, const std::string& section,
                                      const std::string& row, std::string* phase) {
  for (const auto& [name, account] : trace.phases) {
    if (name == section || name == row) {
      if (phase != nullptr) *phase = name;
      return account;
    }
  }
  if (phase != nullptr) phase->clear();
  return trace.total;
}

void AppendRequestTraceMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out) {
  for (const TracedCell& t : TracedCellsOf(doc)) {
    const RecordHeader header = CellHeader(*t.cell);
    RecordMeasurements add(doc.suite, kRequestTraceSection, header, out);
    add.SetRow(VariantText(t.cell->variant));
    if (t.trace->total.read.requests > 0) AddTraceDirection(add, "read", t.trace->total.read);
    if (t.trace->total.write.requests > 0) AddTraceDirection(add, "write", t.trace->total.write);
    if (t.trace->queued) {
      add({"queued_mean", "requests", Direction::kNeither, MeanKind::kArithmetic, false},
          t.trace->queued->mean);
    }
    add({"dropped_events", "events", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        static_cast<double>(t.trace->dropped_events));
  }
}

}  // namespace elevbench
