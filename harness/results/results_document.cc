#include "harness/results/results_document.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string_view>

#include "harness/core/atomic_file.h"
#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

using nlohmann::json;

// The generic members of a cell's JSON object; any other member belongs to the variant key.
constexpr const char* kCellFields[] = {
    "scheduler",          "identifier",       "label",   "repetition",    "status",        "error",
    "started_at",         "duration_seconds", "queue",   "disk_counters", "request_trace", "lane",
    "plan_index",         "lane_records",     "control", "shard",         "shard_records", "kernel",
    "configuration_label"};

// A cell's `--lanes` fields: written together when lane >= 0, read together when "lane" is there.
constexpr JsonField<CellRecord> kLaneFields[] = {
    {"lane", &CellRecord::lane},
    {"plan_index", &CellRecord::plan_index},
    {"lane_records", &CellRecord::record_count},
};

// A cell's `--shard` fields: written together when shard > 0 (and the cell ran in no lane), read
// together when "shard" is there.
constexpr JsonField<CellRecord> kShardFields[] = {
    {"shard", &CellRecord::shard},
    {"plan_index", &CellRecord::plan_index},
    {"shard_records", &CellRecord::record_count},
};

bool IsCellField(const std::string& key) {
  return std::any_of(std::begin(kCellFields), std::end(kCellFields),
                     [&](const char* f) { return key == f; });
}

}  // namespace

std::vector<std::string> IdentifierOrder(const ResultsDocument& doc) {
  std::vector<std::string> order = doc.identifiers;
  for (const json& r : doc.records) {
    const std::string id = r.value("identifier", std::string());
    if (std::find(order.begin(), order.end(), id) == order.end()) order.push_back(id);
  }
  return order;
}

namespace {

// The JSON object of one cell.
json CellToJson(const CellRecord& c) {
  json cell = c.variant.is_object() ? c.variant : json::object();
  cell.update(json{{"scheduler", c.scheduler},
                   {"identifier", c.identifier},
                   {"repetition", c.repetition},
                   {"status", c.status},
                   {"error", c.error},
                   {"started_at", c.started_at},
                   {"duration_seconds", c.duration_seconds},
                   {"queue", c.queue},
                   {"disk_counters", c.disk_counters}});
  if (!c.label.empty()) cell["label"] = c.label;
  if (!c.control.empty()) cell["control"] = c.control;
  if (!c.kernel.empty()) cell["kernel"] = RowKernelToJson(c.kernel);
  if (!c.configuration_label.empty()) cell["configuration_label"] = c.configuration_label;
  if (c.request_trace) cell["request_trace"] = RequestTraceRecordToJson(*c.request_trace);
  if (c.lane >= 0) WriteJsonFields(kLaneFields, c, &cell);
  if (c.lane < 0 && c.shard > 0) WriteJsonFields(kShardFields, c, &cell);
  return cell;
}

// Every member of the document's JSON object but "cells" and "records".
json ResultsHeadToJson(const ResultsDocument& doc) {
  json j;
  j["schema_version"] = kResultsSchemaVersion;
  j["suite"] = doc.suite;
  j["complete"] = doc.complete;
  j["context"] = doc.context;
  j["parameters"] = doc.parameters;
  j["identifiers"] = doc.identifiers;
  if (!doc.labels.empty()) j["labels"] = doc.labels;
  if (!doc.setup.is_null()) j["setup"] = doc.setup;
  j["summary"] = doc.summary;
  return j;
}

// `text`, a value's dump(2), as dump(2) writes it nested `indent` spaces deep: each line after
// the first indented by that much more. Every '\n' of a dump is layout (strings escape theirs).
void WriteIndented(const std::string& text, size_t indent, const ContentSink& sink) {
  const std::string newline = "\n" + std::string(indent, ' ');
  size_t from = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    sink(std::string_view(text).substr(from, nl - from));
    sink(newline);
    from = nl + 1;
  }
  sink(std::string_view(text).substr(from));
}

// An array member of the top-level object (2 spaces deep) of `count` values, dumping the i-th
// only when it is written, as dump(2) lays it out.
void WriteArray(size_t count, const std::function<std::string(size_t)>& dump_element,
                const ContentSink& sink) {
  if (count == 0) {
    sink("[]");
    return;
  }
  sink("[\n");
  for (size_t i = 0; i < count; ++i) {
    sink("    ");
    WriteIndented(dump_element(i), 4, sink);
    sink(i + 1 < count ? ",\n" : "\n");
  }
  sink("  ]");
}

}  // namespace

json ResultsToJson(const ResultsDocument& doc) {
  json j = ResultsHeadToJson(doc);
  json cells = json::array();
  for (const CellRecord& c : doc.cells) cells.push_back(CellToJson(c));
  j["cells"] = std::move(cells);
  j["records"] = doc.records;
  return j;
}

void WriteResultsText(const ResultsDocument& doc, const ContentSink& sink) {
  json head = ResultsHeadToJson(doc);
  // Placeholders that put "cells" and "records" in their places of the object's sorted member
  // order; their values are written one element at a time below.
  head["cells"] = nullptr;
  head["records"] = nullptr;
  sink("{\n");
  bool first = true;
  for (auto it = head.begin(); it != head.end(); ++it) {
    sink(first ? "  " : ",\n  ");
    first = false;
    sink(json(it.key()).dump());
    sink(": ");
    if (it.key() == "cells") {
      WriteArray(
          doc.cells.size(), [&](size_t i) { return CellToJson(doc.cells[i]).dump(2); }, sink);
    } else if (it.key() == "records") {
      WriteArray(
          doc.records.size(), [&](size_t i) { return doc.records[i].dump(2); }, sink);
    } else {
      WriteIndented(it.value().dump(2), 2, sink);
    }
  }
  sink("\n}\n");
}

namespace {

// One cell of a results file; `index` names it in a trace's error. May throw json::exception
// (a member of the wrong type), which ResultsFromJson turns into its error.
bool CellFromJson(const json& c, size_t index, CellRecord* out, std::string* err) {
  CellRecord cell;
  cell.scheduler = c.at("scheduler").get<std::string>();
  cell.identifier = c.at("identifier").get<std::string>();
  cell.label = c.value("label", "");
  cell.control = c.value("control", "");
  cell.configuration_label = c.value("configuration_label", "");
  const auto kernel = c.find("kernel");
  if (kernel != c.end() && !RowKernelFromJson(*kernel, &cell.kernel, err)) {
    *err = "cells[" + std::to_string(index) + "]: " + *err;
    return false;
  }
  if (!GetJsonField(c, "repetition", &cell.repetition, err)) {
    *err = "cells: " + *err;
    return false;
  }
  cell.status = c.at("status").get<std::string>();
  cell.error = c.value("error", "");
  cell.started_at = c.value("started_at", "");
  cell.duration_seconds = c.value("duration_seconds", 0.0);
  cell.queue = c.value("queue", std::map<std::string, std::string>{});
  cell.disk_counters = c.value("disk_counters", json());
  const auto trace = c.find("request_trace");
  if (trace != c.end() && !trace->is_null()) {
    RequestTraceRecord record;
    if (!RequestTraceRecordFromJson(*trace, &record, err)) {
      *err = "cells[" + std::to_string(index) + "]: " + *err;
      return false;
    }
    cell.request_trace = std::move(record);
  }
  if (c.contains("lane") && !ReadJsonFields(kLaneFields, c, &cell, err)) {
    *err = "cells: " + *err;
    return false;
  }
  if (c.contains("shard") && !ReadJsonFields(kShardFields, c, &cell, err)) {
    *err = "cells: " + *err;
    return false;
  }
  for (auto it = c.begin(); it != c.end(); ++it) {
    if (!IsCellField(it.key())) cell.variant[it.key()] = it.value();
  }
  *out = std::move(cell);
  return true;
}

}  // namespace

bool ResultsFromJson(json j, ResultsDocument* doc, std::string* err) {
  try {
    if (!j.is_object() || !j.contains("schema_version")) {
      *err = "not an elevbench results file (no schema_version)";
      return false;
    }
    int version = 0;
    if (!GetJsonField(j, "schema_version", &version, err)) return false;
    if (version != kResultsSchemaVersion) {
      *err = "unsupported schema_version " + std::to_string(version) + " (this elevbench reads " +
             std::to_string(kResultsSchemaVersion) + ")";
      return false;
    }
    ResultsDocument d;
    d.suite = j.at("suite").get<std::string>();
    d.complete = j.value("complete", false);
    // The document takes the parsed values over rather than copying them: a results file's
    // records (histograms, streams) are most of its bytes.
    d.context = j.contains("context") ? std::move(j["context"]) : json::object();
    d.parameters = std::move(j.at("parameters"));
    if (!d.parameters.is_object()) {
      *err = "parameters: expected an object";
      return false;
    }
    d.identifiers = j.value("identifiers", std::vector<std::string>{});
    d.labels = j.value("labels", std::vector<std::string>{});
    d.setup = j.contains("setup") ? std::move(j["setup"]) : json();
    for (const json& c : j.at("cells")) {
      CellRecord cell;
      if (!CellFromJson(c, d.cells.size(), &cell, err)) return false;
      d.cells.push_back(std::move(cell));
    }
    json& records = j.at("records");
    if (!records.is_array()) {
      *err = "records: expected an array";
      return false;
    }
    for (size_t i = 0; i < records.size(); ++i) {
      json& r = records[i];
      if (!r.is_object() || !r.contains("identifier") || !r.at("identifier").is_string()) {
        *err = "records[" + std::to_string(i) + "]: expected an object with an identifier";
        return false;
      }
      d.records.push_back(std::move(r));
    }
    d.summary = j.contains("summary") ? std::move(j["summary"]) : json::array();
    *doc = std::move(d);
    return true;
  } catch (const json::exception& e) {
    *err = std::string("malformed results: ") + e.what();
    return false;
  }
}

bool LoadResultsFile(const std::string& path, ResultsDocument* doc, std::string* err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *err = path + " is a directory, not a results file (give the .json a run wrote)";
    return false;
  }
  std::string text;
  if (!ReadWholeFile(path, &text, err)) return false;
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    *err = path + " is not valid JSON";
    return false;
  }
  if (!ResultsFromJson(std::move(j), doc, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

bool SaveResultsFile(const std::string& path, const ResultsDocument& doc, std::string* err) {
  return WriteFileAtomically(
      path, [&doc](const ContentSink& sink) { WriteResultsText(doc, sink); }, err);
}

nlohmann::json ParametersOfWhatWasMeasured(const nlohmann::json& parameters) {
  if (parameters.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const nlohmann::json& item : parameters) out.push_back(ParametersOfWhatWasMeasured(item));
    return out;
  }
  if (!parameters.is_object()) return parameters;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : parameters.items()) {
    if (key != "directory") out[key] = ParametersOfWhatWasMeasured(value);
  }
  return out;
}

RecordHeader CellHeader(const CellRecord& cell) {
  return {cell.scheduler, cell.identifier,         cell.label, cell.repetition, cell.control,
          cell.kernel,    cell.configuration_label};
}

}  // namespace elevbench
