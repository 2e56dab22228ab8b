// libFuzzer target: results files (harness/results/results_document.h) as `report`, `compare` and
// `history import` read them: the JSON, ResultsFromJson, each suite's reader of its records and
// parameters, the tidy measurements and MetricRowsOf, and the document written back.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/suites.h"
#include "fuzz/fuzz_input.h"
#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "harness/stats/metric_table.h"
#include "scenarios/nickbench/nickbench_records.h"
#include "scenarios/probes/probe_records.h"
#include "scenarios/tiobench/tiobench_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  const nlohmann::json j = nlohmann::json::parse(fuzz::AsText(data, size), nullptr, false);
  if (j.is_discarded()) return 0;
  ResultsDocument doc;
  std::string err;
  if (!ResultsFromJson(j, &doc, &err)) return 0;
  (void)IdentifierOrder(doc);
  std::vector<TioRecord> tio;
  (void)TioRecordsFromDocument(doc, &tio, &err);
  TiobenchParams params;
  (void)TiobenchParamsFromJson(doc.parameters, &params, &err);
  std::vector<NickbenchRecord> nick;
  (void)NickbenchRecordsFromDocument(doc, &nick, &err);
  std::vector<ProbeRecord> probes;
  (void)ProbeRecordsFromDocument(doc, &probes, &err);
  std::vector<Measurement> measurements;
  (void)MeasurementsOf(doc, &measurements, &err);
  std::vector<MetricRow> rows;
  (void)MetricRowsOf(doc, &rows, &err);
  (void)ResultsToJson(doc).dump(2);
  return 0;
}
