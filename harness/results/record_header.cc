#include "harness/results/record_header.h"

#include "harness/core/json_fields.h"

namespace elevbench {

void WriteRecordHeader(const RecordHeader& header, nlohmann::json* record) {
  (*record)["scheduler"] = header.scheduler;
  (*record)["identifier"] = header.identifier;
  (*record)["label"] = header.label;
  (*record)["repetition"] = header.repetition;
}

bool ReadRecordHeader(const nlohmann::json& record, RecordHeader* header, std::string* err) {
  RecordHeader h;
  if (!GetJsonField(record, "scheduler", &h.scheduler, err) ||
      !GetJsonField(record, "identifier", &h.identifier, err) ||
      !GetJsonField(record, "repetition", &h.repetition, err)) {
    return false;
  }
  if (record.contains("label") && !GetJsonField(record, "label", &h.label, err)) return false;
  *header = std::move(h);
  return true;
}

}  // namespace elevbench
