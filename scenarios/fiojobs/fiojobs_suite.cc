#include "scenarios/fiojobs/fiojobs_suite.h"

#include <stdlib.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>

#include "harness/core/atomic_file.h"
#include "harness/core/strings.h"
#include "harness/device/scratch_device.h"
#include "harness/fio/fio_jobs.h"
#include "harness/fio/fio_runner.h"
#include "harness/process/subprocess.h"
#include "scenarios/fiojobs/fiojobs_records.h"
#include "scenarios/fiojobs/user_job_file.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// Where a device elevbench has not made yet stands when the files are checked up front.
constexpr char kTargetPlaceholder[] = "/elevbench-target";

// fio's size= as the run's own sizes read it ("64m", "1G"; base 1024, fio's kb_base default),
// 0 for what only fio knows (a percentage, "1kb").
uint64_t FioSizeBytes(const std::string& text) {
  uint64_t bytes = 0;
  std::string ignored;
  return ParseSizeBytes(text, &bytes, &ignored) ? bytes : 0;
}

// Every job's size × numjobs: what the files need on the target.
uint64_t BytesOfFile(const UserJobFile& file) {
  uint64_t total = 0, global_size = 0, global_jobs = 1;
  for (const UserJobSection& s : file.sections) {
    uint64_t size = global_size, jobs = global_jobs;
    for (const auto& [k, v] : s.options) {
      if (k == "size") size = FioSizeBytes(v);
      if (k == "numjobs") jobs = std::max<uint64_t>(1, std::strtoull(v.c_str(), nullptr, 10));
    }
    if (s.name == "global") {
      global_size = size;
      global_jobs = jobs;
    } else {
      total += size * jobs;
    }
  }
  return total;
}

// fio's reason for refusing a job file: the first line of its stderr that says what is wrong
// ("Bad option <bogusopt=1>", "failed parsing rw=bogus"), not the "job j dropped" that follows
// it (#45, fourth pass); else its last line of either stream.
std::string FioReason(const ProcessResult& result) {
  std::istringstream lines(result.error_output);
  for (std::string line; std::getline(lines, line);) {
    line = TrimWhitespace(line);
    if (line.rfind("fio: ", 0) == 0) line = line.substr(5);
    if (line.empty() || (line.rfind("job ", 0) == 0 && line.ends_with(" dropped"))) continue;
    return line;
  }
  const std::string last = LastLine(result.error_output);
  return last.empty() ? LastLine(result.output) : last;
}

// `fio --parse-only` of the placed text: fio's own verdict on every option, before the run.
bool FioAccepts(const std::string& path, const std::string& text, std::string* err) {
  char tmpl[] = "/tmp/elevbench-fio-check-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) {
    *err = "cannot check " + path + " with fio: no temporary file";
    return false;
  }
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  ProcessResult result;
  std::string run_err;
  const bool ran = written && RunProcess({"fio", "--parse-only", tmpl}, {}, &result, &run_err);
  unlink(tmpl);
  if (!ran) {
    *err = "cannot check " + path + " with fio: " + run_err;
    return false;
  }
  if (result.exit_code != 0) {
    *err = path + ": fio rejects it: " + FioReason(result);
    return false;
  }
  return true;
}

class FioJobsSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("job_files", paths_, "fio job files, one variant each")
        ->type_name("FILE")
        ->required();
    cmd->add_option("--fio-set", override_texts_,
                    "Override an option in every job, e.g. runtime=30 (repeatable; default: none)")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);  // #45: `--fio-set a=1 FILE` took FILE as a second override
  }

  std::vector<HostPathUse> HostPaths() const override {
    std::vector<HostPathUse> uses;
    for (const std::string& path : paths_) uses.push_back({"job file", path});
    return uses;
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    files_.clear();
    overrides_.clear();
    for (const std::string& text : override_texts_) {
      std::pair<std::string, std::string> o;
      if (!ParseFioOverride(text, &o, err)) return false;
      overrides_.push_back(o);
    }
    std::vector<std::string> names;
    for (const std::string& path : paths_) {
      std::string text;
      UserJobFile file;
      std::error_code ec;
      if (fs::is_directory(path, ec)) {  // #45, fourth pass: was "no job section"
        *err = path + " is a directory, not a fio job file (give a job file, e.g. seqread.fio)";
        return false;
      }
      if (!ReadWholeFile(path, &text, err) || !ParseUserJobFile(text, path, &file, err)) {
        return false;
      }
      const std::string name = fs::path(path).filename();
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        *err = "two job files are named " + name + ": rename one (results are keyed by name)";
        return false;
      }
      names.push_back(name);
      files_.push_back(std::move(file));
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    uint64_t total = 0;
    for (const UserJobFile& f : files_) total += BytesOfFile(f);
    return total + total / 8;  // filesystem overhead
  }

  bool CheckTarget(const TargetFacts& facts, std::string* err) override {
    for (const UserJobFile& f : files_) {
      if (!Accepted(f, facts, overrides_, err)) {
        BlameOverride(f, facts, err);
        // The placeholder is no path of this machine: name what it stands for.
        const size_t at = err->find(kTargetPlaceholder);
        if (facts.directory.empty() && at != std::string::npos) {
          err->replace(at, sizeof kTargetPlaceholder - 1,
                       "(the filesystem elevbench makes for the run)");
        }
        return false;
      }
    }
    device_ = facts.user_device;
    allow_writes_ = facts.allow_writes;
    return true;
  }

  nlohmann::json Parameters() const override {
    nlohmann::json files = nlohmann::json::array();
    for (const std::string& p : paths_) files.push_back(p);
    return {{"job_files", files}, {"fio_set", override_texts_}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (const std::string& p : paths_) {
      const std::string name = fs::path(p).filename();
      variants.push_back({name, {{"job_file", name}}});
    }
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    placed_.clear();
    for (const UserJobFile& f : files_) {
      std::string text;
      std::vector<std::string> dirs;
      if (!PlaceUserJobFile(f, Placement(env.directory, device_, allow_writes_), &text, &dirs,
                            err)) {
        return false;
      }
      for (const std::string& d : dirs) {
        std::error_code ec;
        fs::create_directories(d, ec);
        if (ec) {
          *err = "cannot create " + d + ": " + ec.message();
          return false;
        }
      }
      placed_.push_back(std::move(text));
    }
    *setup = {{"placed_on", env.directory}};
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    const std::string name = variant.key.at("job_file").get<std::string>();
    size_t index = 0;
    while (index < paths_.size() && fs::path(paths_[index]).filename() != name) ++index;
    FioInvocation inv;
    inv.job_text = placed_.at(index);
    inv.work_dir = env.work_dir;
    inv.label = env.label_prefix + "fio-" + fs::path(name).stem().string();
    inv.timeout_seconds = env.timeout_seconds;
    if (env.on_phase) env.on_phase(name);
    const auto start = std::chrono::steady_clock::now();
    FioRunResult run;
    if (!env.fio->Run(inv, &run, err)) return false;
    FioJobsRecord rec;
    rec.job_file = name;
    rec.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rec.jobs = JobResultsFromFio(run);
    records->push_back(FioJobsRecordToJson(rec));
    return true;
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return "as the job files say (fio's invalidate=1 default drops each file's cache before "
           "a job)" +
           global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    std::vector<FioJobsRecord> records;
    std::string err;
    nlohmann::json rows = nlohmann::json::array();
    if (!FioJobsRecordsFromDocument(doc, &records, &err)) return rows;
    for (const FioJobsRecord& r : records) {
      for (const JobResult& j : r.jobs) {
        rows.push_back({{"identifier", r.identifier},
                        {"repetition", r.repetition},
                        {"job_file", r.job_file},
                        {"job", j.name},
                        {"read_mb_s", j.read.MegabytesPerSecond()},
                        {"write_mb_s", j.write.MegabytesPerSecond()}});
      }
    }
    return rows;
  }

 private:
  using Overrides = std::vector<std::pair<std::string, std::string>>;

  // fio's verdict on `f` placed on the target with `overrides`.
  bool Accepted(const UserJobFile& f, const TargetFacts& facts, const Overrides& overrides,
                std::string* err) const {
    JobPlacement p = Placement(facts.directory.empty() ? kTargetPlaceholder : facts.directory,
                               facts.user_device, facts.allow_writes);
    p.overrides = overrides;
    std::string text;
    return PlaceUserJobFile(f, p, &text, nullptr, err) && FioAccepts(f.path, text, err);
  }

  // A file fio takes as it is but rejects with the overrides: the error names the --fio-set
  // that fio rejects, where it named the job file (#45: `--fio-set bogus` was "two-jobs.fio: fio
  // rejects it: fio: job seqread dropped").
  void BlameOverride(const UserJobFile& f, const TargetFacts& facts, std::string* err) const {
    const std::string rejects = ": fio rejects it: ";
    std::string ignored;
    if (overrides_.empty() || err->find(rejects) == std::string::npos ||
        !Accepted(f, facts, {}, &ignored)) {
      return;
    }
    for (size_t i = 0; i < overrides_.size(); ++i) {
      std::string why;
      if (Accepted(f, facts, {overrides_[i]}, &why)) continue;
      const size_t at = why.find(rejects);
      *err = "--fio-set " + override_texts_[i] + ": fio rejects it" +
             (at == std::string::npos ? "" : " (" + why.substr(at + rejects.size()) + ")") +
             "; give KEY=VALUE with an option of fio's job files, e.g. runtime=30 (`fio "
             "--cmdhelp=all` lists them)";
      return;
    }
  }

  JobPlacement Placement(const std::string& dir, const std::string& device,
                         bool allow_writes) const {
    JobPlacement p;
    p.target_dir = dir;
    p.device = device.empty() ? "" : "/dev/" + device;
    p.allow_writes = allow_writes;
    p.overrides = overrides_;
    return p;
  }

  std::vector<std::string> paths_;
  std::vector<std::string> override_texts_;
  std::vector<std::pair<std::string, std::string>> overrides_;
  std::vector<UserJobFile> files_;
  std::vector<std::string> placed_;
  std::string device_;  // from CheckTarget, which the run calls before SetUp
  bool allow_writes_ = false;
};

}  // namespace

std::unique_ptr<Suite> MakeFioJobsSuite() { return std::make_unique<FioJobsSuite>(); }

}  // namespace elevbench
