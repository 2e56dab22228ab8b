#include "harness/machine/io_controls.h"

#include <filesystem>
#include <map>
#include <set>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/device/scratch_device.h"
#include "harness/process/proc_cgroup.h"

namespace elevbench {
namespace {

constexpr const char* kIoCgroupRoot = "/sys/fs/cgroup";
constexpr int kClassRt = 1;
constexpr int kClassBe = 2;
constexpr int kClassIdle = 3;

// "idle", "be", "be:4", "rt", "rt:0" -> class and level; its code "idle", "be4", "rt0".
bool ParseClass(const std::string& text, RoleSetting* role, std::string* code) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string level = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (name == "idle" && colon == std::string::npos) {
    role->ioprio_class = kClassIdle;
  } else if (name == "be" || name == "rt") {
    role->ioprio_class = name == "be" ? kClassBe : kClassRt;
    if (colon != std::string::npos) {
      if (level.size() != 1 || level[0] < '0' || level[0] > '7') return false;
      role->ioprio_level = level[0] - '0';
    }
  } else {
    return false;
  }
  *code = name + (role->ioprio_level >= 0 ? level : "");
  return true;
}

// "10M" -> bytes per second; its code "10M" as written.
bool ParseRate(const std::string& text, RoleSetting* role, std::string* err) {
  std::string why;
  if (!ParseSizeBytes(text, &role->bytes_per_second, &why) || role->bytes_per_second == 0) {
    return Fail(err, "bad rate '" + text + "' (bytes/s, e.g. 10M)");
  }
  return true;
}

// "10ms", "500us", "1s" -> microseconds (> 0).
bool ParseLatency(const std::string& text, uint64_t* us) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9) return false;
  const uint64_t n = std::stoull(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  const uint64_t scale = unit == "us" ? 1 : unit == "ms" ? 1000 : unit == "s" ? 1000000 : 0;
  *us = n * scale;
  return *us > 0;
}

// One role's VALUE for `kind`, with its part of the code ("idle", "thr10M", "w100", "lat10ms").
bool ParseRoleValue(const std::string& kind, const std::string& value, RoleSetting* setting,
                    std::string* code, std::string* err) {
  if (kind == "ionice") {
    if (!ParseClass(value, setting, code)) {
      return Fail(err, "ionice: bad class '" + value + "' (idle, be, be:N, rt, rt:N; N 0-7)");
    }
  } else if (kind == "throttle") {
    if (!ParseRate(value, setting, err)) return Fail(err, "throttle: " + *err);
    *code = "thr" + value;
  } else if (kind == "iolatency") {
    if (!ParseLatency(value, &setting->latency_us)) {
      return Fail(err, "iolatency: bad target '" + value + "' (as 10ms or 500us)");
    }
    *code = "lat" + value;
  } else {  // weight, iocost
    const bool digits = !value.empty() && value.size() <= 4 &&
                        value.find_first_not_of("0123456789") == std::string::npos;
    setting->weight = digits ? static_cast<uint32_t>(std::stoul(value)) : 0;
    if (setting->weight < 1 || setting->weight > 1000) {
      return Fail(err, kind + ": bad weight '" + value + "' (1 to 1000)");
    }
    *code = "w" + value;
  }
  return true;
}

// iocost's own keys: model=auto|measure, qos=LAT; their part of the code.
bool ParseIoCostKey(const std::string& key, const std::string& value, IoCostSettings* settings,
                    std::string* code, std::string* err) {
  if (key == "model") {
    if (value != "auto" && value != "measure") {
      return Fail(err, "iocost: bad model '" + value + "' (auto or measure)");
    }
    settings->model = value;
    *code = value == "measure" ? "meas" : "";
    return true;
  }
  if (!ParseLatency(value, &settings->qos_latency_us)) {
    return Fail(err, "iocost: bad qos '" + value + "' (a latency target as 50ms)");
  }
  *code = "q" + value;
  return true;
}

// The settings of "ROLE=VALUE[,ROLE=VALUE]" for `kind` (and iocost's model= and qos=), with the
// control's code.
bool ParseRoles(const std::string& kind, const std::string& spec, IoControl* control,
                std::string* err) {
  std::set<std::string> seen;
  std::string code;
  std::string iocost_code;
  for (const std::string& part : SplitAndTrim(spec, ',')) {
    const size_t eq = part.find('=');
    const std::string role = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    const bool iocost_key = kind == "iocost" && (role == "model" || role == "qos");
    if (role != "load" && role != "probe" && !iocost_key) {
      return Fail(err, kind + ": '" + part + "' names no role (load=… or probe=…)" +
                           (kind == "iocost" ? " nor model=… or qos=…" : ""));
    }
    if (!seen.insert(role).second) return Fail(err, kind + ": " + role + " given twice");
    if (iocost_key) {
      std::string key_code;
      if (!ParseIoCostKey(role, value, &control->iocost, &key_code, err)) return false;
      if (!key_code.empty()) iocost_code += "-" + key_code;
      continue;
    }
    RoleSetting* setting = role == "load" ? &control->load : &control->probe;
    std::string part_code;
    if (!ParseRoleValue(kind, value, setting, &part_code, err)) return false;
    const std::string prefixed = (role == "probe" ? "p" : "") + part_code;
    code = role == "load" ? prefixed + (code.empty() ? "" : "-" + code)
                          : code + (code.empty() ? "" : "-") + prefixed;
  }
  if (kind == "iocost") {
    control->code = "iocost" + iocost_code + (code.empty() ? "" : "-" + code);
    return true;
  }
  if (seen.empty()) return Fail(err, kind + ": no role given (" + kind + ":load=…)");
  control->code = code;
  return true;
}

IoControl::Kind KindNamed(const std::string& kind) {
  if (kind == "ionice") return IoControl::Kind::kIonice;
  if (kind == "throttle") return IoControl::Kind::kThrottle;
  if (kind == "weight") return IoControl::Kind::kWeight;
  if (kind == "iocost") return IoControl::Kind::kIocost;
  if (kind == "iolatency") return IoControl::Kind::kIolatency;
  return IoControl::Kind::kNone;
}

bool HasIoWord(const std::string& text) {
  for (const std::string& w : SplitWords(text)) {
    if (w == "io") return true;
  }
  return false;
}

// A piece of the list that starts a control: a bare word, or a kind before its first '='.
bool StartsControl(const std::string& piece) {
  const size_t colon = piece.find(':');
  const size_t eq = piece.find('=');
  return eq == std::string::npos || (colon != std::string::npos && colon < eq);
}

}  // namespace

int RoleSetting::IoprioValue() const {
  if (ioprio_class == 0) return -1;
  const int level = ioprio_class == kClassIdle ? 0 : (ioprio_level < 0 ? 4 : ioprio_level);
  return ioprio_class << 13 | level;
}

bool ParseIoControl(std::string_view word, bool io_v2, IoControl* control, std::string* err) {
  const std::string text = TrimWhitespace(word);
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  IoControl c;
  c.text = text;
  if (kind == "none" && colon == std::string::npos) {
    *control = c;
    return true;
  }
  c.kind = KindNamed(kind);
  if (c.kind == IoControl::Kind::kNone) {
    return Fail(err, "unknown control '" + text +
                         "' (none, ionice:…, throttle:…, weight:…, iocost[:…], iolatency:…)");
  }
  if (colon == std::string::npos) {
    if (c.kind != IoControl::Kind::kIocost) {
      return Fail(err, kind + ": no role given (" + kind + ":load=…)");
    }
    c.code = "iocost";
  } else if (!ParseRoles(kind, text.substr(colon + 1), &c, err)) {
    return false;
  }
  // The words first, then the host: a bad value is named on any host (issue 57 §4.5: on
  // cgroup v1 weight:probe=2000 was refused for the host, hiding the bad weight).
  const bool needs_v2 = c.kind == IoControl::Kind::kWeight || c.kind == IoControl::Kind::kIocost ||
                        c.kind == IoControl::Kind::kIolatency;
  if (needs_v2 && !io_v2) {
    return Fail(err, kind + ": needs cgroup v2's io controller, which this host lacks");
  }
  *control = c;
  return true;
}

bool IoControl::EnablesIoCost(const std::string& scheduler) const {
  return kind == Kind::kIocost || (kind == Kind::kWeight && scheduler != "bfq");
}

std::string IoControl::NeededController(const std::string& scheduler) const {
  switch (kind) {
    case Kind::kThrottle:
      return "throttle";
    case Kind::kWeight:
      return scheduler == "bfq" ? "bfq-weight" : "iocost";
    case Kind::kIocost:
      return "iocost";
    case Kind::kIolatency:
      return "iolatency";
    default:
      return "";
  }
}

bool ParseIoControls(std::string_view list, bool io_v2, std::vector<IoControl>* controls,
                     std::string* err) {
  std::vector<std::string> words;
  for (const std::string& piece : SplitAndTrim(list, ',')) {
    if (piece.empty() && TrimWhitespace(list).empty()) continue;  // no --controls: none
    if (words.empty() || StartsControl(piece)) {
      words.push_back(piece);
    } else {
      words.back() += "," + piece;
    }
  }
  std::vector<IoControl> out;
  std::map<std::string, std::string> word_of_code;  // the first word of each control
  for (const std::string& w : words) {
    IoControl c;
    if (!ParseIoControl(w, io_v2, &c, err)) return Fail(err, "--controls: " + *err);
    const auto [it, added] = word_of_code.emplace(c.code, c.text);
    if (!added && it->second == c.text) {
      return Fail(err, "--controls: '" + c.text + "' is given twice");
    }
    // Two spellings of one control (issue 57 §4.6: iocost and iocost:model=auto, the default).
    if (!added) {
      return Fail(err, "--controls: '" + it->second + "' and '" + c.text +
                           "' are the same control (" + c.code + "): give one");
    }
    out.push_back(c);
  }
  if (out.empty()) {
    IoControl none;
    none.text = "none";
    out.push_back(none);
  }
  *controls = std::move(out);
  return true;
}

bool AnyControl(const std::vector<IoControl>& controls) {
  for (const IoControl& c : controls) {
    if (c.kind != IoControl::Kind::kNone) return true;
  }
  return false;
}

IoCgroupLayout DetectIoCgroupLayout(const Sysfs& sysfs, std::string_view proc_self_cgroup) {
  IoCgroupLayout layout;
  const std::string root = kIoCgroupRoot;
  std::string controllers, subtree, ignored;
  layout.io_v2_offered =
      sysfs.Read(root + "/cgroup.controllers", &controllers, &ignored) && HasIoWord(controllers);
  if (layout.io_v2_offered && sysfs.Read(root + "/cgroup.subtree_control", &subtree, &ignored) &&
      HasIoWord(subtree)) {
    layout.version = 2;
    layout.parent = root;  // a v2 cgroup holding processes cannot give its children controllers
    return layout;
  }
  std::error_code ec;
  const std::string blkio = root + "/blkio";
  if (!std::filesystem::exists(sysfs.Map(blkio + "/blkio.throttle.read_bps_device"), ec)) {
    return layout;
  }
  std::string self = "/";
  if (!CgroupPathOf(proc_self_cgroup, "blkio", &self)) self = "/";
  layout.version = 1;
  layout.parent = self == "/" || self.empty() ? blkio : blkio + self;
  if (!std::filesystem::is_directory(sysfs.Map(layout.parent), ec)) layout.parent = blkio;
  return layout;
}

bool CheckIoControlsOffered(const std::vector<IoControl>& controls, const IoCgroupLayout& layout,
                            bool io_v2_offered, bool io_cost_offered, std::string* err) {
  const std::string not_enabled =
      io_v2_offered ? ", not enabled in the root's cgroup.subtree_control" : "";
  for (const IoControl& c : controls) {
    if (c.kind == IoControl::Kind::kThrottle && layout.version == 0) {
      return Fail(err, "--controls " + c.text +
                           ": needs blk-throttle (cgroup v1 blkio.throttle.* or cgroup v2's io "
                           "controller" +
                           not_enabled + "), which this host lacks");
    }
    const bool v2_only = c.NeedsCgroups() && c.kind != IoControl::Kind::kThrottle;
    if (v2_only && layout.version != 2) {
      return Fail(err, "--controls " + c.text + ": needs cgroup v2's io controller" + not_enabled +
                           ", which this host lacks");
    }
    const bool needs_iocost =
        c.kind == IoControl::Kind::kIocost || c.kind == IoControl::Kind::kWeight;
    if (needs_iocost && !io_cost_offered) {
      return Fail(err, "--controls " + c.text +
                           ": needs io.cost (CONFIG_BLK_CGROUP_IOCOST: the root's io.cost.qos), "
                           "which this kernel lacks");
    }
  }
  return true;
}

std::string ControlledLabel(const std::string& label, const IoControl& control) {
  return control.code.empty() ? label : label + "+" + control.code;
}

std::string ControlledIdentifier(const std::string& identifier, const IoControl& control) {
  return control.code.empty() ? identifier : identifier + "-" + Lowercase(control.code);
}

}  // namespace elevbench
