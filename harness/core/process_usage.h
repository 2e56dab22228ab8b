#pragma once
// What a process (with the descendants it waited for) used, as wait4's rusage says: the CPU,
// fault, block-I/O and context-switch counts the 2003 posts' `time` lines printed. One record
// type and one JSON codec, for every suite that keeps a command's usage (contest, morton).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace elevbench {

/// A process's resource use; counts are never negative.
struct ProcessUsage {
  double elapsed_seconds = 0;  ///< its wall time, fork to reap
  double user_seconds = 0;
  double system_seconds = 0;
  uint64_t major_faults = 0;          ///< ru_majflt
  uint64_t minor_faults = 0;          ///< ru_minflt
  uint64_t block_input_ops = 0;       ///< ru_inblock, 512-byte units
  uint64_t block_output_ops = 0;      ///< ru_oublock
  uint64_t voluntary_switches = 0;    ///< ru_nvcsw
  uint64_t involuntary_switches = 0;  ///< ru_nivcsw
};

/// A `long` rusage count as a ProcessUsage count: a negative value (never seen) reads as 0.
inline uint64_t UsageCount(long count) { return count > 0 ? static_cast<uint64_t>(count) : 0; }

/// The usage of a result that keeps wait4's counts under ProcessUsage's names as `long`s
/// (RepeatedCommandResult's sums), with its wall time.
template <typename Result>
ProcessUsage UsageOfRusageFields(double elapsed_seconds, const Result& r) {
  return {elapsed_seconds,
          r.user_seconds,
          r.system_seconds,
          UsageCount(r.major_faults),
          UsageCount(r.minor_faults),
          UsageCount(r.block_input_ops),
          UsageCount(r.block_output_ops),
          UsageCount(r.voluntary_switches),
          UsageCount(r.involuntary_switches)};
}

/// Sets the nine members of `usage` in the JSON object *object, under the struct's names.
void WriteProcessUsage(const ProcessUsage& usage, nlohmann::json* object);

/// Reads the nine members back from `object`; err names the field. *usage is unchanged on
/// failure.
[[nodiscard]] bool ReadProcessUsage(const nlohmann::json& object, ProcessUsage* usage,
                                    std::string* err);

}  // namespace elevbench
