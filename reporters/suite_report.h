#pragma once
// What every suite's text renderer (SuiteRenderer) does around its own layout: refuse a format
// the suite does not print, read the suite's records, aggregate them in the suite's way
// (scenarios/<suite>/*_records.h) in the document's configuration order, give each row without
// a label the document's label of its identifier, and render. A reporter keeps only what is its
// own: its formats, and its layout of the aggregated rows.

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/results/results_document.h"

namespace elevbench {

/// The text formats of one suite, as its renderer names them in errors.
struct SuiteFormats {
  std::string suite;                 ///< "morton", as in "morton results print as akpm"
  std::vector<std::string> formats;  ///< every format it prints, in the order errors list them
};

/// True when `format` is one of wanted.formats; else false and err = "<suite> results print as
/// <a> or <b>, not '<format>'".
[[nodiscard]] bool CheckSuiteFormat(const SuiteFormats& wanted, const std::string& format,
                                    std::string* err);

/// Sets *label to doc.labels' entry of `identifier` (its position in doc.identifiers) when
/// *label is empty and the document has that entry; otherwise leaves *label as it is.
void LabelFromDocument(const ResultsDocument& doc, const std::string& identifier,
                       std::string* label);

/// The cells' variants as (configuration, variant member `field`) pairs, each once, in the
/// cells' order; the member is null in a cell without it, and always null when `field` is "".
std::vector<std::pair<std::string, nlohmann::json>> CellVariantKeys(const ResultsDocument& doc,
                                                                    const std::string& field);

/// Adds to `rows` a row for each configuration × variant (CellVariantKeys of `field`) that has
/// cells but no row (every such cell failed): `make(key)` builds it, given the identifier and
/// the document's label here. `same(row, key)` says whether a row is of that variant. The row
/// goes before the first row of its variant whose configuration comes later in
/// IdentifierOrder(doc), else after the last row of its variant, else last.
template <typename Row, typename Same, typename Make>
void InsertFailedRows(const ResultsDocument& doc, const std::string& field, std::vector<Row>* rows,
                      const Same& same, const Make& make) {
  const std::vector<std::string> order = IdentifierOrder(doc);
  auto rank = [&](const std::string& id) { return std::find(order.begin(), order.end(), id); };
  for (const auto& identifier_key : CellVariantKeys(doc, field)) {
    // Named copies, not structured bindings: lambdas capture them (clang 14 cannot).
    const std::string& identifier = identifier_key.first;
    const auto& key = identifier_key.second;
    auto of_key = [&](const Row& r) { return same(r, key); };
    if (std::any_of(rows->begin(), rows->end(),
                    [&](const Row& r) { return r.identifier == identifier && of_key(r); })) {
      continue;
    }
    Row row = make(key);
    row.identifier = identifier;
    LabelFromDocument(doc, identifier, &row.label);
    auto at = std::find_if(rows->begin(), rows->end(), [&](const Row& r) {
      return of_key(r) && rank(r.identifier) > rank(identifier);
    });
    if (at == rows->end()) {
      auto last = std::find_if(rows->rbegin(), rows->rend(), of_key);
      at = last == rows->rend() ? rows->end() : last.base();
    }
    rows->insert(at, std::move(row));
  }
}

/// A suite's reader of its records from a results document (its *RecordsFromDocument).
template <typename Record>
using SuiteRecordsReader = bool (*)(const ResultsDocument&, std::vector<Record>*, std::string*);

/// A suite's aggregation of records into printed rows in a configuration order (Aggregate*Rows).
template <typename Record, typename Row>
using SuiteRowsAggregator = std::vector<Row> (*)(const std::vector<Record>&,
                                                 const std::vector<std::string>&);

/// The report of a suite whose rows carry `identifier` and `label`: CheckSuiteFormat, then
/// `read` (its err as it is), then `aggregate` in IdentifierOrder(doc), then LabelFromDocument
/// on each row, then *text = render(rows). False with err, *text untouched, when the format is
/// not the suite's or the records do not read.
template <typename Record, typename Row, typename Render>
[[nodiscard]] bool RenderSuiteReport(const ResultsDocument& doc, const std::string& format,
                                     const SuiteFormats& wanted, SuiteRecordsReader<Record> read,
                                     SuiteRowsAggregator<Record, Row> aggregate,
                                     const Render& render, std::string* text, std::string* err) {
  if (!CheckSuiteFormat(wanted, format, err)) return false;
  std::vector<Record> records;
  if (!read(doc, &records, err)) return false;
  std::vector<Row> rows = aggregate(records, IdentifierOrder(doc));
  for (Row& row : rows) LabelFromDocument(doc, row.identifier, &row.label);
  *text = render(rows);
  return true;
}

}  // namespace elevbench
