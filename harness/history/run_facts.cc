#include "harness/history/run_facts.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>

#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

std::string Text(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

uint64_t Fnv1a64(const std::string& bytes) {
  uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string AbsolutePath(const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().string();
}

}  // namespace

std::string TargetSummary(const nlohmann::json& target) {
  const std::string kind = Text(target, "kind");
  const std::string fs = Text(target, "filesystem");
  std::string line;
  if (kind == "emulated") {
    line = "emulated";
    if (target.contains("profile")) {
      const std::string profile = Text(target["profile"], "name");
      if (!profile.empty()) line += " " + profile;
    }
    if (!fs.empty()) line += " " + fs;
  } else if (kind == "scratch") {
    line = "scratch";
    if (!fs.empty()) line += " " + fs;
    if (target.contains("size_bytes") && target["size_bytes"].is_number_unsigned()) {
      line += " " + std::to_string(target["size_bytes"].get<uint64_t>() >> 20) + " MiB";
    }
  } else if (!kind.empty()) {
    line = kind;
    const std::string path = Text(target, "path");
    if (!path.empty()) line += " " + path;
    if (!fs.empty()) line += " (" + fs + ")";
  }
  return line;
}

RunFacts RunFactsOf(const ResultsDocument& doc, const std::string& results_path) {
  RunFacts facts;
  HistoryRun& run = facts.run;
  const nlohmann::json& context = doc.context;
  run.suite = doc.suite;
  run.start_time = Text(context, "start_time");
  run.host = Text(context, "hostname");
  run.kernel = Text(context, "kernel");
  if (context.contains("kernels") && context["kernels"].is_array() && !context["kernels"].empty()) {
    // --kernels: the kernels under test, each in its guest (the rows carry each one's label)
    run.kernel.clear();
    for (const nlohmann::json& k : context["kernels"]) {
      if (!k.is_object()) continue;
      run.kernel += (run.kernel.empty() ? "" : ",") + k.value("release", std::string("?"));
    }
  }
  run.command_line = Text(context, "command_line");
  run.elevbench_version = Text(context, "elevbench_version");
  if (run.start_time.empty()) {
    for (const CellRecord& cell : doc.cells) {
      if (!cell.started_at.empty()) {
        run.start_time = cell.started_at;
        break;
      }
    }
  }
  if (run.start_time.empty()) {
    char digest[40];
    std::snprintf(digest, sizeof digest, "digest:%016" PRIx64, Fnv1a64(ResultsToJson(doc).dump()));
    run.start_time = digest;
  }
  const nlohmann::json target =
      context.is_object() && context.contains("target") ? context["target"] : nlohmann::json();
  run.target = TargetSummary(target);
  facts.target_json = target.is_null() ? "{}" : target.dump();
  uint32_t repetitions = 0;
  std::string ignored;
  // GetOptionalJsonField: a count past uint32_t is left out, not truncated.
  if (context.is_object() && GetOptionalJsonField(context, "repetitions", &repetitions, &ignored) &&
      repetitions > 0) {
    run.repetitions = repetitions;
  }
  run.results_path = AbsolutePath(results_path);
  run.complete = doc.complete;
  for (const CellRecord& cell : doc.cells) {
    if (cell.status == "ok") {
      ++run.cells_ok;
    } else if (cell.status == "interrupted") {
      ++run.cells_interrupted;
    } else {
      ++run.cells_failed;
    }
  }
  nlohmann::json configurations = nlohmann::json::array();
  const std::vector<std::string> order = IdentifierOrder(doc);
  for (size_t i = 0; i < order.size(); ++i) {
    std::string label = i < doc.labels.size() ? doc.labels[i] : "";
    std::string scheduler;
    for (const CellRecord& cell : doc.cells) {
      if (cell.identifier != order[i]) continue;
      scheduler = cell.scheduler;
      if (label.empty()) label = cell.label;
      break;
    }
    run.configurations.push_back(label.empty() ? order[i] : label);
    configurations.push_back(
        {{"identifier", order[i]}, {"label", label}, {"scheduler", scheduler}});
  }
  facts.configurations_json = configurations.dump();
  return facts;
}

}  // namespace elevbench
