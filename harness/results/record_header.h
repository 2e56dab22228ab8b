#pragma once
// The fields every suite's record starts with: which configuration and repetition it measured.
// The session writes them into each record (run_session.cc); every suite's record reader reads
// them back through ReadRecordHeader, and every aggregation orders its configurations with
// ConfigurationOrder, so the rules live in one place.

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace elevbench {

/// The kernel a row ran under (`run --kernels`, docs/kernels.md), as a field of its own so that
/// no reader recovers it from a label: the guest's results are merged on the host, which knows
/// each guest's kernel and writes it into every cell and record ("kernel": {"label": …,
/// "release": …, "source": …}). Empty (and not written) in a run on the host, and in files
/// written before the field (docs/output-format.md: they read as one kernel).
struct RowKernel {
  std::string label;    ///< the kernel's row label: "6.1.0-50-cloud", or the user's @LABEL
  std::string release;  ///< `uname -r` in the guest: "6.1.0-50-cloud-amd64"
  std::string source;   ///< "debian" (a package) or "build" (a user's bzImage)
  bool empty() const { return label.empty() && release.empty() && source.empty(); }
  bool operator==(const RowKernel&) const = default;
};

/// The JSON object of a kernel: {"label", "release", "source"}.
nlohmann::json RowKernelToJson(const RowKernel& kernel);

/// Reads a "kernel" member's value (RowKernelToJson's form); err names the bad member.
[[nodiscard]] bool RowKernelFromJson(const nlohmann::json& j, RowKernel* kernel, std::string* err);

/// Which configuration, under which labels, and which repetition a record measured. A suite's
/// record type derives from it (`struct NickbenchRecord : RecordHeader { … }`).
struct RecordHeader {
  std::string scheduler;   ///< the configuration, "bfq:low_latency=0"; "" when not switched
  std::string identifier;  ///< its table label in the tiobench style, "6.18.44-bfq-ll0"
  std::string label;       ///< its short label, "BFQ-LL0" or the user's "AS"; may be empty
  uint32_t repetition = 0;
  /// The I/O control beside the scheduler (`run --controls`, docs/controls.md),
  /// "ionice:load=idle" or "none"; empty in a run without --controls (and then not written).
  std::string control;
  /// The kernel the record ran under (`run --kernels`); empty on the host (then not written).
  RowKernel kernel{};
  /// `run --kernels`: the configuration's own label, without its kernel's ("AS", "BFQ-LL0",
  /// "DL+idle"), the same on every kernel, which names the configuration across kernels; set
  /// only in a --kernels run (then not written elsewhere), empty in files before the field.
  std::string configuration_label{};
};

/// Sets "scheduler", "identifier", "label" and "repetition" of the JSON object *record, and
/// "control", "kernel" and "configuration_label" when there are.
void WriteRecordHeader(const RecordHeader& header, nlohmann::json* record);

/// Reads the header of a record object: "scheduler", "identifier" and "repetition" are
/// required, "label", "control", "kernel" and "configuration_label" optional (files of runs without
/// short labels have none; it is left empty). err names the field ("repetition: expected a
/// non-negative integer"); *header is unchanged on failure.
[[nodiscard]] bool ReadRecordHeader(const nlohmann::json& record, RecordHeader* header,
                                    std::string* err);

/// The configurations of a set of records in table order: `given` (the document's order), then
/// every other identifier of `records` in order of first appearance. Every suite's rows are
/// ordered this way, so a configuration missing from the document's list still prints.
template <typename Record>
std::vector<std::string> ConfigurationOrder(const std::vector<std::string>& given,
                                            const std::vector<Record>& records) {
  std::vector<std::string> order = given;
  for (const Record& r : records) {
    const RecordHeader& header = r;
    if (std::find(order.begin(), order.end(), header.identifier) == order.end()) {
      order.push_back(header.identifier);
    }
  }
  return order;
}

}  // namespace elevbench
