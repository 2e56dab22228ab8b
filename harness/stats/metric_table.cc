#include "harness/stats/metric_table.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "harness/core/json_fields.h"
#include "harness/results/results_document.h"

namespace elevbench {
namespace {

using RowKey = std::tuple<std::string, std::string, std::string>;  // section, row, metric

}  // namespace

std::vector<MetricRow> TabulateMeasurements(const std::vector<Measurement>& measurements,
                                            const std::vector<std::string>& identifier_order,
                                            uint32_t requested) {
  // Row keys in order of first appearance; configurations in the given order, then others.
  std::vector<RowKey> keys;
  std::map<RowKey, size_t> key_index;
  std::vector<std::string> identifiers = identifier_order;
  std::set<std::string> known(identifiers.begin(), identifiers.end());
  std::map<std::pair<RowKey, std::string>, MetricRow> rows;
  for (const Measurement& m : measurements) {
    const RowKey key{m.section, m.row, m.metric.name};
    if (key_index.emplace(key, keys.size()).second) keys.push_back(key);
    if (known.insert(m.identifier).second) identifiers.push_back(m.identifier);
    MetricRow& row = rows[{key, m.identifier}];
    if (row.suite.empty()) {
      row.suite = m.suite;
      row.section = m.section;
      row.row = m.row;
      row.identifier = m.identifier;
      row.scheduler = m.scheduler;
      row.metric = m.metric;
      row.requested = requested;
    }
    if (row.label.empty()) row.label = m.label;
    if (row.control.empty()) row.control = m.control;
    if (row.kernel.empty()) row.kernel = m.kernel;
    if (row.configuration_label.empty()) row.configuration_label = m.configuration_label;
    if (m.status == "ok") {
      row.values.push_back(m.value);
    } else {
      ++row.not_measured;
      if (!m.reason.empty() &&
          std::find(row.reasons.begin(), row.reasons.end(), m.reason) == row.reasons.end()) {
        row.reasons.push_back(m.reason);
      }
    }
  }
  std::vector<MetricRow> out;
  for (const RowKey& key : keys) {
    for (const std::string& id : identifiers) {
      auto it = rows.find({key, id});
      if (it == rows.end()) continue;
      it->second.summary = Summarize(it->second.values, it->second.metric.mean);
      out.push_back(std::move(it->second));
    }
  }
  return out;
}

namespace {

void AddFailedConfigurations(const ResultsDocument& doc, std::vector<Measurement>* measurements) {
  // A configuration with cells but no measurement: every cell failed. Give it empty rows for
  // every metric the others have, so it is reported as failed in each, not left out (a csv
  // filtered on one metric sees it).
  std::set<std::string> measured;
  for (const Measurement& m : *measurements) measured.insert(m.identifier);
  // identifier → its cells, one per repetition: each repetition is one value not measured.
  std::map<std::string, std::map<uint32_t, const CellRecord*>> failed;
  for (const CellRecord& cell : doc.cells) {
    if (!measured.count(cell.identifier)) failed[cell.identifier].emplace(cell.repetition, &cell);
  }
  if (failed.empty()) return;
  std::vector<Measurement> rows;
  std::set<RowKey> seen;
  for (const Measurement& m : *measurements) {
    if (seen.insert({m.section, m.row, m.metric.name}).second) rows.push_back(m);
  }
  for (const auto& [identifier, cells] : failed) {
    for (const auto& [repetition, cell] : cells) {
      for (Measurement m : rows) {
        m.identifier = identifier;
        m.label = cell->label;
        m.scheduler = cell->scheduler;
        m.control = cell->control;
        m.kernel = cell->kernel.label;
        m.configuration_label = cell->configuration_label;
        m.repetition = repetition;
        m.value = 0;
        m.status = "failed";
        m.reason = cell->error;
        measurements->push_back(std::move(m));
      }
    }
  }
}

void AddFailedRepetitions(const ResultsDocument& doc, std::vector<Measurement>* measurements) {
  // identifier → repetition → the failed cell's error (the first, when variants failed alike)
  std::map<std::string, std::map<uint32_t, std::string>> failed;
  for (const CellRecord& cell : doc.cells) {
    if (cell.status == "failed") failed[cell.identifier].emplace(cell.repetition, cell.error);
  }
  if (failed.empty()) return;
  // Each measured (section, row, metric, identifier): its repetitions with an entry, and one
  // measurement of it to copy.
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::pair<std::set<uint32_t>, Measurement>> rows;
  for (const Measurement& m : *measurements) {
    auto& [repetitions, example] = rows[{m.section, m.row, m.metric.name, m.identifier}];
    if (repetitions.empty()) example = m;
    repetitions.insert(m.repetition);
  }
  for (const auto& [key, row] : rows) {
    const auto cells = failed.find(std::get<3>(key));
    if (cells == failed.end()) continue;
    for (const auto& [repetition, error] : cells->second) {
      if (row.first.count(repetition)) continue;
      Measurement m = row.second;
      m.repetition = repetition;
      m.value = 0;
      m.status = "failed";
      m.reason = error;
      measurements->push_back(std::move(m));
    }
  }
}

}  // namespace

void AddFailedMeasurements(const ResultsDocument& doc, std::vector<Measurement>* measurements) {
  // Repetitions first: a configuration with no measurement at all has no rows to fill.
  AddFailedRepetitions(doc, measurements);
  AddFailedConfigurations(doc, measurements);
}

std::vector<MetricRow> MetricRowsFrom(const ResultsDocument& doc,
                                      std::vector<Measurement> measurements) {
  uint32_t requested = 0;
  // Any non-negative integer: a document built in memory may hold a signed one.
  // GetOptionalJsonField: a count past uint32_t (or a float) is refused, not truncated.
  std::string ignored;
  if (!doc.context.is_object() ||
      !GetOptionalJsonField(doc.context, "repetitions", &requested, &ignored)) {
    requested = 0;
  }
  AddFailedMeasurements(doc, &measurements);
  return TabulateMeasurements(measurements, IdentifierOrder(doc), requested);
}

}  // namespace elevbench
