#include "scenarios/composite/composite_suite.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <deque>
#include <set>
#include <sstream>

namespace elevbench {
namespace {

using nlohmann::json;

struct LivePart {
  CompositePart spec;
  PartSuite entry;
  std::unique_ptr<Suite> suite;
  bool set_up = false;
};

class CompositeSuite : public Suite {
 public:
  CompositeSuite(std::string name, std::vector<CompositePart> parts, PartSuiteLookup lookup,
                 json extra, std::vector<CompositeFlag> flags)
      : name_(std::move(name)),
        all_parts_(std::move(parts)),
        lookup_(lookup),
        extra_(std::move(extra)),
        flags_(std::move(flags)),
        flag_values_(flags_.size(), false) {}

  void AddOptions(CLI::App* cmd) override {
    std::string names;
    for (const CompositePart& p : all_parts_) names += (names.empty() ? "" : ",") + p.suite;
    cmd->add_option("--parts", parts_text_,
                    "Parts to run, comma separated (default: " + names + ")")
        ->type_name("LIST");
    cmd->add_option("--part-args", part_args_,
                    "SUITE=ARGS: run that part with these options instead of its defaults "
                    "(repeatable, once a part), e.g. --part-args 'tiobench=--size 256 --threads 1'")
        ->type_name("SUITE=ARGS")
        ->allow_extra_args(false);
    for (size_t i = 0; i < flags_.size(); ++i) {
      cmd->add_flag(flags_[i].option, flag_values_[i], flags_[i].help);
    }
  }

  bool Prepare(const MachineInfo& machine, std::string* err) override {
    std::vector<CompositePart> chosen = all_parts_;
    if (!parts_text_.empty() && !Choose(&chosen, err)) return false;
    std::set<std::string> given;  // #45, fourth pass: a second --part-args dropped the first
    for (const std::string& a : part_args_) {
      const size_t eq = a.find('=');
      auto it = std::find_if(chosen.begin(), chosen.end(), [&](const CompositePart& p) {
        return eq != std::string::npos && a.compare(0, eq, p.suite) == 0 && eq == p.suite.size();
      });
      if (it == chosen.end()) {
        const std::string part = eq == std::string::npos ? a : a.substr(0, eq);
        const bool a_part = std::any_of(all_parts_.begin(), all_parts_.end(),
                                        [&](const CompositePart& p) { return p.suite == part; });
        *err = a_part ? "--part-args: " + part + " is not among the --parts chosen (" +
                            parts_text_ + ")"
                      : "--part-args: '" + a + "' does not name a part of " + name_ +
                            " (SUITE=ARGS; parts: " + PartNames() + ")";
        return false;
      }
      if (!given.insert(it->suite).second) {
        *err = "--part-args: " + it->suite + " is given twice (give all its options in one)";
        return false;
      }
      it->arguments = a.substr(eq + 1);
    }
    parts_.clear();
    for (const CompositePart& p : chosen) {
      LivePart live;
      live.spec = p;
      if (!lookup_(p.suite, &live.entry) || live.entry.make == nullptr) {
        *err = name_ + ": part '" + p.suite + "' is not a suite of this build";
        return false;
      }
      live.suite = live.entry.make();
      CLI::App app;
      live.suite->AddOptions(&app);
      try {
        app.parse(p.arguments, false);
      } catch (const CLI::ParseError& e) {
        *err = name_ + ": part " + p.suite + " '" + p.arguments + "': " + e.what();
        return false;
      }
      if (!live.suite->Prepare(machine, err)) {
        *err = name_ + ": part " + p.suite + ": " + *err;
        return false;
      }
      parts_.push_back(std::move(live));
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    // The parts' files live side by side: one part's set-up stays until the run ends.
    uint64_t total = 0;
    for (const LivePart& p : parts_) total += p.suite->BytesNeeded();
    return total;
  }

  // The parts' (known once Prepare made them), each named as --part-args gave it.
  std::vector<HostPathUse> HostPaths() const override {
    std::vector<HostPathUse> uses;
    for (const LivePart& p : parts_) {
      for (HostPathUse use : p.suite->HostPaths()) {
        use.flag = "--part-args " + p.spec.suite + "=" + use.flag;
        uses.push_back(std::move(use));
      }
    }
    return uses;
  }

  json Parameters() const override {
    json names = json::array();
    json each = json::object();
    json arguments = json::object();
    for (const LivePart& p : parts_) {
      names.push_back(p.spec.suite);
      each[p.spec.suite] = p.suite->Parameters();
      arguments[p.spec.suite] = p.spec.arguments;
    }
    json params = extra_;
    for (size_t i = 0; i < flags_.size(); ++i) params[flags_[i].parameter] = flag_values_[i];
    params["parts"] = names;
    params["part_arguments"] = arguments;
    params["part_parameters"] = each;
    return params;
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (const LivePart& p : parts_) {
      for (SuiteVariant v : p.suite->Variants()) {
        v.label = p.spec.suite + " " + v.label;
        json key = v.key;
        key["part"] = p.spec.suite;
        v.key = key;
        variants.push_back(std::move(v));
      }
    }
    return variants;
  }

  bool VariantTakesLanes(const SuiteVariant& variant, int cpus_per_lane) const override {
    // A part takes lanes in the composite as it does on its own (the table's lane_cpus), and
    // only if a lane has the CPUs it needs; the others' cells run alone (docs/lanes.md).
    for (const LivePart& p : parts_) {
      if (p.spec.suite != variant.key.value("part", std::string())) continue;
      return p.entry.lane_cpus > 0 && p.entry.lane_cpus <= cpus_per_lane;
    }
    return false;
  }

  bool SetUp(const CellEnvironment& env, json* setup, std::string* err) override {
    *setup = json::object();
    size_t first_variant = 0;
    for (LivePart& p : parts_) {
      // A session of some lanes' cells sets up only the parts it runs cells of.
      const size_t count = p.suite->Variants().size();
      const bool runs =
          env.runs_variant.size() < first_variant + count ||
          std::any_of(env.runs_variant.begin() + first_variant,
                      env.runs_variant.begin() + first_variant + count, [](bool b) { return b; });
      first_variant += count;
      if (!runs) continue;
      json part_setup;
      CellEnvironment part_env = env;
      part_env.label_prefix = env.label_prefix + p.spec.suite + "-";
      p.set_up = true;  // TearDown undoes a half-done set-up too
      if (!p.suite->SetUp(part_env, &part_setup, err)) {
        *err = p.spec.suite + ": " + *err;
        return false;
      }
      (*setup)[p.spec.suite] = part_setup;
    }
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env, std::vector<json>* records,
               std::string* err) override {
    const std::string part = variant.key.value("part", std::string());
    LivePart* live = Find(part);
    if (live == nullptr) {
      *err = "no part '" + part + "' in " + name_;
      return false;
    }
    SuiteVariant inner = variant;
    inner.key.erase("part");
    inner.label = variant.label.substr(std::min(variant.label.size(), part.size() + 1));
    std::vector<json> part_records;
    const bool ok = live->suite->RunCell(inner, env, &part_records, err);
    for (json& r : part_records) {
      r["part"] = part;
      records->push_back(std::move(r));
    }
    if (!ok) *err = part + ": " + *err;
    return ok;
  }

  void TearDown(const CellEnvironment& env) override {
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it) {
      if (it->set_up) it->suite->TearDown(env);
      it->set_up = false;
    }
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    std::string policy;
    for (const LivePart& p : parts_) {
      policy += (policy.empty() ? "" : "; ") + p.spec.suite + ": " + p.suite->CachePolicy("");
    }
    return policy + global_drop;
  }

  json Summarize(const ResultsDocument& doc) const override {
    json summary = json::object();
    for (const LivePart& p : parts_) {
      summary[p.spec.suite] = p.suite->Summarize(PartDocument(doc, p.spec.suite));
    }
    return summary;
  }

 private:
  // "tiobench, nickbench, …": every part, for the messages that name them.
  std::string PartNames() const {
    std::string names;
    for (const CompositePart& p : all_parts_) names += (names.empty() ? "" : ", ") + p.suite;
    return names;
  }

  bool Choose(std::vector<CompositePart>* chosen, std::string* err) const {
    std::vector<std::string> wanted;
    std::stringstream ss(parts_text_);
    std::string item;
    while (std::getline(ss, item, ',')) {
      const bool known = std::any_of(all_parts_.begin(), all_parts_.end(),
                                     [&](const CompositePart& p) { return p.suite == item; });
      if (!known) {
        *err =
            "--parts: '" + item + "' is not a part of " + name_ + " (parts: " + PartNames() + ")";
        return false;
      }
      if (std::find(wanted.begin(), wanted.end(), item) != wanted.end()) {
        *err = "--parts: '" + item + "' is listed twice";
        return false;
      }
      wanted.push_back(item);
    }
    if (wanted.empty()) {
      *err = "--parts needs at least one part";
      return false;
    }
    chosen->clear();
    for (const CompositePart& p : all_parts_) {
      if (std::find(wanted.begin(), wanted.end(), p.suite) != wanted.end()) chosen->push_back(p);
    }
    return true;
  }

  LivePart* Find(const std::string& part) {
    for (LivePart& p : parts_) {
      if (p.spec.suite == part) return &p;
    }
    return nullptr;
  }

  std::string name_;
  std::vector<CompositePart> all_parts_;
  PartSuiteLookup lookup_;
  json extra_;
  std::vector<CompositeFlag> flags_;
  std::deque<bool> flag_values_;  // CLI11 binds to bool&; a deque keeps them addressable
  std::string parts_text_;
  std::vector<std::string> part_args_;
  std::vector<LivePart> parts_;
};

}  // namespace

std::unique_ptr<Suite> MakeCompositeSuite(std::string name, std::vector<CompositePart> parts,
                                          PartSuiteLookup lookup, json extra_parameters,
                                          std::vector<CompositeFlag> flags) {
  return std::make_unique<CompositeSuite>(std::move(name), std::move(parts), lookup,
                                          std::move(extra_parameters), std::move(flags));
}

std::vector<std::string> CompositeParts(const ResultsDocument& doc) {
  std::vector<std::string> parts;
  const json& names = doc.parameters.is_object() && doc.parameters.contains("parts")
                          ? doc.parameters["parts"]
                          : json();
  if (!names.is_array()) return parts;
  for (const json& n : names) {
    if (n.is_string()) parts.push_back(n.get<std::string>());
  }
  return parts;
}

ResultsDocument PartDocument(const ResultsDocument& doc, const std::string& part) {
  ResultsDocument out;
  out.suite = part;
  out.identifiers = doc.identifiers;
  out.labels = doc.labels;
  out.complete = doc.complete;
  if (doc.context.is_object() && doc.context.contains("repetitions")) {
    out.context["repetitions"] = doc.context["repetitions"];
  }
  auto member = [&](const json& j) { return j.is_object() && j.contains(part) ? j[part] : json(); };
  out.parameters = doc.parameters.is_object() && doc.parameters.contains("part_parameters")
                       ? member(doc.parameters["part_parameters"])
                       : json();
  if (out.parameters.is_null()) out.parameters = json::object();
  out.setup = member(doc.setup);
  out.summary = member(doc.summary);
  if (out.summary.is_null()) out.summary = json::array();
  for (const CellRecord& c : doc.cells) {
    if (!c.variant.is_object() || c.variant.value("part", std::string()) != part) continue;
    CellRecord cell = c;
    cell.variant.erase("part");
    out.cells.push_back(std::move(cell));
  }
  for (const json& r : doc.records) {
    if (!r.is_object() || r.value("part", std::string()) != part) continue;
    json record = r;
    record.erase("part");
    out.records.push_back(std::move(record));
  }
  return out;
}

bool CompositeMeasurements(const ResultsDocument& doc, PartSuiteLookup lookup,
                           std::vector<Measurement>* out, std::string* err) {
  for (const std::string& part : CompositeParts(doc)) {
    PartSuite entry;
    if (!lookup(part, &entry) || entry.measure == nullptr) {
      *err = "part '" + part + "' is not a suite of this build";
      return false;
    }
    if (!entry.measure(PartDocument(doc, part), out, err)) {
      *err = part + ": " + *err;
      return false;
    }
  }
  return true;
}

}  // namespace elevbench
