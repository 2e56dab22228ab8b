#include "harness/compare/compare_pairing.h"

#include <functional>
#include <iterator>
#include <map>
#include <optional>

#include "harness/core/strings.h"

namespace elevbench {

std::string JoinOrNone(const std::vector<std::string>& items) {
  return items.empty() ? "none" : JoinWith(items, ", ");
}

std::vector<ConfigurationRef> ConfigurationsOf(const std::vector<MetricRow>& rows) {
  std::vector<ConfigurationRef> configs;
  std::map<std::string, size_t> index;
  for (const MetricRow& r : rows) {
    auto [it, added] = index.emplace(r.identifier, configs.size());
    if (added) configs.push_back({r.identifier, r.label, r.scheduler});
    ConfigurationRef& c = configs[it->second];
    if (c.label.empty()) c.label = r.label;
  }
  return configs;
}

std::vector<std::string> IdentifiersOf(const std::vector<ConfigurationRef>& configs) {
  std::vector<std::string> ids;
  for (const ConfigurationRef& c : configs) ids.push_back(c.identifier);
  return ids;
}

namespace {

// The identifiers' common `<prefix>-` ("6.18.44-", "2.5.65-mm4-"): what the run put before each
// configuration's code. "" for fewer than two configurations or none in common.
std::string CommonIdentifierPrefix(const std::vector<ConfigurationRef>& configs) {
  if (configs.size() < 2) return "";
  std::string prefix = configs.front().identifier;
  for (const ConfigurationRef& c : configs) {
    size_t n = 0;
    while (n < prefix.size() && n < c.identifier.size() && prefix[n] == c.identifier[n]) ++n;
    prefix.resize(n);
  }
  const size_t dash = prefix.rfind('-');
  return dash == std::string::npos ? "" : prefix.substr(0, dash + 1);
}

// Whether `name` is the configuration's code, as the rows show it ("dl", "DL", "bfq-ll0" of
// 6.18.44-bfq-ll0), ignoring case: its identifier after the common prefix, or, without one, the
// identifier's end after a '-'.
bool IsCodeOf(const ConfigurationRef& c, const std::string& prefix, const std::string& name) {
  const std::string id = Lowercase(c.identifier), want = Lowercase(name);
  if (!prefix.empty()) return id == Lowercase(prefix) + want;
  return id.size() > want.size() && id.ends_with("-" + want);
}

// The one configuration `name` denotes: an identifier (ignoring case), else a label (ignoring
// case), else a code (IsCodeOf), else a scheduler string. err when none or several at the first
// level that matches any.
bool ResolveConfiguration(const std::string& name, const std::vector<ConfigurationRef>& configs,
                          const std::string& side, ConfigurationRef* out, std::string* err) {
  const std::string prefix = CommonIdentifierPrefix(configs);
  const std::function<bool(const ConfigurationRef&)> kLevels[] = {
      [&](const ConfigurationRef& c) { return Lowercase(c.identifier) == Lowercase(name); },
      [&](const ConfigurationRef& c) {
        return !c.label.empty() && Lowercase(c.label) == Lowercase(name);
      },
      [&](const ConfigurationRef& c) { return IsCodeOf(c, prefix, name); },
      [&](const ConfigurationRef& c) { return c.scheduler == name; },
  };
  const char* kLevelNames[] = {"identifier", "label", "code", "scheduler"};
  for (size_t level = 0; level < std::size(kLevels); ++level) {
    std::vector<const ConfigurationRef*> found;
    for (const ConfigurationRef& c : configs) {
      if (kLevels[level](c)) found.push_back(&c);
    }
    if (found.size() == 1) {
      *out = *found.front();
      return true;
    }
    if (found.size() > 1) {
      std::vector<std::string> ids;
      for (const ConfigurationRef* c : found) ids.push_back(c->identifier);
      *err = "--between: '" + name + "' is the " + kLevelNames[level] +
             " of several configurations in " + side + " (" + JoinOrNone(ids) +
             "); name one by its identifier";
      return false;
    }
  }
  *err = "--between: no configuration '" + name + "' in " + side +
         " (identifiers: " + JoinOrNone(IdentifiersOf(configs)) + ")";
  return false;
}

// Pairs the configurations of two documents: identifiers, then unique labels, then unique
// scheduler strings (docs/compare.md, "Matching").
void PairConfigurations(const std::vector<ConfigurationRef>& base,
                        const std::vector<ConfigurationRef>& next, Comparison* out) {
  std::vector<int> partner(base.size(), -1);  // index into next
  std::vector<bool> taken(next.size(), false);
  std::vector<MatchRule> rule(base.size(), MatchRule::kIdentifier);
  auto pass = [&](MatchRule r, auto key) {
    // Keys among the configurations still unpaired, counted per side: only unique ones pair.
    std::map<std::string, std::vector<size_t>> base_by_key, next_by_key;
    for (size_t i = 0; i < base.size(); ++i) {
      if (partner[i] < 0 && key(base[i])) base_by_key[*key(base[i])].push_back(i);
    }
    for (size_t j = 0; j < next.size(); ++j) {
      if (!taken[j] && key(next[j])) next_by_key[*key(next[j])].push_back(j);
    }
    for (const auto& [k, base_ids] : base_by_key) {
      auto it = next_by_key.find(k);
      if (it == next_by_key.end() || base_ids.size() != 1 || it->second.size() != 1) continue;
      partner[base_ids.front()] = static_cast<int>(it->second.front());
      taken[it->second.front()] = true;
      rule[base_ids.front()] = r;
    }
  };
  using Key = std::optional<std::string>;
  pass(MatchRule::kIdentifier, [](const ConfigurationRef& c) -> Key { return c.identifier; });
  pass(MatchRule::kLabel, [](const ConfigurationRef& c) -> Key {
    return c.label.empty() ? Key{} : Key{Lowercase(c.label)};
  });
  pass(MatchRule::kScheduler, [](const ConfigurationRef& c) -> Key { return c.scheduler; });
  for (size_t i = 0; i < base.size(); ++i) {
    if (partner[i] < 0) {
      out->unpaired_base.push_back(base[i]);
    } else {
      out->pairs.push_back({base[i], next[static_cast<size_t>(partner[i])], rule[i]});
    }
  }
  for (size_t j = 0; j < next.size(); ++j) {
    if (!taken[j]) out->unpaired_new.push_back(next[j]);
  }
}

}  // namespace

bool PairComparedConfigurations(const std::vector<MetricRow>& base_rows,
                                const std::vector<MetricRow>& new_rows,
                                const CompareSettings& settings,
                                const std::vector<ConfigurationRef>& base_configs,
                                const std::vector<ConfigurationRef>& new_configs, bool between,
                                Comparison* c, std::string* err) {
  if (!between) {
    PairConfigurations(base_configs, new_configs, c);
    return true;
  }
  ConfigurationPair pair;
  pair.rule = MatchRule::kBetween;
  if (!ResolveConfiguration(settings.between_base, base_configs, "the base", &pair.base, err) ||
      !ResolveConfiguration(settings.between_new, new_configs, "the new results", &pair.next,
                            err)) {
    return false;
  }
  if (&base_rows == &new_rows && pair.base.identifier == pair.next.identifier) {
    *err = "--between: '" + settings.between_base + "' and '" + settings.between_new +
           "' are the same configuration (" + pair.base.identifier + ")";
    return false;
  }
  c->pairs.push_back(pair);
  return true;
}

}  // namespace elevbench
