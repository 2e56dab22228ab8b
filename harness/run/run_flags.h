#pragma once
// The flags of `elevbench run` that set RunConfig's target and plan (run_config.h), as a table
// beside the config: each flag's name, the field it sets and its help. The CLI adds one option
// per row in the table's order (the order of `run --help`), its type from the field's, so that
// a new field of the config gets its flag here, once. The target flags `capture` shares
// (--device, --emulated, --scratch, --fs: RunConfig::target) are not rows: the CLI declares
// them for both commands (app/cli/commands.h's AddTargetOptions), before the table's, with
// run's help from RunTargetFlagsHelp. The output's flags (--format, --out, …) are the CLI's
// own: their help and fields come from the table of suites and the CLI.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "harness/core/trace_mode.h"
#include "harness/run/run_config.h"
#include "harness/run/target_spec.h"

namespace elevbench {

/// The field of RunConfig a flag sets: a bool field is a flag without a value, a uint64_t one
/// (the seed) any whole number from 0, a TraceMode one a word of TraceModeName's.
using RunConfigField = std::variant<std::string RunConfig::*, std::vector<std::string> RunConfig::*,
                                    bool RunConfig::*, double RunConfig::*, uint32_t RunConfig::*,
                                    uint64_t RunConfig::*, TraceMode RunConfig::*>;

/// One flag of `elevbench run` that sets a field of RunConfig.
struct RunConfigFlag {
  const char* name;  ///< "--dir"
  RunConfigField field;
  std::string help;  ///< its text in `run --help`
  /// The values a number may take, checked by the parser ([min, max]); none: any.
  std::optional<std::pair<double, double>> range = std::nullopt;
  const char* unit = "";  ///< the range's unit in its words ("seconds"), or none
};

/// The table of RunConfig's flags, run's own target flags first, then the plan, in `run
/// --help`'s order.
const std::vector<RunConfigFlag>& RunConfigFlags();

/// The value's name in `run --help` of a flag of RunConfigFlags whose value is text ("DIR" for
/// --dir, "N|auto" for --lanes; #45: CLI11 wrote "TEXT"); empty for the others, whose value
/// name comes from their field's type (a number's range, --trace-requests' words).
std::string RunFlagValueName(const std::string& flag);

/// Under every suite's own options in its --help: the options of `run` it shares, which CLI11
/// lists only in `run --help` (issue #29 §4), and the units of sizes.
const char* SharedRunOptionsNote();

/// The help of the target flags in `run --help` (run's --device: consent to switch the
/// scheduler of a disk of the user's, or the raw disk `run replay` writes to).
const TargetFlagsHelp& RunTargetFlagsHelp();

}  // namespace elevbench
