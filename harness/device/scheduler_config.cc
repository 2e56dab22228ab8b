#include "harness/device/scheduler_config.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace elevbench {
namespace {

bool IsName(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

bool IsValue(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == '+';
  });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

// A table code: like a name, upper case allowed.
bool IsCode(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

// Parses "name=value" with the shared rules; `context` is quoted in messages.
bool ParseAssignment(std::string_view text, std::string_view context,
                     std::pair<std::string, std::string>* out, std::string* err) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || text.find('=', eq + 1) != std::string_view::npos) {
    *err = "bad setting " + Quote(text) + " in " + Quote(context) + " (want name=value)";
    return false;
  }
  std::string_view name = text.substr(0, eq);
  std::string_view value = text.substr(eq + 1);
  if (!IsName(name)) {
    *err = "bad name " + Quote(name) + " in " + Quote(context) + " (use only [a-z0-9_-])";
    return false;
  }
  if (!IsValue(value)) {
    *err = "bad value " + Quote(value) + " for " + std::string(name) + " in " + Quote(context);
    return false;
  }
  *out = {std::string(name), std::string(value)};
  return true;
}

bool ParseItem(std::string_view item, SchedulerConfig* config, std::string* err) {
  std::vector<std::string_view> at = Split(item, '@');
  if (at.size() > 2) {
    *err = "more than one '@' in " + Quote(item);
    return false;
  }
  if (at.size() == 2) {
    // Codes are table labels: "@AS" prints "AS" in the nickbench/probe rows as in the seeds.
    if (!IsCode(at[1])) {
      *err = "bad code " + Quote(at[1]) + " in " + Quote(item) + " (use only [A-Za-z0-9_-])";
      return false;
    }
    config->code_override = std::string(at[1]);
  }
  std::vector<std::string_view> parts = Split(at[0], ':');
  if (!IsName(parts[0])) {
    *err =
        "bad scheduler name " + Quote(parts[0]) + " in " + Quote(item) + " (use only [a-z0-9_-])";
    return false;
  }
  config->scheduler = std::string(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    std::pair<std::string, std::string> tunable;
    if (!ParseAssignment(parts[i], item, &tunable, err)) return false;
    for (const auto& seen : config->tunables) {
      if (seen.first == tunable.first) {
        *err = "tunable " + tunable.first + " given twice in " + Quote(item);
        return false;
      }
    }
    config->tunables.push_back(std::move(tunable));
  }
  if (config->scheduler == "none" && !config->tunables.empty()) {
    *err = "scheduler none has no tunables: " + Quote(item);
    return false;
  }
  return true;
}

}  // namespace

bool ParseSchedulerList(std::string_view list, std::vector<SchedulerConfig>* out,
                        std::string* err) {
  out->clear();
  if (Trim(list).empty()) {
    *err = "empty scheduler list";
    return false;
  }
  std::vector<std::string_view> items = Split(list, ',');
  for (size_t i = 0; i < items.size(); ++i) {
    std::string_view item = Trim(items[i]);
    if (item.empty()) {
      *err = "empty item " + std::to_string(i + 1) + " in scheduler list " + Quote(list);
      return false;
    }
    SchedulerConfig config;
    if (!ParseItem(item, &config, err)) return false;
    std::string code = ShortCode(config);
    for (const SchedulerConfig& other : *out) {
      if (ShortCode(other) == code) {
        *err = Quote(item) + " repeats code " + Quote(code) + " of " + Quote(DisplayName(other)) +
               "; drop it or add @<code>";
        return false;
      }
    }
    out->push_back(std::move(config));
  }
  return true;
}

std::vector<SchedulerConfig> ExpandAll(const std::vector<std::string>& available) {
  std::vector<SchedulerConfig> out;
  for (const std::string& name : available) out.push_back({name, {}, ""});
  return out;
}

std::string ShortCode(const SchedulerConfig& config) {
  if (!config.code_override.empty()) return config.code_override;
  std::string code = config.scheduler;
  if (code == "mq-deadline") code = "dl";
  if (code == "kyber") code = "ky";
  for (const auto& [name, value] : config.tunables) {
    code += '-';
    bool word_start = true;
    for (char c : name) {
      if (c == '_' || c == '-') {
        word_start = true;
      } else if (word_start) {
        code += c;
        word_start = false;
      }
    }
    code += value;
  }
  return code;
}

std::string DisplayName(const SchedulerConfig& config) {
  std::string name = config.scheduler;
  for (const auto& [tunable, value] : config.tunables) name += ":" + tunable + "=" + value;
  return name;
}

bool ParseQueueAttrs(std::string_view list, std::vector<std::pair<std::string, std::string>>* out,
                     std::string* err) {
  out->clear();
  if (Trim(list).empty()) return true;
  std::vector<std::string_view> items = Split(list, ',');
  for (size_t i = 0; i < items.size(); ++i) {
    std::string_view item = Trim(items[i]);
    if (item.empty()) {
      *err = "empty item " + std::to_string(i + 1) + " in queue attributes " + Quote(list);
      return false;
    }
    std::pair<std::string, std::string> attr;
    if (!ParseAssignment(item, list, &attr, err)) return false;
    if (attr.first == "scheduler") {
      *err = "set the scheduler with the scheduler list, not as a queue attribute";
      return false;
    }
    for (const auto& seen : *out) {
      if (seen.first == attr.first) {
        *err = "queue attribute " + attr.first + " given twice";
        return false;
      }
    }
    out->push_back(std::move(attr));
  }
  return true;
}

namespace {

// A whole-number setting and the values it takes: a queue/ file (block/blk-sysfs.c) or a
// scheduler tunable (queue/iosched/, Linux 6.x).
struct WholeNumberRange {
  const char* name;
  long long min;
  long long max;  // -1: no upper bound
};

constexpr long long kIntMax = 2147483647;
constexpr long long kIntMin = -kIntMax - 1;

// The tunables of Linux 6.x's own schedulers and the values each keeps as given: mq-deadline
// clamps to these ranges (block/mq-deadline.c STORE_INT/STORE_JIFFIES), bfq clamps or refuses
// (bfq-iosched.c; kstrtoul refuses a sign), kyber takes any u64 (kyber-iosched.c). A value
// outside them would be changed or refused by the kernel, so a row's label would not say what ran.
const std::map<std::string, std::vector<WholeNumberRange>>& SchedulerTunables() {
  static const std::map<std::string, std::vector<WholeNumberRange>> kTunables = {
      {"none", {}},
      {"mq-deadline",
       {{"read_expire", 0, kIntMax},
        {"write_expire", 0, kIntMax},
        {"writes_starved", kIntMin, kIntMax},
        {"front_merges", 0, 1},
        {"async_depth", 1, kIntMax},
        {"fifo_batch", 0, kIntMax},
        {"prio_aging_expire", 0, kIntMax}}},
      {"kyber", {{"read_lat_nsec", 0, -1}, {"write_lat_nsec", 0, -1}}},
      {"bfq",
       {{"fifo_expire_sync", 1, kIntMax},
        {"fifo_expire_async", 1, kIntMax},
        {"back_seek_max", 0, kIntMax},
        {"back_seek_penalty", 1, kIntMax},
        {"slice_idle", 0, kIntMax},
        {"slice_idle_us", 0, kIntMax},
        {"max_budget", 0, kIntMax},
        {"timeout_sync", 1, kIntMax},
        {"strict_guarantees", 0, 1},
        {"low_latency", 0, 1}}},
  };
  return kTunables;
}

// The range's words: "0 or 1", "0 to 2", "1 or more".
std::string RangeText(const WholeNumberRange& r) {
  if (r.max < 0) return std::to_string(r.min) + " or more";
  if (r.max == r.min + 1) return std::to_string(r.min) + " or " + std::to_string(r.max);
  return std::to_string(r.min) + " to " + std::to_string(r.max);
}

// True when `value` is a decimal whole number (an optional '-' then digits) within `r`.
bool IsWholeNumberIn(const std::string& value, const WholeNumberRange& r) {
  const size_t digits_from = !value.empty() && value[0] == '-' ? 1 : 0;
  if (value.size() == digits_from || value.size() > 18) return false;
  if (!std::all_of(value.begin() + static_cast<long>(digits_from), value.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const long long n = std::stoll(value);
  return n >= r.min && (r.max < 0 || n <= r.max);
}

std::string JoinNames(const std::vector<WholeNumberRange>& ranges) {
  std::string out;
  for (const WholeNumberRange& r : ranges) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

// Refuses a tunable `scheduler` does not have, or a value its kernel would not keep as given.
bool CheckTunables(const SchedulerConfig& c, const std::vector<WholeNumberRange>& known,
                   std::string* err) {
  for (const auto& tunable : c.tunables) {
    const std::string& name = tunable.first;
    const std::string& value = tunable.second;
    const auto range = std::find_if(known.begin(), known.end(),
                                    [&name](const WholeNumberRange& r) { return name == r.name; });
    if (range == known.end()) {
      *err = c.scheduler + " has no tunable '" + name + "' (" + JoinNames(known) + ")";
      return false;
    }
    if (!IsWholeNumberIn(value, *range)) {
      *err = c.scheduler + ":" + name + "=" + value + ": expected a whole number, " +
             RangeText(*range);
      return false;
    }
  }
  return true;
}

}  // namespace

bool CheckSchedulersExist(const std::vector<SchedulerConfig>& configs,
                          const std::vector<std::string>& kernel_schedulers, std::string* err) {
  const auto& tunables = SchedulerTunables();
  for (const SchedulerConfig& c : configs) {
    if (!kernel_schedulers.empty() && std::find(kernel_schedulers.begin(), kernel_schedulers.end(),
                                                c.scheduler) == kernel_schedulers.end()) {
      // One of Linux's own that this kernel was built without (no module either), or a typo.
      std::string offered;
      for (const std::string& n : kernel_schedulers) offered += (offered.empty() ? "" : ", ") + n;
      *err =
          (tunables.count(c.scheduler) ? "this kernel has no scheduler '" : "unknown scheduler '") +
          c.scheduler + "' (it offers " + offered + ")";
      return false;
    }
    const auto known = tunables.find(c.scheduler);
    if (known != tunables.end() && !CheckTunables(c, known->second, err)) return false;
  }
  return true;
}

namespace {

constexpr WholeNumberRange kQueueAttrRanges[] = {
    {"add_random", 0, 1},      {"discard_max_bytes", 0, -1}, {"io_poll", 0, 1},
    {"io_poll_delay", -1, -1}, {"io_timeout", 1, -1},        {"iostats", 0, 1},
    {"max_sectors_kb", 1, -1}, {"nomerges", 0, 2},           {"nr_requests", 1, -1},
    {"read_ahead_kb", 0, -1},  {"rotational", 0, 1},         {"rq_affinity", 0, 2},
    {"stable_writes", 0, 1},   {"wbt_lat_usec", -1, -1},
};

}  // namespace

bool CheckQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                     std::string* err) {
  for (const auto& [name, value] : attrs) {
    const WholeNumberRange* range = nullptr;
    std::string names;
    for (const WholeNumberRange& r : kQueueAttrRanges) {
      if (name == r.name) range = &r;
      names += (names.empty() ? "" : ", ") + std::string(r.name);
    }
    if (range == nullptr) {
      *err = "no queue attribute '" + name + "' to set (attributes: " + names + ")";
      return false;
    }
    if (!IsWholeNumberIn(value, *range)) {
      *err = name + "=" + value + ": expected a whole number, " + RangeText(*range);
      return false;
    }
  }
  return true;
}

}  // namespace elevbench
