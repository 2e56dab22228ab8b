#include "harness/run/results.h"

#include <algorithm>
#include <functional>

#include "harness/core/atomic_file.h"
#include "harness/core/stats.h"

namespace elevbench {
namespace {

using nlohmann::json;

json MetricsToJson(const TioRowMetrics& m) {
  return json{{"rate_mb_s", m.rate_mb_s},
              {"cpu_pct", m.cpu_pct},
              {"avg_latency_ms", m.avg_latency_ms},
              {"max_latency_ms", m.max_latency_ms},
              {"lat_pct_over_2s", m.lat_pct_over_2s},
              {"lat_pct_over_10s", m.lat_pct_over_10s},
              {"cpu_eff", m.cpu_eff}};
}

TioRowMetrics MetricsFromJson(const json& j) {
  TioRowMetrics m;
  m.rate_mb_s = j.at("rate_mb_s").get<double>();
  m.cpu_pct = j.at("cpu_pct").get<double>();
  m.avg_latency_ms = j.at("avg_latency_ms").get<double>();
  m.max_latency_ms = j.at("max_latency_ms").get<double>();
  m.lat_pct_over_2s = j.at("lat_pct_over_2s").get<double>();
  m.lat_pct_over_10s = j.at("lat_pct_over_10s").get<double>();
  m.cpu_eff = j.at("cpu_eff").get<double>();
  return m;
}

// Applies `fn` to each metric of the three structs in step, for mean/stddev computation.
using MetricField = double TioRowMetrics::*;
constexpr MetricField kMetricFields[] = {
    &TioRowMetrics::rate_mb_s,       &TioRowMetrics::cpu_pct,
    &TioRowMetrics::avg_latency_ms,  &TioRowMetrics::max_latency_ms,
    &TioRowMetrics::lat_pct_over_2s, &TioRowMetrics::lat_pct_over_10s,
    &TioRowMetrics::cpu_eff};

}  // namespace

std::vector<TioTableRow> AggregateTioRows(const ResultsDocument& doc) {
  std::vector<std::string> order = doc.identifiers;
  for (const TioRecord& r : doc.records) {
    if (std::find(order.begin(), order.end(), r.identifier) == order.end()) {
      order.push_back(r.identifier);
    }
  }
  std::vector<TioTableRow> rows;
  for (TioPhase phase : kTioReportOrder) {
    for (const std::string& id : order) {
      std::vector<uint32_t> threads;
      for (const TioRecord& r : doc.records) {
        if (r.identifier == id && r.measurement.phase == phase &&
            std::find(threads.begin(), threads.end(), r.measurement.threads) == threads.end()) {
          threads.push_back(r.measurement.threads);
        }
      }
      std::sort(threads.begin(), threads.end());
      for (uint32_t t : threads) {
        TioTableRow row;
        row.identifier = id;
        row.threads = t;
        row.phase = phase;
        std::vector<const TioRecord*> reps;
        for (const TioRecord& r : doc.records) {
          if (r.identifier == id && r.measurement.phase == phase && r.measurement.threads == t) {
            reps.push_back(&r);
            row.scheduler = r.scheduler;
          }
        }
        row.repetitions = static_cast<uint32_t>(reps.size());
        for (MetricField f : kMetricFields) {
          std::vector<double> values;
          for (const TioRecord* r : reps) values.push_back(r->metrics.*f);
          row.mean.*f = Mean(values);
          row.stddev.*f = StdDev(values);
        }
        rows.push_back(row);
      }
    }
  }
  return rows;
}

json ResultsToJson(const ResultsDocument& doc) {
  json j;
  j["schema_version"] = kResultsSchemaVersion;
  j["suite"] = doc.suite;
  j["complete"] = doc.complete;
  j["context"] = doc.context;
  j["parameters"] =
      json{{"directory", doc.params.directory},   {"size_mb", doc.params.size_mb},
           {"threads", doc.params.threads},       {"block_bytes", doc.params.block_bytes},
           {"random_ops", doc.params.random_ops}, {"numruns", doc.params.numruns},
           {"nofrag", doc.params.nofrag}};
  j["identifiers"] = doc.identifiers;
  json cells = json::array();
  for (const CellRecord& c : doc.cells) {
    cells.push_back(json{{"scheduler", c.scheduler},
                         {"identifier", c.identifier},
                         {"repetition", c.repetition},
                         {"threads", c.threads},
                         {"status", c.status},
                         {"error", c.error},
                         {"started_at", c.started_at},
                         {"duration_seconds", c.duration_seconds},
                         {"queue", c.queue},
                         {"disk_counters", c.disk_counters}});
  }
  j["cells"] = cells;
  json records = json::array();
  for (const TioRecord& r : doc.records) {
    const TioPhaseMeasurement& m = r.measurement;
    json rec{{"scheduler", r.scheduler},
             {"identifier", r.identifier},
             {"repetition", r.repetition},
             {"phase", TioPhaseKey(m.phase)},
             {"threads", m.threads},
             {"runs", m.runs},
             {"bytes", m.bytes},
             {"ios", m.ios},
             {"wall_seconds", m.wall_seconds},
             {"cpu_seconds", m.cpu_seconds},
             {"metrics", MetricsToJson(r.metrics)},
             {"latency_histogram", m.latency.ToJson()}};
    records.push_back(std::move(rec));
  }
  j["records"] = records;
  json summary = json::array();
  for (const TioTableRow& row : AggregateTioRows(doc)) {
    summary.push_back(json{{"identifier", row.identifier},
                           {"scheduler", row.scheduler},
                           {"phase", TioPhaseKey(row.phase)},
                           {"threads", row.threads},
                           {"repetitions", row.repetitions},
                           {"mean", MetricsToJson(row.mean)},
                           {"stddev", MetricsToJson(row.stddev)}});
  }
  j["summary"] = summary;
  return j;
}

bool ResultsFromJson(const json& j, ResultsDocument* doc, std::string* err) {
  try {
    if (!j.is_object() || !j.contains("schema_version")) {
      *err = "not an elevbench results file (no schema_version)";
      return false;
    }
    const int version = j.at("schema_version").get<int>();
    if (version != kResultsSchemaVersion) {
      *err = "unsupported schema_version " + std::to_string(version) + " (this elevbench reads " +
             std::to_string(kResultsSchemaVersion) + ")";
      return false;
    }
    ResultsDocument d;
    d.suite = j.at("suite").get<std::string>();
    d.complete = j.value("complete", false);
    d.context = j.value("context", json::object());
    const json& p = j.at("parameters");
    d.params.directory = p.at("directory").get<std::string>();
    d.params.size_mb = p.at("size_mb").get<uint64_t>();
    d.params.threads = p.at("threads").get<std::vector<uint32_t>>();
    d.params.block_bytes = p.at("block_bytes").get<uint32_t>();
    d.params.random_ops = p.at("random_ops").get<uint64_t>();
    d.params.numruns = p.at("numruns").get<uint32_t>();
    d.params.nofrag = p.value("nofrag", false);
    d.identifiers = j.value("identifiers", std::vector<std::string>{});
    for (const json& c : j.at("cells")) {
      CellRecord cell;
      cell.scheduler = c.at("scheduler").get<std::string>();
      cell.identifier = c.at("identifier").get<std::string>();
      cell.repetition = c.at("repetition").get<uint32_t>();
      cell.threads = c.at("threads").get<uint32_t>();
      cell.status = c.at("status").get<std::string>();
      cell.error = c.value("error", "");
      cell.started_at = c.value("started_at", "");
      cell.duration_seconds = c.value("duration_seconds", 0.0);
      cell.queue = c.value("queue", std::map<std::string, std::string>{});
      cell.disk_counters = c.value("disk_counters", json());
      d.cells.push_back(std::move(cell));
    }
    for (const json& r : j.at("records")) {
      TioRecord rec;
      rec.scheduler = r.at("scheduler").get<std::string>();
      rec.identifier = r.at("identifier").get<std::string>();
      rec.repetition = r.at("repetition").get<uint32_t>();
      TioPhaseMeasurement& m = rec.measurement;
      const std::string phase = r.at("phase").get<std::string>();
      if (!TioPhaseFromKey(phase, &m.phase)) {
        *err = "unknown phase '" + phase + "' in records";
        return false;
      }
      m.threads = r.at("threads").get<uint32_t>();
      m.runs = r.at("runs").get<uint32_t>();
      m.bytes = r.at("bytes").get<uint64_t>();
      m.ios = r.at("ios").get<uint64_t>();
      m.wall_seconds = r.at("wall_seconds").get<double>();
      m.cpu_seconds = r.at("cpu_seconds").get<double>();
      if (!LatencyHistogram::FromJson(r.at("latency_histogram"), &m.latency, err)) {
        *err = "latency_histogram: " + *err;
        return false;
      }
      rec.metrics = MetricsFromJson(r.at("metrics"));
      d.records.push_back(std::move(rec));
    }
    *doc = std::move(d);
    return true;
  } catch (const json::exception& e) {
    *err = std::string("malformed results: ") + e.what();
    return false;
  }
}

bool LoadResultsFile(const std::string& path, ResultsDocument* doc, std::string* err) {
  std::string text;
  if (!ReadWholeFile(path, &text, err)) return false;
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    *err = path + " is not valid JSON";
    return false;
  }
  if (!ResultsFromJson(j, doc, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

bool SaveResultsFile(const std::string& path, const ResultsDocument& doc, std::string* err) {
  return WriteFileAtomically(path, ResultsToJson(doc).dump(2) + "\n", err);
}

}  // namespace elevbench
