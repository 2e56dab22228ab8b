#pragma once
// `run command`'s plain result records (docs/command.md): one record per cell: the user's
// program as wait4 saw it (wall, user and system time, faults, the bytes its processes had the
// storage read and write), how it ended (ok, DNF at the timeout, failed with its exit status
// and the tail of its stderr), and the background load: fio's own account of its streams and
// the target disk's counters over the program's run, from which the load's rate as the device
// saw it is taken (never fio's page-cache rate).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// The status of a program the OOM killer ended: a failure, not a DNF.
inline constexpr const char* kCommandKilledOom = "killed (OOM)";

/// The background loads `--load` takes, "none" first (the default); "command" is the user's
/// own shell command (`--load-command`), run again and again.
const std::vector<std::string>& CommandLoads();

/// One run of the program (a cell).
struct CommandRecord : RecordHeader {
  std::string command;  ///< the program as a shell shows it: "tar -xf /src/linux.tar"
  std::string load;     ///< CommandLoads(): "none", "seq-write", "seq-read", "rand-read", ...
  /// "ok" (exit 0), "dnf" (killed at its timeout), "failed" (non-zero exit or a signal) or
  /// kCommandKilledOom.
  std::string status;
  int exit_code = 0;           ///< -1 when a signal ended it
  int term_signal = 0;         ///< the signal, 0 when it exited
  std::string stderr_tail;     ///< the last lines of its stderr (up to 3 lines, 300 bytes)
  double elapsed_seconds = 0;  ///< its wall time, fork to reap (up to the kill for a DNF)
  double user_seconds = 0;     ///< wait4: the program and the descendants it waited for
  double system_seconds = 0;
  double timeout_seconds = 0;
  double setup_seconds = 0;   ///< the --setup command's wall time (0 without one)
  double warmup_seconds = 0;  ///< how long the load had run when the program started
  uint64_t major_faults = 0;
  uint64_t minor_faults = 0;
  uint64_t read_bytes = 0;     ///< ru_inblock × 512: what its processes had the storage read
  uint64_t written_bytes = 0;  ///< ru_oublock × 512: what they dirtied for the storage to write
  /// The target disks' own counters over the program's run (start to reap): everything the
  /// device moved in that window, the program's and the load's.
  uint64_t device_read_bytes = 0;
  uint64_t device_written_bytes = 0;
  std::vector<StreamResult> load_streams;  ///< fio's account of the load over its whole run
  std::string load_command;      ///< the "command" load's shell command; empty for the others
  uint64_t load_iterations = 0;  ///< the "command" load's iterations completed
  /// The kernel's account of the program's own bios (scenarios/command/program_bios.h): false
  /// without root or tracefs, or when the trace could not be taken (then the rest is empty).
  bool bios_traced = false;
  /// Why they were not (one line: not root, the capture could not start or stop); empty when
  /// they were, and in files written before this field.
  std::string bios_problem;
  uint64_t bios = 0;             ///< bios its processes and threads queued on the target disk
  uint64_t untimed_bios = 0;     ///< of those, without a completion (flushes, still in flight)
  LatencyHistogram kernel_read;  ///< queued to the last sector completed, ns
  LatencyHistogram kernel_write;
};

/// The bytes of the load as the device saw them in the program's window: the device's bytes in
/// the load's direction (written for seq-write, read for seq-read and rand-read, both for a
/// command, whose direction is unknown) less the program's own bytes in that direction, 0 when
/// negative; 0 without a load.
uint64_t LoadDeviceBytes(const CommandRecord& record);

/// LoadDeviceBytes in MiB/s over the program's wall time; 0 without a load or a wall time.
double LoadDeviceMbPerSecond(const CommandRecord& record);

/// The record's JSON object: the struct's field names as keys, "load_streams" an array of
/// StreamResultToJson objects, and the derived "load_device_mb_s" (docs/output-format.md).
nlohmann::json CommandRecordToJson(const CommandRecord& record);
/// Reads a record back ("label" may be missing; "load_device_mb_s" is derived, not read).
/// Refuses an unknown load or status. On failure *record is unchanged and err names the key.
[[nodiscard]] bool CommandRecordFromJson(const nlohmann::json& j, CommandRecord* record,
                                         std::string* err);
/// Every record of a command results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool CommandRecordsFromDocument(const ResultsDocument& doc,
                                              std::vector<CommandRecord>* records,
                                              std::string* err);

/// A printed row: one configuration over its repetitions.
struct CommandRow {
  std::string identifier;
  std::string label;  ///< the first non-empty label of the row's records
  std::string command;
  std::string load;
  std::string load_command;  ///< the "command" load's shell command
  uint32_t repetitions = 0;
  uint32_t dnf = 0;
  uint32_t failed = 0;         ///< failed or OOM-killed repetitions
  double elapsed_seconds = 0;  ///< means over the finished ("ok") repetitions; 0 when none
  double user_seconds = 0;
  double system_seconds = 0;
  double major_faults = 0;
  double minor_faults = 0;
  double read_bytes = 0;
  double written_bytes = 0;
  /// The load's device rate, harmonic mean over every repetition (the load ran whatever the
  /// program did); 0 without a load.
  double load_device_mb_s = 0;
  uint32_t traced = 0;           ///< repetitions whose bios were traced
  std::string untraced_why;      ///< when none was: the first repetition's bios_problem
  LatencyHistogram kernel_read;  ///< the program's bios, merged over every repetition
  LatencyHistogram kernel_write;
  double timeout_seconds = 0;  ///< the largest of the row's records
  std::string failed_how;      ///< the last failed repetition: "exit 2", "signal 9", "killed (OOM)"
  std::string failed_stderr;   ///< ... and the tail of its stderr
};

/// Rows by configuration in `order` (identifiers), then any others in order of appearance.
std::vector<CommandRow> AggregateCommandRows(const std::vector<CommandRecord>& records,
                                             const std::vector<std::string>& order);

/// The summary block: per row identifier, label, command, load, repetitions, ok, dnf, failed,
/// mean {elapsed_seconds, user_seconds, system_seconds, major_faults, minor_faults, read_bytes,
/// written_bytes}, load_device_mb_s, traced, kernel_read and kernel_write {bios, p50_ms, p99_ms,
/// max_ms}, timeout_seconds, failed_how, failed_stderr.
nlohmann::json CommandSummaryToJson(const std::vector<CommandRow>& rows);

/// How a failed program ended: "exit N", "signal N", or the status itself (killed (OOM)).
std::string CommandFailedHow(const CommandRecord& record);

}  // namespace elevbench
