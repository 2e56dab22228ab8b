#pragma once
// Reading and writing sysfs/procfs attributes, with read-back verification.
//
// Every path handed to Sysfs is a *system path* as it appears on a real machine
// ("/sys/block/vda/queue/scheduler", "/proc/sys/vm/dirty_bytes"). Sysfs maps it under an
// injectable root, so the same code runs against the live kernel (root "/") and against a fake
// tree in a temporary directory (tests). Writes go through an optional hook so a test can model
// kernel behaviour that plain files cannot show, e.g. a write that succeeds but does not take.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// Splits a queue/scheduler line such as "none [mq-deadline] kyber bfq".
/// `available` receives every name in order (brackets removed); `current` the bracketed one.
/// A line without brackets is valid: bio-based devices (dm, md) print a bare "none" because they
/// have no elevator, and `current` is then empty. Fails on an empty line, more than one
/// bracketed name, or unbalanced brackets.
[[nodiscard]] bool ParseSchedulerLine(std::string_view line, std::vector<std::string>* available,
                                      std::string* current, std::string* err);

/// Attribute access under a root directory. Cheap to copy; holds no open files.
class Sysfs {
 public:
  /// Performs one write. `mapped_path` is the file to touch (root already applied),
  /// `system_path` the unmapped path for messages. Returns false with a one-line err.
  using WriteHook =
      std::function<bool(const std::string& mapped_path, const std::string& system_path,
                         std::string_view value, std::string* err)>;

  /// `root` defaults to "/", the live system. A fake tree is a directory holding "sys/..." and
  /// "proc/sys/...".
  explicit Sysfs(std::string root = "/");

  /// The root as given, always ending in '/'.
  const std::string& root() const { return root_; }

  /// Maps a system path ("/sys/...") to the file under root. Paths must be absolute.
  std::string Map(std::string_view system_path) const;

  /// Replaces how writes are performed (tests only); an empty hook restores plain writes.
  void set_write_hook(WriteHook hook) { hook_ = std::move(hook); }

  /// Reads a whole attribute, trimmed. err is "read PATH: strerror". errno is left set, so a
  /// caller can tell ENOENT (attribute gone) from other failures.
  [[nodiscard]] bool Read(const std::string& path, std::string* value, std::string* err) const;

  /// Writes `value` to an existing attribute. Refuses anything outside /sys/ and /proc/sys/ and
  /// never creates files: a typo must fail, not leave a stray file behind.
  [[nodiscard]] bool Write(const std::string& path, std::string_view value, std::string* err) const;

  /// Write() and then read back: the kernel accepts some writes without applying them (fio's
  /// "none" lesson), so success means the value is really in effect. For queue/scheduler the
  /// bracketed name must equal `value`; numbers compare numerically; anything else compares
  /// word by word. On mismatch err names the path, the wanted and the read-back value.
  [[nodiscard]] bool WriteVerified(const std::string& path, std::string_view value,
                                   std::string* err) const;

  /// True when `readback` (as read from `path`) shows `wanted` in effect, by the rules of
  /// WriteVerified. cgroup v2's io.cost.qos and io.cost.model hold a line per disk: there
  /// `wanted` ("7:3 enable=0") matches when the disk's line has each of its pairs, or the disk
  /// has no line and the pairs are the defaults (enable=0, ctrl=auto). Used by restore to skip
  /// writes that are no longer needed.
  static bool ValueMatches(std::string_view path, std::string_view wanted,
                           std::string_view readback);

  /// True for ".../queue/scheduler" paths, whose values are scheduler names, not file contents.
  static bool IsSchedulerPath(std::string_view path);

  /// The plain write used when no hook is set: open O_WRONLY|O_TRUNC (no O_CREAT), one write().
  [[nodiscard]] static bool PlainWrite(const std::string& mapped_path,
                                       const std::string& system_path, std::string_view value,
                                       std::string* err);

 private:
  std::string root_;
  WriteHook hook_;
};

/// Reads /sys/block/<disk>/queue/scheduler through `sysfs` and puts its bracketed name in
/// *current: empty for a bio-based device (dm, md), which has no elevator.
[[nodiscard]] bool ReadActiveScheduler(const Sysfs& sysfs, const std::string& disk,
                                       std::string* current, std::string* err);

}  // namespace elevbench
