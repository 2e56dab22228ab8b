#include "harness/machine/io_controls.h"

#include <filesystem>
#include <set>
#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/device/scratch_device.h"

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

// The settings of "ROLE=VALUE[,ROLE=VALUE]" for `kind`, with the control's code.
bool ParseRoles(const std::string& kind, const std::string& spec, IoControl* control,
                std::string* err) {
  std::set<std::string> seen;
  std::string code;
  for (const std::string& part : SplitAndTrim(spec, ',')) {
    const size_t eq = part.find('=');
    const std::string role = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (role != "load" && role != "probe") {
      return Fail(err, kind + ": '" + part + "' names no role (load=… or probe=…)");
    }
    if (!seen.insert(role).second) return Fail(err, kind + ": " + role + " given twice");
    RoleSetting* setting = role == "load" ? &control->load : &control->probe;
    std::string part_code;
    if (kind == "ionice") {
      if (!ParseClass(value, setting, &part_code)) {
        return Fail(err, "ionice: bad class '" + value + "' (idle, be, be:N, rt, rt:N; N 0-7)");
      }
    } else {
      if (!ParseRate(value, setting, err)) return Fail(err, "throttle: " + *err);
      part_code = "thr" + value;
    }
    const std::string prefixed = (role == "probe" ? "p" : "") + part_code;
    code = role == "load" ? prefixed + (code.empty() ? "" : "-" + code)
                          : code + (code.empty() ? "" : "-") + prefixed;
  }
  if (seen.empty()) return Fail(err, kind + ": no role given (" + kind + ":load=…)");
  control->code = code;
  return true;
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
  if (kind == "weight" || kind == "iocost" || kind == "iolatency") {
    return Fail(err, kind + ": " +
                         (io_v2 ? "not built yet (a later slice of #46)"
                                : "needs cgroup v2's io controller, which this host lacks"));
  }
  if (kind == "none" && colon == std::string::npos) {
    *control = c;
    return true;
  }
  if (kind != "ionice" && kind != "throttle") {
    return Fail(err, "unknown control '" + text + "' (none, ionice:…, throttle:…)");
  }
  c.kind = kind == "ionice" ? IoControl::Kind::kIonice : IoControl::Kind::kThrottle;
  if (colon == std::string::npos) return Fail(err, kind + ": no role given (" + kind + ":load=…)");
  if (!ParseRoles(kind, text.substr(colon + 1), &c, err)) return false;
  *control = c;
  return true;
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
  std::set<std::string> codes;
  for (const std::string& w : words) {
    IoControl c;
    if (!ParseIoControl(w, io_v2, &c, err)) return Fail(err, "--controls: " + *err);
    if (!codes.insert(c.code).second) {
      return Fail(err, "--controls: '" + w + "' is given twice");
    }
    out.push_back(c);
  }
  if (out.empty()) out.push_back(IoControl{IoControl::Kind::kNone, "none", "", {}, {}});
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
  if (sysfs.Read(root + "/cgroup.controllers", &controllers, &ignored) && HasIoWord(controllers) &&
      sysfs.Read(root + "/cgroup.subtree_control", &subtree, &ignored) && HasIoWord(subtree)) {
    layout.version = 2;
    layout.parent = root;  // a v2 cgroup holding processes cannot give its children controllers
    return layout;
  }
  std::error_code ec;
  const std::string blkio = root + "/blkio";
  if (!std::filesystem::exists(sysfs.Map(blkio + "/blkio.throttle.read_bps_device"), ec)) {
    return layout;
  }
  std::istringstream in{std::string(proc_self_cgroup)};
  std::string self = "/";
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    for (const std::string& name : SplitAndTrim(line.substr(first + 1, second - first - 1), ',')) {
      if (name == "blkio") self = line.substr(second + 1);
    }
  }
  layout.version = 1;
  layout.parent = self == "/" || self.empty() ? blkio : blkio + self;
  if (!std::filesystem::is_directory(sysfs.Map(layout.parent), ec)) layout.parent = blkio;
  return layout;
}

bool CheckIoControlsOffered(const std::vector<IoControl>& controls, const IoCgroupLayout& layout,
                            bool io_v2_offered, std::string* err) {
  for (const IoControl& c : controls) {
    if (c.NeedsCgroups() && layout.version == 0) {
      return Fail(err,
                  "--controls " + c.text +
                      ": needs blk-throttle (cgroup v1 blkio.throttle.* or cgroup v2's io "
                      "controller" +
                      (io_v2_offered ? ", not enabled in the root's cgroup.subtree_control" : "") +
                      "), which this host lacks");
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
