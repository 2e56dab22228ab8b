#include "harness/results/record_header.h"

#include "harness/core/error.h"
#include "harness/core/json_field_table.h"
#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

// "label" is optional: files of runs without short labels have none.
constexpr JsonField<RecordHeader> kRecordHeaderFields[] = {
    {"scheduler", &RecordHeader::scheduler},
    {"identifier", &RecordHeader::identifier},
    {"repetition", &RecordHeader::repetition},
    {"label", &RecordHeader::label, FieldPresence::kOptional},
};

// A kernel's members, all strings, all written.
constexpr JsonField<RowKernel> kRowKernelFields[] = {
    {"label", &RowKernel::label},
    {"release", &RowKernel::release},
    {"source", &RowKernel::source},
};

}  // namespace

nlohmann::json RowKernelToJson(const RowKernel& kernel) {
  nlohmann::json j = nlohmann::json::object();
  WriteJsonFields(kRowKernelFields, kernel, &j);
  return j;
}

bool RowKernelFromJson(const nlohmann::json& j, RowKernel* kernel, std::string* err) {
  if (!j.is_object()) return Fail(err, "kernel: expected an object");
  RowKernel k;
  if (!ReadJsonFields(kRowKernelFields, j, &k, err)) {
    *err = "kernel: " + *err;
    return false;
  }
  *kernel = std::move(k);
  return true;
}

void WriteRecordHeader(const RecordHeader& header, nlohmann::json* record) {
  WriteJsonFields(kRecordHeaderFields, header, record);
  if (!header.control.empty()) (*record)["control"] = header.control;  // a run's --controls
  if (!header.kernel.empty()) (*record)["kernel"] = RowKernelToJson(header.kernel);  // --kernels
  if (!header.configuration_label.empty()) {
    (*record)["configuration_label"] = header.configuration_label;  // --kernels too
  }
}

bool ReadRecordHeader(const nlohmann::json& record, RecordHeader* header, std::string* err) {
  RecordHeader h;
  if (!ReadJsonFields(kRecordHeaderFields, record, &h, err)) return false;
  const auto control = record.find("control");
  if (control != record.end()) {
    if (!control->is_string()) return Fail(err, "control: expected a string");
    h.control = control->get<std::string>();
  }
  const auto kernel = record.find("kernel");
  if (kernel != record.end() && !RowKernelFromJson(*kernel, &h.kernel, err)) return false;
  if (!GetOptionalJsonField(record, "configuration_label", &h.configuration_label, err)) {
    return false;
  }
  *header = std::move(h);
  return true;
}

}  // namespace elevbench
