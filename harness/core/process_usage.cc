#include "harness/core/process_usage.h"

#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

constexpr JsonField<ProcessUsage> kUsageFields[] = {
    {"elapsed_seconds", &ProcessUsage::elapsed_seconds},
    {"user_seconds", &ProcessUsage::user_seconds},
    {"system_seconds", &ProcessUsage::system_seconds},
    {"major_faults", &ProcessUsage::major_faults},
    {"minor_faults", &ProcessUsage::minor_faults},
    {"block_input_ops", &ProcessUsage::block_input_ops},
    {"block_output_ops", &ProcessUsage::block_output_ops},
    {"voluntary_switches", &ProcessUsage::voluntary_switches},
    {"involuntary_switches", &ProcessUsage::involuntary_switches},
};

}  // namespace

void WriteProcessUsage(const ProcessUsage& u, nlohmann::json* object) {
  WriteJsonFields(kUsageFields, u, object);
}

bool ReadProcessUsage(const nlohmann::json& j, ProcessUsage* out, std::string* err) {
  ProcessUsage u;
  if (!ReadJsonFields(kUsageFields, j, &u, err)) return false;
  *out = u;
  return true;
}

}  // namespace elevbench
