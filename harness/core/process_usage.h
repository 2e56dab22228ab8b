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

/// Adds `part`'s CPU times and counts into *sum (a load's iterations summed); not its
/// elapsed_seconds: a sum's wall time is its own, not the sum of its parts'.
inline void AddProcessUsage(const ProcessUsage& part, ProcessUsage* sum) {
  sum->user_seconds += part.user_seconds;
  sum->system_seconds += part.system_seconds;
  sum->major_faults += part.major_faults;
  sum->minor_faults += part.minor_faults;
  sum->block_input_ops += part.block_input_ops;
  sum->block_output_ops += part.block_output_ops;
  sum->voluntary_switches += part.voluntary_switches;
  sum->involuntary_switches += part.involuntary_switches;
}

/// Sets the nine members of `usage` in the JSON object *object, under the struct's names.
void WriteProcessUsage(const ProcessUsage& usage, nlohmann::json* object);

/// Reads the nine members back from `object`; err names the field. *usage is unchanged on
/// failure.
[[nodiscard]] bool ReadProcessUsage(const nlohmann::json& object, ProcessUsage* usage,
                                    std::string* err);

}  // namespace elevbench
