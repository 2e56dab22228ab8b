#pragma once
// The user's own fio job files (`elevbench run fio JOB.fio …`), read and placed on elevbench's
// target. elevbench owns the target: every file a job names is taken relative to it, and a path
// outside it is refused unless it is the raw --device the user named. Options that would reach
// outside (exec_prerun, ioscheduler, cgroups, logs written anywhere, include files) are refused,
// because they would let a job file switch a scheduler or write a file elevbench did not make
// and cannot restore. Pure: text in, text out (docs/fio-jobs.md).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elevbench {

/// One section of a job file: [global] or a job, its options in order (a bare flag has an
/// empty value).
struct UserJobSection {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;
  int line = 0;  ///< of the section header, for messages
};

/// A parsed job file.
struct UserJobFile {
  std::string path;
  std::vector<UserJobSection> sections;  ///< [global] sections and jobs, in file order
};

/// Parses fio's INI syntax: `[name]` headers, `key=value` or `key` lines (blanks around '='
/// ignored), comments starting with ';' or '#'. False with "FILE:LINE: reason" for text
/// outside a section, an `include` line, a malformed header, a file with no job, or an option
/// elevbench refuses (see the header comment).
[[nodiscard]] bool ParseUserJobFile(std::string_view text, const std::string& path,
                                    UserJobFile* out, std::string* err);

/// Where the jobs go.
struct JobPlacement {
  std::string target_dir;     ///< the target's directory (absolute)
  std::string device;         ///< "/dev/sdb": the raw device the user named, or empty
  bool allow_writes = false;  ///< --allow-writes: a job may write to `device`
  /// --fio-set key=value overrides, appended to every job.
  std::vector<std::pair<std::string, std::string>> overrides;
};

/// Renders the file placed on the target: `directory` and `filename` are removed from every
/// section and written resolved into each job (fio prefixes a `directory` even to an absolute
/// `filename`): a relative name under the target (or under the job's relative directory in
/// it), an absolute one only when it lies under the target or is the user's device. Each job
/// then gets the overrides and clat_percentiles=1 (the json+ bins elevbench reads). False with
/// "FILE: job NAME: reason" for a path outside the target, `..` in a path, a write to the
/// user's device without allow_writes, or a bad override.
/// `directories` (may be null) receives the directories the jobs' files go in, for the caller
/// to create (fio does not).
[[nodiscard]] bool PlaceUserJobFile(const UserJobFile& file, const JobPlacement& placement,
                                    std::string* text, std::vector<std::string>* directories,
                                    std::string* err);

/// Checks one --fio-set "key=value" and splits it. False with one line for a bad key, a
/// refused option, `filename`/`directory` (elevbench places the files), or a value with a line
/// break.
[[nodiscard]] bool ParseFioOverride(const std::string& text,
                                    std::pair<std::string, std::string>* out, std::string* err);

}  // namespace elevbench
