#include "harness/run/shard.h"

#include <algorithm>
#include <map>
#include <optional>

#include "harness/core/error.h"
#include "harness/run/lanes.h"

namespace elevbench {
namespace {

// A whole number of at most 5 digits, or none.
std::optional<uint32_t> ShardNumberOf(const std::string& text) {
  if (text.empty() || text.size() > 5 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(std::stoul(text));
}

// The shard's block of a document's context, or null.
const nlohmann::json* ShardBlockOf(const ResultsDocument& doc) {
  const auto it = doc.context.find("shard");
  if (it == doc.context.end() || !it->is_object()) return nullptr;
  for (const char* key : {"index", "count"}) {
    const nlohmann::json n = it->value(key, nlohmann::json());
    if (!n.is_number_integer() || n.get<int64_t>() < 0 || n.get<int64_t>() > 100000) return nullptr;
  }
  return &*it;
}

// A member of the context as compact JSON ("none" when absent), for the comparisons' words.
std::string ContextWords(const ResultsDocument& doc, const char* key) {
  const auto it = doc.context.find(key);
  return it == doc.context.end() ? "none" : it->dump();
}

// What a shard's target must share with the other shards': its kind, the emulated disk's
// profile and size, the filesystem. Not where it is (a loop device's number, a mount point,
// another box's device name): each box makes its own.
nlohmann::json TargetOfThePlan(const ResultsDocument& doc) {
  const nlohmann::json target = doc.context.value("target", nlohmann::json::object());
  nlohmann::json kept = nlohmann::json::object();
  if (!target.is_object()) return kept;
  for (const char* key : {"kind", "profile", "size_bytes"}) {
    if (target.contains(key)) kept[key] = target[key];
  }
  kept["filesystem"] = doc.context.value("filesystem", nlohmann::json());
  return kept;
}

// A target in a few words: "emulated ide-2003 4096 MiB ext2".
std::string TargetWords(const ResultsDocument& doc) {
  const nlohmann::json t = TargetOfThePlan(doc);
  std::string words = t.value("kind", std::string("unknown"));
  if (t.contains("profile") && t["profile"].is_object()) {
    words += " " + t["profile"].value("name", std::string("?"));
  }
  if (t.contains("size_bytes") && t["size_bytes"].is_number_unsigned()) {
    words += " " + std::to_string(t["size_bytes"].get<uint64_t>() >> 20) + " MiB";
  }
  if (t["filesystem"].is_string() && !t["filesystem"].get<std::string>().empty()) {
    words += " " + t["filesystem"].get<std::string>();
  }
  return words;
}

// What differs between two documents that must be shards of one plan; empty when nothing does.
std::string ShardMismatch(const ResultsDocument& a, const ResultsDocument& b) {
  if (a.suite != b.suite) return "their suites differ (" + a.suite + " and " + b.suite + ")";
  for (const char* key : {"elevbench_version", "seed", "repetitions", "variants"}) {
    if (ContextWords(a, key) != ContextWords(b, key)) {
      return std::string("their ") +
             (std::string(key) == "elevbench_version" ? "elevbench versions"
              : std::string(key) == "seed"            ? "seeds"
                                                      : key) +
             " differ (" + ContextWords(a, key) + " and " + ContextWords(b, key) + ")";
    }
  }
  if (a.context["shard"]["count"] != b.context["shard"]["count"]) {
    return "they cut the plan into different numbers of shards (" +
           a.context["shard"]["count"].dump() + " and " + b.context["shard"]["count"].dump() + ")";
  }
  if (ParametersOfWhatWasMeasured(a.parameters) != ParametersOfWhatWasMeasured(b.parameters)) {
    return "their " + a.suite + " parameters differ";
  }
  if (TargetOfThePlan(a) != TargetOfThePlan(b)) {
    return "their targets differ (" + TargetWords(a) + " and " + TargetWords(b) + ")";
  }
  if (a.identifiers != b.identifiers || a.labels != b.labels) {
    return "their configurations differ (another --schedulers, or another kernel's identifiers)";
  }
  return "";
}

// Each shard once, 1 to N: the documents in shard order, or err naming a shard given twice or
// missing.
bool OrderShards(const std::vector<ResultsDocument>& shards, const std::vector<std::string>& names,
                 std::vector<size_t>* order, std::string* err) {
  const uint32_t count = shards.front().context["shard"]["count"].get<uint32_t>();
  std::map<uint32_t, size_t> by_index;
  for (size_t k = 0; k < shards.size(); ++k) {
    const uint32_t index = shards[k].context["shard"]["index"].get<uint32_t>();
    const std::string text = std::to_string(index) + "/" + std::to_string(count);
    if (index < 1 || index > count) return Fail(err, names[k] + ": shard " + text + " is no shard");
    const auto [it, fresh] = by_index.emplace(index, k);
    if (!fresh) {
      return Fail(err, "shard " + text + " is given twice (" + names[it->second] + " and " +
                           names[k] + ")");
    }
  }
  std::vector<std::string> missing;
  for (uint32_t i = 1; i <= count; ++i) {
    if (by_index.count(i) == 0) missing.push_back(std::to_string(i) + "/" + std::to_string(count));
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t m = 0; m < missing.size() && m < 5; ++m) list += (m == 0 ? "" : ", ") + missing[m];
    if (missing.size() > 5) list += " and " + std::to_string(missing.size() - 5) + " more";
    return Fail(err, (missing.size() == 1 ? "shard " : "shards ") + list +
                         (missing.size() == 1 ? " is missing" : " are missing"));
  }
  order->clear();
  for (const auto& [index, k] : by_index) order->push_back(k);
  return true;
}

// No cell of the plan in two shards' files, none beyond the plan (an edited or renamed file).
// The cells of a --kernels guest that gave no results never started and hold no place.
bool EachCellOnce(const std::vector<ResultsDocument>& shards, const std::vector<std::string>& names,
                  std::string* err) {
  const uint64_t plan_cells = shards.front().context["shard"].value("plan_cells", uint64_t{0});
  std::map<size_t, size_t> owner;  // plan index → the shard's file
  for (size_t k = 0; k < shards.size(); ++k) {
    for (const CellRecord& c : shards[k].cells) {
      if (c.started_at.empty()) continue;  // a guest's cells that never ran hold no place
      if (plan_cells > 0 && c.plan_index >= plan_cells) {
        return Fail(err, names[k] + ": cell " + std::to_string(c.plan_index + 1) +
                             " is beyond the plan's " + std::to_string(plan_cells));
      }
      const auto [it, fresh] = owner.emplace(c.plan_index, k);
      if (!fresh) {
        return Fail(err, names[it->second] + " and " + names[k] + " both have cell " +
                             std::to_string(c.plan_index + 1) + " of the plan");
      }
    }
  }
  return true;
}

// The merged context: shard 1's, for the whole plan, with every shard's own kept.
nlohmann::json MergedShardContext(const std::vector<const ResultsDocument*>& docs,
                                  const std::vector<std::string>& names) {
  nlohmann::json context = docs.front()->context;
  context.erase("shard");
  context["command_line"] = CommandLineWithoutShard(context.value("command_line", std::string()));
  std::string hosts;
  std::vector<std::string> seen;
  nlohmann::json shards = nlohmann::json::array();
  for (size_t k = 0; k < docs.size(); ++k) {
    const nlohmann::json& c = docs[k]->context;
    const std::string host = c.value("hostname", std::string());
    if (std::find(seen.begin(), seen.end(), host) == seen.end()) {
      seen.push_back(host);
      hosts += (hosts.empty() ? "" : ",") + host;
    }
    const std::string start = c.value("start_time", std::string());
    if (!start.empty() && start < context.value("start_time", start)) context["start_time"] = start;
    shards.push_back({{"shard", c["shard"]["index"]},
                      {"file", names[k]},
                      {"complete", docs[k]->complete},
                      {"context", c}});
  }
  context["hostname"] = hosts;
  context["shards"] = std::move(shards);
  return context;
}

}  // namespace

bool ParseShardOption(const std::string& text, ShardSpec* shard, std::string* err) {
  const size_t slash = text.find('/');
  const std::optional<uint32_t> index =
      slash == std::string::npos ? std::nullopt : ShardNumberOf(text.substr(0, slash));
  const std::optional<uint32_t> count =
      slash == std::string::npos ? std::nullopt : ShardNumberOf(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *count > 10000 || *index < 1 || *index > *count) {
    return Fail(err,
                "--shard: expected I/N, the I-th of N shards with 1 <= I <= N <= 10000, "
                "got '" +
                    text + "'");
  }
  *shard = ShardSpec{*index, *count};
  return true;
}

std::vector<size_t> DealPlanToShard(const std::vector<PlannedCell>& plan, const ShardSpec& shard) {
  if (!shard.given()) {
    std::vector<size_t> all(plan.size());
    for (size_t i = 0; i < plan.size(); ++i) all[i] = i;
    return all;
  }
  uint32_t repetitions = 0;
  for (const PlannedCell& c : plan) repetitions = std::max(repetitions, c.repetition + 1);
  const DealUnit unit = repetitions >= shard.count ? DealUnit::kRepetition : DealUnit::kBlock;
  LaneDeal deal = DealPlanToLanes(plan, shard.count, {}, unit);
  return std::move(deal.lanes[shard.index - 1]);
}

nlohmann::json ShardContextJson(const ShardSpec& shard, size_t cells, size_t plan_cells) {
  return {
      {"index", shard.index}, {"count", shard.count}, {"cells", cells}, {"plan_cells", plan_cells}};
}

std::string CommandLineWithoutShard(const std::string& command_line) {
  std::string out = command_line;
  for (const std::string flag : {"--shard=", "--shard "}) {
    const size_t at = out.find(flag);
    if (at == std::string::npos) continue;
    size_t end = out.find(' ', at + flag.size());
    end = end == std::string::npos ? out.size() : end;
    size_t begin = at;
    if (begin > 0 && out[begin - 1] == ' ') --begin;
    out.erase(begin, end - begin);
  }
  return out;
}

bool MergeShardDocuments(const std::vector<ResultsDocument>& shards,
                         const std::vector<std::string>& names, ResultsDocument* merged,
                         std::string* err) {
  if (shards.empty() || names.size() != shards.size()) return Fail(err, "no shards to merge");
  for (size_t k = 0; k < shards.size(); ++k) {
    if (ShardBlockOf(shards[k]) == nullptr) {
      return Fail(err,
                  names[k] + ": not a shard's results (no context.shard: run with --shard I/N)");
    }
    const std::string why = k == 0 ? "" : ShardMismatch(shards.front(), shards[k]);
    if (!why.empty()) {
      return Fail(err, names.front() + " and " + names[k] + " are not shards of one plan: " + why);
    }
  }
  std::vector<size_t> order;
  if (!OrderShards(shards, names, &order, err)) return false;
  if (!EachCellOnce(shards, names, err)) return false;
  std::vector<ResultsDocument> ordered;
  std::vector<const ResultsDocument*> docs;
  std::vector<std::string> ordered_names;
  for (size_t k : order) {
    ordered.push_back(shards[k]);
    docs.push_back(&shards[k]);
    ordered_names.push_back(names[k]);
  }
  merged->suite = shards.front().suite;
  merged->identifiers = shards.front().identifiers;
  merged->labels = shards.front().labels;
  if (!MergeLaneDocuments(ordered, merged, err)) {
    return Fail(err, "the shards' cells do not account for their records: " + *err);
  }
  merged->context = MergedShardContext(docs, ordered_names);
  return true;
}

}  // namespace elevbench
