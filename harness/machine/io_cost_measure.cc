#include "harness/machine/io_cost_measure.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/process/subprocess.h"

namespace elevbench {

const IoCostProbe (&IoCostRecipe())[6] {
  static const IoCostProbe kRecipe[6] = {
      {"rbps", "read", 128ull << 20, 1, true},    {"rseqiops", "read", 4096, 64, false},
      {"rrandiops", "randread", 4096, 64, false}, {"wbps", "write", 128ull << 20, 1, true},
      {"wseqiops", "write", 4096, 64, false},     {"wrandiops", "randwrite", 4096, 64, false}};
  return kRecipe;
}

std::vector<std::string> IoCostProbeCommand(const std::string& fio, const IoCostProbe& probe,
                                            const std::string& file, uint64_t file_bytes,
                                            double seconds) {
  return {fio,
          "--name=coef",
          "--direct=1",
          "--ioengine=libaio",
          "--filename=" + file,
          "--size=" + std::to_string(file_bytes),
          "--runtime=" + std::to_string(static_cast<long>(std::lround(seconds))),
          "--time_based",
          std::string("--readwrite=") + probe.readwrite,
          "--iodepth=" + std::to_string(probe.iodepth),
          "--blocksize=" + std::to_string(probe.block_bytes),
          "--numjobs=1",
          "--output-format=json"};
}

bool IoCostProbeThroughput(const std::string& json_text, double* bytes_per_second,
                           std::string* err) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("jobs") || !j["jobs"].is_array() || j["jobs"].empty()) {
    return Fail(err, "fio's output is not its JSON with jobs");
  }
  double sum = 0;
  for (const nlohmann::json& job : j["jobs"]) {
    for (const char* dir : {"read", "write"}) {
      if (!job.contains(dir) || !job[dir].contains("bw_bytes") ||
          !job[dir]["bw_bytes"].is_number()) {
        return Fail(err, std::string("fio's JSON has no jobs[].") + dir + ".bw_bytes");
      }
      sum += job[dir]["bw_bytes"].get<double>();
    }
  }
  *bytes_per_second = sum;
  return true;
}

bool MeasureIoCostModel(const std::string& fio, const std::string& file, uint64_t file_bytes,
                        double seconds_each, IoCostModel* model, std::string* err) {
  IoCostModel m;
  uint64_t* fields[6] = {&m.rbps, &m.rseqiops, &m.rrandiops, &m.wbps, &m.wseqiops, &m.wrandiops};
  for (size_t i = 0; i < 6; ++i) {
    const IoCostProbe& probe = IoCostRecipe()[i];
    ProcessOptions options;
    options.timeout_seconds = seconds_each + 60;
    ProcessResult r;
    // fio refuses a file smaller than its block: on a small target the sequential runs' blocks
    // are the file's size (docs/controls.md).
    IoCostProbe sized = probe;
    sized.block_bytes = std::min(probe.block_bytes, file_bytes);
    if (!RunProcess(IoCostProbeCommand(fio, sized, file, file_bytes, seconds_each), options, &r,
                    err)) {
      return Fail(err, std::string("io.cost model, ") + probe.key + ": " + *err);
    }
    if (r.exit_code != 0) {
      std::string last = TrimWhitespace(r.error_output);
      last = last.substr(
          last.find_last_of('\n') == std::string::npos ? 0 : last.find_last_of('\n') + 1);
      return Fail(err, std::string("io.cost model, ") + probe.key + ": fio " +
                           (r.timed_out ? "ran past its deadline" : "failed") + " (exit " +
                           std::to_string(r.exit_code) + ")" + (last.empty() ? "" : ": " + last));
    }
    double bps = 0;
    if (!IoCostProbeThroughput(r.output, &bps, err)) {
      return Fail(err, std::string("io.cost model, ") + probe.key + ": " + *err);
    }
    const double value = probe.bytes ? bps : bps / static_cast<double>(sized.block_bytes);
    *fields[i] = static_cast<uint64_t>(std::llround(value));
    if (*fields[i] == 0) {
      return Fail(err, std::string("io.cost model, ") + probe.key + ": measured 0");
    }
  }
  *model = m;
  return true;
}

}  // namespace elevbench
