#include "scenarios/command/command_measurements.h"

#include "harness/core/strings.h"
#include "scenarios/command/command_records.h"

namespace elevbench {

bool CommandMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                         std::string* err) {
  std::vector<CommandRecord> records;
  if (!CommandRecordsFromDocument(doc, &records, err)) return false;
  for (const CommandRecord& r : records) {
    RecordMeasurements record("command", r.command, r, out, r.status);
    // A DNF's reason as the nick layout's note words it (issue 45).
    if (r.status == "dnf") {
      record.SetReason(r.timeout_seconds > 0 ? "DNF after " + TimeoutWords(r.timeout_seconds)
                                             : std::string("DNF"));
    }
    // The program's own numbers mean nothing for a DNF (cut at the timeout) or a failure.
    auto program = [&](MetricInfo info, double value) { record(std::move(info), value); };
    program({"elapsed_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true,
             "Elapsed time"},
            r.elapsed_seconds);
    program({"user_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            r.user_seconds);
    program({"system_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            r.system_seconds);
    program({"major_faults", "count", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            static_cast<double>(r.major_faults));
    program({"read_mb", "MB", Direction::kNeither, MeanKind::kArithmetic, false},
            static_cast<double>(r.read_bytes) / (1 << 20));
    program({"written_mb", "MB", Direction::kNeither, MeanKind::kArithmetic, false},
            static_cast<double>(r.written_bytes) / (1 << 20));
    // The kernel's time for the program's own bios (root: a private tracefs instance).
    if (r.bios_traced && r.kernel_read.count() > 0) {
      program({"kernel_read_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
              static_cast<double>(r.kernel_read.ValueAtPercentile(99)) / 1e6);
    }
    if (r.bios_traced && r.kernel_write.count() > 0) {
      program(
          {"kernel_write_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
          static_cast<double>(r.kernel_write.ValueAtPercentile(99)) / 1e6);
    }
    // The load ran over the program's whole window whatever the program did.
    if (r.load != "none" && r.elapsed_seconds > 0) {
      MetricInfo load{"load_device_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic,
                      false};
      load.load_throughput = true;
      record(std::move(load), LoadDeviceMbPerSecond(r), "ok");
    }
  }
  return true;
}

}  // namespace elevbench
