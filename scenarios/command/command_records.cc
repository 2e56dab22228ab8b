#include "scenarios/command/command_records.h"

#include <algorithm>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

double CommandMean(const std::vector<double>& v) {
  return Summarize(v, MeanKind::kArithmetic).mean;
}

bool CommandContains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A record's plain fields in the reader's order: these, the validity of "load" and "status",
// "load_streams", then kCommandLoadTraceFields. Beside the header's fields, "load_device_mb_s"
// (derived, written for readers only), "load_streams", "kernel_read" and "kernel_write".
constexpr JsonField<CommandRecord> kCommandFields[] = {
    {"command", &CommandRecord::command},
    {"load", &CommandRecord::load},
    {"status", &CommandRecord::status},
    {"stderr_tail", &CommandRecord::stderr_tail},
    {"exit_code", &CommandRecord::exit_code},
    {"term_signal", &CommandRecord::term_signal},
    {"elapsed_seconds", &CommandRecord::elapsed_seconds},
    {"user_seconds", &CommandRecord::user_seconds},
    {"system_seconds", &CommandRecord::system_seconds},
    {"timeout_seconds", &CommandRecord::timeout_seconds},
    {"setup_seconds", &CommandRecord::setup_seconds},
    {"warmup_seconds", &CommandRecord::warmup_seconds},
    {"major_faults", &CommandRecord::major_faults},
    {"minor_faults", &CommandRecord::minor_faults},
    {"read_bytes", &CommandRecord::read_bytes},
    {"written_bytes", &CommandRecord::written_bytes},
    {"device_read_bytes", &CommandRecord::device_read_bytes},
    {"device_written_bytes", &CommandRecord::device_written_bytes},
};
constexpr JsonField<CommandRecord> kCommandLoadTraceFields[] = {
    {"load_command", &CommandRecord::load_command},
    {"load_iterations", &CommandRecord::load_iterations},
    {"bios_traced", &CommandRecord::bios_traced},
    {"bios_problem", &CommandRecord::bios_problem, FieldPresence::kOptional},
    {"bios", &CommandRecord::bios},
    {"untimed_bios", &CommandRecord::untimed_bios},
};

bool CommandReadHistogram(const json& j, const char* key, LatencyHistogram* out, std::string* err) {
  const auto it = j.find(key);
  if (it == j.end()) {
    *err = std::string(key) + ": missing";
    return false;
  }
  if (!LatencyHistogram::FromJson(*it, out, err)) {
    *err = std::string(key) + ": " + *err;
    return false;
  }
  return true;
}

json CommandHistogramSummary(const LatencyHistogram& h) {
  auto ms = [&](double p) { return static_cast<double>(h.ValueAtPercentile(p)) / 1e6; };
  return json{{"bios", h.count()},
              {"p50_ms", h.count() ? ms(50) : 0.0},
              {"p99_ms", h.count() ? ms(99) : 0.0},
              {"max_ms", static_cast<double>(h.max_ns()) / 1e6}};
}

}  // namespace

const std::vector<std::string>& CommandLoads() {
  static const std::vector<std::string> kLoads = {"none", "seq-write", "seq-read", "rand-read",
                                                  "command"};
  return kLoads;
}

uint64_t LoadDeviceBytes(const CommandRecord& r) {
  if (r.load == "none" || r.load.empty()) return 0;
  const bool writes = r.load == "seq-write", both = r.load == "command";
  const uint64_t device = both     ? r.device_read_bytes + r.device_written_bytes
                          : writes ? r.device_written_bytes
                                   : r.device_read_bytes;
  const uint64_t own = both     ? r.read_bytes + r.written_bytes
                       : writes ? r.written_bytes
                                : r.read_bytes;
  return device > own ? device - own : 0;
}

double LoadDeviceMbPerSecond(const CommandRecord& r) {
  if (r.elapsed_seconds <= 0) return 0;
  return static_cast<double>(LoadDeviceBytes(r)) / (1 << 20) / r.elapsed_seconds;
}

std::string CommandFailedHow(const CommandRecord& r) {
  if (r.status == kCommandKilledOom) return r.status;
  if (r.term_signal != 0) return "signal " + std::to_string(r.term_signal);
  return "exit " + std::to_string(r.exit_code);
}

json CommandRecordToJson(const CommandRecord& r) {
  json streams = json::array();
  for (const StreamResult& s : r.load_streams) streams.push_back(StreamResultToJson(s));
  json j{{"load_device_mb_s", LoadDeviceMbPerSecond(r)},
         {"load_streams", std::move(streams)},
         {"kernel_read", r.kernel_read.ToJson()},
         {"kernel_write", r.kernel_write.ToJson()}};
  WriteJsonFields(kCommandFields, r, &j);
  WriteJsonFields(kCommandLoadTraceFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool CommandRecordFromJson(const json& j, CommandRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a command record object";
    return false;
  }
  CommandRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kCommandFields, j, &r, err)) return false;
  if (!CommandContains(CommandLoads(), r.load)) {
    *err = "load: unknown load '" + r.load + "'";
    return false;
  }
  if (r.status != "ok" && r.status != "dnf" && r.status != "failed" &&
      r.status != kCommandKilledOom) {
    *err = "status: expected ok, dnf, failed or killed (OOM), not '" + r.status + "'";
    return false;
  }
  if (!StreamResultsFromJson(j, "load_streams", &r.load_streams, err) ||
      !ReadJsonFields(kCommandLoadTraceFields, j, &r, err) ||
      !CommandReadHistogram(j, "kernel_read", &r.kernel_read, err) ||
      !CommandReadHistogram(j, "kernel_write", &r.kernel_write, err)) {
    return false;
  }
  *out = std::move(r);
  return true;
}

bool CommandRecordsFromDocument(const ResultsDocument& doc, std::vector<CommandRecord>* out,
                                std::string* err) {
  return ReadDocumentRecords(doc, CommandRecordFromJson, out, err);
}

std::vector<CommandRow> AggregateCommandRows(const std::vector<CommandRecord>& records,
                                             const std::vector<std::string>& given_order) {
  std::vector<CommandRow> rows;
  for (const std::string& id : ConfigurationOrder(given_order, records)) {
    CommandRow row;
    row.identifier = id;
    std::vector<double> elapsed, user, system, major, minor, read, written, load_rates;
    for (const CommandRecord& r : records) {
      if (r.identifier != id) continue;
      if (row.label.empty()) row.label = r.label;
      if (row.command.empty()) row.command = r.command;
      if (row.load.empty()) row.load = r.load;
      if (row.load_command.empty()) row.load_command = r.load_command;
      ++row.repetitions;
      row.timeout_seconds = std::max(row.timeout_seconds, r.timeout_seconds);
      if (r.load != "none") load_rates.push_back(LoadDeviceMbPerSecond(r));
      if (!r.bios_traced && row.untraced_why.empty()) row.untraced_why = r.bios_problem;
      if (r.bios_traced) {
        ++row.traced;
        row.kernel_read.Merge(r.kernel_read);
        row.kernel_write.Merge(r.kernel_write);
      }
      if (r.status == "ok") {
        elapsed.push_back(r.elapsed_seconds);
        user.push_back(r.user_seconds);
        system.push_back(r.system_seconds);
        major.push_back(static_cast<double>(r.major_faults));
        minor.push_back(static_cast<double>(r.minor_faults));
        read.push_back(static_cast<double>(r.read_bytes));
        written.push_back(static_cast<double>(r.written_bytes));
      } else if (r.status == "dnf") {
        ++row.dnf;
      } else {
        ++row.failed;
        row.failed_how = CommandFailedHow(r);
        row.failed_stderr = r.stderr_tail;
      }
    }
    if (row.repetitions == 0) continue;
    row.elapsed_seconds = CommandMean(elapsed);
    row.user_seconds = CommandMean(user);
    row.system_seconds = CommandMean(system);
    row.major_faults = CommandMean(major);
    row.minor_faults = CommandMean(minor);
    row.read_bytes = CommandMean(read);
    row.written_bytes = CommandMean(written);
    row.load_device_mb_s = Summarize(load_rates, MeanKind::kHarmonic).mean;
    rows.push_back(std::move(row));
  }
  return rows;
}

json CommandSummaryToJson(const std::vector<CommandRow>& rows) {
  json summary = json::array();
  for (const CommandRow& row : rows) {
    summary.push_back(json{{"identifier", row.identifier},
                           {"label", row.label},
                           {"command", row.command},
                           {"load", row.load},
                           {"load_command", row.load_command},
                           {"repetitions", row.repetitions},
                           {"ok", row.repetitions - row.dnf - row.failed},
                           {"dnf", row.dnf},
                           {"failed", row.failed},
                           {"mean", json{{"elapsed_seconds", row.elapsed_seconds},
                                         {"user_seconds", row.user_seconds},
                                         {"system_seconds", row.system_seconds},
                                         {"major_faults", row.major_faults},
                                         {"minor_faults", row.minor_faults},
                                         {"read_bytes", row.read_bytes},
                                         {"written_bytes", row.written_bytes}}},
                           {"load_device_mb_s", row.load_device_mb_s},
                           {"traced", row.traced},
                           {"kernel_read", CommandHistogramSummary(row.kernel_read)},
                           {"kernel_write", CommandHistogramSummary(row.kernel_write)},
                           {"timeout_seconds", row.timeout_seconds},
                           {"failed_how", row.failed_how},
                           {"failed_stderr", row.failed_stderr}});
  }
  return summary;
}

}  // namespace elevbench
