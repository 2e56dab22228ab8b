#include "harness/results/record_header.h"

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
}

bool ReadRecordHeader(const nlohmann::json& record, RecordHeader* header, std::string* err) {
  RecordHeader h;
  if (!ReadJsonFields(kRecordHeaderFields, record, &h, err)) return false;
  *header = std::move(h);
  return true;
}

}  // namespace elevbench
