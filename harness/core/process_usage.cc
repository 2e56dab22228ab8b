#include "harness/core/process_usage.h"

#include "harness/core/json_fields.h"

namespace elevbench {

void WriteProcessUsage(const ProcessUsage& u, nlohmann::json* object) {
  nlohmann::json& j = *object;
  j["elapsed_seconds"] = u.elapsed_seconds;
  j["user_seconds"] = u.user_seconds;
  j["system_seconds"] = u.system_seconds;
  j["major_faults"] = u.major_faults;
  j["minor_faults"] = u.minor_faults;
  j["block_input_ops"] = u.block_input_ops;
  j["block_output_ops"] = u.block_output_ops;
  j["voluntary_switches"] = u.voluntary_switches;
  j["involuntary_switches"] = u.involuntary_switches;
}

bool ReadProcessUsage(const nlohmann::json& j, ProcessUsage* out, std::string* err) {
  ProcessUsage u;
  if (!GetJsonField(j, "elapsed_seconds", &u.elapsed_seconds, err) ||
      !GetJsonField(j, "user_seconds", &u.user_seconds, err) ||
      !GetJsonField(j, "system_seconds", &u.system_seconds, err) ||
      !GetJsonField(j, "major_faults", &u.major_faults, err) ||
      !GetJsonField(j, "minor_faults", &u.minor_faults, err) ||
      !GetJsonField(j, "block_input_ops", &u.block_input_ops, err) ||
      !GetJsonField(j, "block_output_ops", &u.block_output_ops, err) ||
      !GetJsonField(j, "voluntary_switches", &u.voluntary_switches, err) ||
      !GetJsonField(j, "involuntary_switches", &u.involuntary_switches, err)) {
    return false;
  }
  *out = u;
  return true;
}

}  // namespace elevbench
