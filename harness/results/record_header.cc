#include "harness/results/record_header.h"

#include "harness/core/error.h"
#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

// "label" is optional: files of runs without short labels have none.
constexpr JsonField<RecordHeader> kRecordHeaderFields[] = {
    {"scheduler", &RecordHeader::scheduler},
    {"identifier", &RecordHeader::identifier},
    {"repetition", &RecordHeader::repetition},
    {"label", &RecordHeader::label, FieldPresence::kOptional},
};

}  // namespace

void WriteRecordHeader(const RecordHeader& header, nlohmann::json* record) {
  WriteJsonFields(kRecordHeaderFields, header, record);
  if (!header.control.empty()) (*record)["control"] = header.control;  // a run's --controls
}

bool ReadRecordHeader(const nlohmann::json& record, RecordHeader* header, std::string* err) {
  RecordHeader h;
  if (!ReadJsonFields(kRecordHeaderFields, record, &h, err)) return false;
  const auto control = record.find("control");
  if (control != record.end()) {
    if (!control->is_string()) return Fail(err, "control: expected a string");
    h.control = control->get<std::string>();
  }
  *header = std::move(h);
  return true;
}

}  // namespace elevbench
