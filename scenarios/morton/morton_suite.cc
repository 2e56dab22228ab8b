#include "scenarios/morton/morton_suite.h"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "harness/core/plain_range.h"
#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/engine/load_probe.h"
#include "harness/engine/page_cache.h"
#include "harness/engine/parallel_probes.h"
#include "harness/fio/fio_job_file.h"
#include "harness/tree/source_tree.h"
#include "scenarios/morton/morton_plan.h"
#include "scenarios/morton/morton_records.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// Andrew killed 2.4's run of #7 after 15 minutes.
constexpr double kMortonDefaultTimeoutSeconds = 15 * 60;

// syncfs() of the filesystem holding `dir`: the earlier cells' dirty data is written before a
// test is timed.
void SyncFilesystemOf(const std::string& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)syncfs(fd);
  close(fd);
}

class MortonSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--tests", tests_text_,
                    "Tests to run, comma separated, 1 to 9 (default: all, in order)")
        ->type_name("LIST");
    cmd->add_option("--scale", scale_,
                    "Fraction of the post's sizes, 0 < F <= 1, for small devices (default 1: "
                    "100 MiB files, 512 MiB loads, 142 MB trees)");
    cmd->add_option("--tree-size", tree_mb_,
                    "MB (10^6 bytes) of one generated kernel tree before --scale (default 142, "
                    "linux-2.4.19's size)")
        ->check(PlainRange(1, 1 << 20, "MB"));
    cmd->add_option("--tree-seed", tree_seed_, "Seed of the generated tree (default 1)")
        ->check(PlainRange(uint64_t{0}, uint64_t{UINT64_MAX}));
    cmd->add_option("--warmup", warmup_seconds_,
                    "Seconds a load runs before its probe starts (default 10)")
        ->check(PlainRange(0.0, 3600.0, "seconds"));
    cmd->add_option("--cold-start", cold_start_text_,
                    "Program and arguments started cold from the target in tests 2 and 3, "
                    "standing in for 'ssh testbox xterm -e true' (default 'ssh -V')")
        ->type_name("COMMAND");
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    if (!ParseMortonTests(tests_text_, &tests_, err)) return false;
    if (!(scale_ > 0 && scale_ <= 1)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", scale_);
      *err = std::string("--scale ") + buf + " is not in (0, 1]";
      return false;
    }
    sizes_ = MortonSizesFor(scale_, static_cast<uint64_t>(tree_mb_));
    needs_ = MortonNeedsOf(tests_);
    cold_start_words_ = SplitWords(cold_start_text_);
    if (needs_.cold_start) {
      if (cold_start_words_.empty()) {
        *err = "--cold-start needs a program";
        return false;
      }
      if (!ProgramInPath(cold_start_words_[0])) {
        *err = "--cold-start: " + cold_start_words_[0] +
               " is not installed (scripts/install-deps installs openssh-client; or name "
               "another program, e.g. --cold-start 'fio --version')";
        return false;
      }
    }
    return true;
  }

  // A --cold-start program named by its path is copied from the host's file.
  std::vector<HostPathUse> HostPaths() const override {
    const std::vector<std::string> words = SplitWords(cold_start_text_);
    if (words.empty() || words[0].find('/') == std::string::npos) return {};
    return {{"--cold-start", words[0]}};
  }

  uint64_t BytesNeeded() const override {
    // Trees take room for their small files' blocks and inodes; #4's copy needs three more.
    const uint64_t tree = sizes_.tree_bytes + sizes_.tree_bytes / 2 + (4ULL << 20);
    uint64_t bytes = static_cast<uint64_t>(needs_.stream_files) * sizes_.stream_file_bytes +
                     static_cast<uint64_t>(needs_.trees) * tree;
    if (needs_.load_file) bytes += sizes_.load_file_bytes;
    if (Selected(4)) bytes += 3 * tree;
    if (Selected(9)) bytes += sizes_.write_bytes;
    if (needs_.cold_start) bytes += 128ULL << 20;
    return bytes + bytes / 8 + (64ULL << 20);
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"tests", tests_},
            {"scale", scale_},
            {"stream_file_bytes", sizes_.stream_file_bytes},
            {"load_file_bytes", sizes_.load_file_bytes},
            {"tree_bytes", sizes_.tree_bytes},
            {"tree_seed", tree_seed_},
            {"write_bytes", sizes_.write_bytes},
            {"warmup_seconds", warmup_seconds_},
            {"cold_start", needs_.cold_start ? cold_start_text_ : ""},
            {"block_bytes", 1 << 20}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (int t : tests_) variants.push_back({"test=" + std::to_string(t), {{"test", t}}});
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override;

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override;

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    fs::remove_all(MortonPathsFor(env.directory).root, ec);
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return std::string(
               "The suite's files evicted before each test and again right before a "
               "probe that runs beside a load") +
           kDropOrEvictPolicy + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, MortonRecordsFromDocument, AggregateMortonRows, MortonSummaryToJson);
  }

 private:
  bool Selected(int test) const {
    return std::find(tests_.begin(), tests_.end(), test) != tests_.end();
  }
  bool LayOutFiles(const CellEnvironment& env, std::string* err);
  bool Evict(const CellEnvironment& env, std::string* err) const;
  std::string StandIn(int test) const;
  bool RunWithoutLoad(int test, const CellEnvironment& env, MortonRecord* rec,
                      std::string* err) const;
  bool RunBesideLoad(int test, const CellEnvironment& env, MortonRecord* rec,
                     std::string* err) const;

  double Timeout(const CellEnvironment& env) const {
    return env.timeout_seconds > 0 ? env.timeout_seconds : kMortonDefaultTimeoutSeconds;
  }

  std::string tests_text_ = "1,2,3,4,5,6,7,8,9";
  std::vector<int> tests_;
  double scale_ = 1;
  int64_t tree_mb_ = 142;
  uint64_t tree_seed_ = 1;
  double warmup_seconds_ = 10;
  std::string cold_start_text_ = "ssh -V";
  std::vector<std::string> cold_start_words_;
  MortonSizes sizes_;
  MortonNeeds needs_;
  std::string directory_;
  MortonPaths paths_;
  ColdStartProgram cold_start_;
};

bool MortonSuite::LayOutFiles(const CellEnvironment& env, std::string* err) {
  std::vector<StreamSpec> streams;
  // One file after the other (stonewall), so each is "well laid out" as in the post.
  for (int i = 0; i < needs_.stream_files; ++i) {
    StreamSpec s;
    s.name = "layout" + std::to_string(i);
    s.rw = "write";
    s.filename = paths_.streams + "/" + MortonStreamFileName(i);
    s.file_size_bytes = sizes_.stream_file_bytes;
    s.block_size_bytes = 1 << 20;
    s.end_fsync = true;
    s.stonewall = i > 0;
    streams.push_back(s);
  }
  if (needs_.load_file) {
    StreamSpec s = MortonLoadStream("write", paths_, sizes_);
    s.name = "layout-load";
    s.runtime_ms = 0;
    s.end_fsync = true;
    s.stonewall = !streams.empty();
    streams.push_back(s);
  }
  if (streams.empty()) return true;
  if (env.on_phase) env.on_phase("laying out the files");
  return LayOutWithFio(env, LegacyToolFioGlobal(), std::move(streams), "morton-layout", 0,
                       "laying out the files", err);
}

bool MortonSuite::SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) {
  directory_ = env.directory;
  paths_ = MortonPathsFor(env.directory);
  std::error_code ec;
  for (const std::string& d :
       {paths_.streams, paths_.load_file.substr(0, paths_.load_file.rfind('/')), paths_.three}) {
    fs::create_directories(d, ec);
    if (ec) {
      *err = "cannot make " + d + ": " + ec.message();
      return false;
    }
  }
  if (!LayOutFiles(env, err)) return false;
  TreePlan plan;
  if (needs_.trees > 0) {
    TreeSpec spec;
    spec.total_bytes = sizes_.tree_bytes;
    spec.seed = tree_seed_;
    plan = PlanSourceTree(spec);
    // Six copies of one tree, as the post's "six separate copies of the 2.4.19 kernel tree".
    for (int i = 1; i <= needs_.trees; ++i) {
      if (env.on_phase) env.on_phase("writing kernel-tree-" + std::to_string(i));
      TreeWriteOptions opts;
      opts.sync = i == needs_.trees;
      if (!WriteSourceTree(plan, MortonTreeRoot(paths_, i), err, opts)) return false;
    }
  }
  nlohmann::json cold = nullptr;
  if (needs_.cold_start) {
    if (env.on_phase) env.on_phase("copying " + cold_start_words_[0] + " and its libraries");
    const std::vector<std::string> args(cold_start_words_.begin() + 1, cold_start_words_.end());
    if (!CopyProgramForColdStart(cold_start_words_[0], args, paths_.cold_start, &cold_start_,
                                 err)) {
      *err = "--cold-start: " + *err;
      return false;
    }
    cold = {{"program", cold_start_.source},
            {"command", ColdStartCommandText(cold_start_)},
            {"argv", ColdStartArgv(cold_start_)},
            {"files", cold_start_.files},
            {"bytes", cold_start_.bytes}};
  }
  *setup = {{"root", paths_.root},
            {"stream_files", needs_.stream_files},
            {"stream_file_bytes", sizes_.stream_file_bytes},
            {"load_file", needs_.load_file ? paths_.load_file : ""},
            {"load_file_bytes", needs_.load_file ? sizes_.load_file_bytes : 0},
            {"trees", needs_.trees},
            {"tree", needs_.trees == 0 ? nlohmann::json(nullptr)
                                       : nlohmann::json{{"files", plan.file_count},
                                                        {"directories", plan.directory_count},
                                                        {"bytes", plan.total_bytes},
                                                        {"seed", plan.seed}}},
            {"cold_start", cold}};
  return true;
}

// Every file of the suite leaves the page cache: as root (and allowed) with its metadata,
// otherwise page by page.
bool MortonSuite::Evict(const CellEnvironment& env, std::string* err) const {
  if (env.drop_caches) return DropCleanCaches(err);
  EvictTreeFromPageCache(paths_.root);
  return true;
}

std::string MortonSuite::StandIn(int test) const {
  if (test == 2 || test == 3) {
    char mb[32];
    std::snprintf(mb, sizeof mb, "%.1f", static_cast<double>(cold_start_.bytes) / (1 << 20));
    return "cold start of `" + ColdStartCommandText(cold_start_) +
           "` from the target, standing in for `ssh testbox xterm -e true`: its binary, " +
           std::to_string(cold_start_.files.size() - 2) + " libraries and loader (" + mb +
           " MB) copied there and evicted";
  }
  if (test == 9) {
    return "`dd ... conv=fsync` (the writes, then one fsync) standing in for `write-and-fsync "
           "-f -m " +
           std::to_string(sizes_.write_bytes >> 20) + " outfile` (ext3-tools, not published)";
  }
  return "";
}

// The record of one probe: what was planned, how its process ended, what it read.
MortonProbe ProbeOf(const MortonPlannedProbe& planned, const ProcessResult& p, bool dnf,
                    uint64_t bytes_read, double start_offset, double timeout) {
  MortonProbe m;
  m.command = planned.command;
  m.argv = planned.argv;
  m.status = dnf ? "dnf" : (p.exit_code == 0 ? "ok" : "failed");
  m.exit_code = p.exit_code;
  m.term_signal = p.term_signal;
  m.start_offset_seconds = start_offset;
  m.usage = p.usage;
  m.timeout_seconds = timeout;
  m.bytes_read = bytes_read;
  m.work_bytes = planned.work_bytes;
  return m;
}

bool MortonSuite::RunWithoutLoad(int test, const CellEnvironment& env, MortonRecord* rec,
                                 std::string* err) const {
  const std::vector<MortonPlannedProbe> planned = MortonProbesOf(test, paths_, sizes_, cold_start_);
  std::vector<ParallelProbeSpec> specs;
  for (const MortonPlannedProbe& p : planned) {
    ParallelProbeSpec s;
    s.argv = p.argv;
    s.working_directory = p.working_directory;
    s.timeout_seconds = Timeout(env);
    specs.push_back(s);
  }
  std::vector<ParallelProbeOutcome> outcomes;
  if (!RunParallelProbes(specs, &outcomes, err)) return false;
  for (size_t i = 0; i < planned.size(); ++i) {
    rec->probes.push_back(ProbeOf(planned[i], outcomes[i].process, outcomes[i].dnf,
                                  outcomes[i].bytes_read, outcomes[i].start_offset_seconds,
                                  specs[i].timeout_seconds));
  }
  return true;
}

bool MortonSuite::RunBesideLoad(int test, const CellEnvironment& env, MortonRecord* rec,
                                std::string* err) const {
  const std::vector<MortonPlannedProbe> planned = MortonProbesOf(test, paths_, sizes_, cold_start_);
  LoadSpec load;
  load.global = LegacyToolFioGlobal();
  load.streams = {MortonLoadStream(MortonLoadDirection(test), paths_, sizes_)};
  ProbeSpec spec;
  spec.argv = planned.at(0).argv;
  spec.working_directory = planned.at(0).working_directory;
  spec.timeout_seconds = Timeout(env);
  spec.warmup_seconds = warmup_seconds_;
  spec.evict = [&](std::string* e) {
    if (env.on_phase) env.on_phase("test " + std::to_string(test) + ": evicting");
    return Evict(env, e);
  };
  if (env.on_phase) env.on_phase("test " + std::to_string(test) + ": warm-up");
  LoadProbeResult result;
  if (!RunLoadWithProbe(env.fio, load, spec, env.work_dir,
                        env.label_prefix + "morton-" + std::to_string(test), &result, err)) {
    return false;
  }
  rec->warmup_seconds = result.probe.warmup_seconds;
  rec->probes.push_back(ProbeOf(planned[0], result.probe.process, result.probe.dnf,
                                result.probe.bytes_read, 0, spec.timeout_seconds));
  rec->load = result.load;
  return true;
}

bool MortonSuite::RunCell(const SuiteVariant& variant, const CellEnvironment& env,
                          std::vector<nlohmann::json>* records, std::string* err) {
  const int test = variant.key.at("test").get<int>();
  std::error_code ec;
  // What earlier cells left: #4's copy, #9's file; then everything on disk and out of the cache.
  fs::remove_all(paths_.copy, ec);
  fs::remove(paths_.outfile, ec);
  SyncFilesystemOf(paths_.root);
  if (!Evict(env, err)) return false;
  MortonRecord rec;
  rec.test = test;
  rec.description = MortonDescription(test, sizes_);
  rec.stand_in = StandIn(test);
  rec.scale = scale_;
  if (env.on_phase) env.on_phase("test " + std::to_string(test));
  const bool ok = MortonLoadDirection(test).empty() ? RunWithoutLoad(test, env, &rec, err)
                                                    : RunBesideLoad(test, env, &rec, err);
  fs::remove_all(paths_.copy, ec);
  fs::remove(paths_.outfile, ec);
  if (!ok) return false;
  records->push_back(MortonRecordToJson(rec));
  return true;
}

}  // namespace

std::unique_ptr<Suite> MakeMortonSuite() { return std::make_unique<MortonSuite>(); }

}  // namespace elevbench
