#include "scenarios/probes/probes_suite.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/plain_range.h"
#include "harness/core/system_info.h"
#include "harness/engine/load_probe.h"
#include "harness/engine/page_cache.h"
#include "harness/fio/fio_job_file.h"
#include "harness/tree/source_tree.h"
#include "scenarios/probes/probe_records.h"

namespace elevbench {
namespace {

constexpr double kDefaultTimeoutSeconds = 20 * 60;  // the seed's "DNF after 20 minutes"

std::string TreeRoot(const std::string& dir) { return dir + "/probes-tree"; }
std::string LoadFile(const std::string& dir) { return dir + "/probes-load/data"; }

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

class ProbesSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--probes", probes_text_,
                    "Probes, comma separated (default: cat-during-read,cat-during-write,"
                    "ls-during-read,ls-during-write)")
        ->type_name("LIST");
    cmd->add_option(
           "--tree", tree_dir_,
           "Copy this real source tree onto the target instead of generating one (default: "
           "a generated tree)")
        ->type_name("DIR");
    cmd->add_option("--tree-size", tree_mb_,
                    "MB (10^6 bytes) of the generated tree (default 142, linux-2.4.19's size)")
        ->check(PlainRange(1, 1 << 20, "MB"));
    cmd->add_option("--tree-seed", tree_seed_, "Seed of the generated tree (default 1)")
        ->check(PlainRange(uint64_t{0}, uint64_t{UINT64_MAX}));
    cmd->add_option("--load-size", load_mb_,
                    "MiB of the file the streaming reader or writer loops over (default 512)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(1, 1 << 20, "MiB"));
    cmd->add_option("--warmup", warmup_seconds_,
                    "Seconds the load runs before the probe starts (default 5)")
        ->check(PlainRange(0.0, 3600.0, "seconds"));
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    probes_.clear();
    std::stringstream ss(probes_text_);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (!Contains(AllProbes(), item)) {
        *err = "--probes: unknown probe '" + item +
               "' (cat-during-read, cat-during-write, ls-during-read, ls-during-write)";
        return false;
      }
      if (Contains(probes_, item)) {
        *err = "--probes: '" + item + "' is listed twice";
        return false;
      }
      probes_.push_back(item);
    }
    if (probes_.empty()) {
      *err = "--probes needs at least one probe";
      return false;
    }
    if (!tree_dir_.empty()) {
      std::error_code ec;
      if (!std::filesystem::is_directory(tree_dir_, ec)) {
        *err = "--tree " + tree_dir_ + " is not a directory";
        return false;
      }
      tree_bytes_ = 0;
      for (auto it = std::filesystem::recursive_directory_iterator(tree_dir_, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) tree_bytes_ += it->file_size(ec);
      }
    } else {
      tree_bytes_ = static_cast<uint64_t>(tree_mb_) * 1'000'000;
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    // The tree (with room for its small files' blocks and inodes) and the load's file.
    const uint64_t tree = tree_bytes_ + tree_bytes_ / 2 + (32ULL << 20);
    const uint64_t load = static_cast<uint64_t>(load_mb_) << 20;
    return tree + load + load / 4 + (64ULL << 20);
  }

  bool HasRoles() const override { return true; }

  std::vector<HostPathUse> HostPaths() const override {
    if (tree_dir_.empty()) return {};
    return {{"--tree", tree_dir_}};
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"probes", probes_},
            {"tree", tree_dir_.empty() ? "generated" : tree_dir_},
            {"tree_bytes", tree_bytes_},
            {"tree_seed", tree_seed_},
            {"load_size_mb", load_mb_},
            {"warmup_seconds", warmup_seconds_},
            {"block_bytes", kLoadBlockBytes}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (const std::string& p : probes_) variants.push_back({p, {{"probe", p}}});
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    const std::string root = TreeRoot(env.directory);
    if (env.on_phase)
      env.on_phase(tree_dir_.empty() ? "writing the source tree" : "copying the tree");
    if (tree_dir_.empty()) {
      TreeSpec spec;
      spec.total_bytes = tree_bytes_;
      spec.seed = tree_seed_;
      plan_ = PlanSourceTree(spec);
      if (!WriteSourceTree(plan_, root, err)) return false;
    } else if (!CopySourceTree(tree_dir_, root, &plan_, err)) {
      return false;
    }
    files_.clear();
    for (const TreeEntry& e : plan_.entries) {
      if (e.type == TreeEntryType::kFile) files_.push_back(e);
    }
    if (NeedsReader()) {
      if (env.on_phase) env.on_phase("laying out the streaming reader's file");
      std::error_code ec;
      std::filesystem::create_directories(
          std::filesystem::path(LoadFile(env.directory)).parent_path(), ec);
      StreamSpec s = Stream("layout", "write", env.directory);
      s.end_fsync = true;
      if (!LayOutWithFio(env, LegacyToolFioGlobal(), {s}, "probes-layout", 0,
                         "laying out the load's file", err)) {
        return false;
      }
    }
    *setup = {{"tree",
               {{"root", root},
                {"files", plan_.file_count},
                {"directories", plan_.directory_count},
                {"bytes", plan_.total_bytes},
                {"seed", plan_.seed},
                {"source", tree_dir_.empty() ? "generated" : tree_dir_}}},
              {"load_file", LoadFile(env.directory)},
              {"load_file_bytes", static_cast<uint64_t>(load_mb_) << 20}};
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    const std::string probe = variant.key.at("probe").get<std::string>();
    std::error_code ec;
    std::filesystem::create_directories(
        std::filesystem::path(LoadFile(env.directory)).parent_path(), ec);
    const bool reading_load = probe.find("during-read") != std::string::npos;
    const bool cat = probe.rfind("cat-", 0) == 0;
    LoadSpec load;
    load.global = LegacyToolFioGlobal();
    StreamSpec s = Stream(reading_load ? "streaming-reader" : "streaming-writer",
                          reading_load ? "read" : "write", env.directory);
    s.runtime_ms =
        7ULL * 24 * 3600 * 1000;  // runs until stopped: time-based, looping over the file
    if (reading_load) s.extra.emplace_back("invalidate", "1");  // each loop reads from the disk
    load.streams = {s};
    load.placement = env.load_placement;
    ProbeSpec spec;
    spec.placement = env.probe_placement;
    spec.working_directory = TreeRoot(env.directory);
    spec.timeout_seconds = env.timeout_seconds > 0 ? env.timeout_seconds : kDefaultTimeoutSeconds;
    spec.warmup_seconds = warmup_seconds_;
    const std::string ls_out = env.work_dir + "/" + env.label_prefix + probe + ".out";
    if (cat) {
      spec.argv = {"cat"};
      for (const TreeEntry& f : files_) spec.argv.push_back(f.path);
    } else {
      spec.argv = {"ls", "-lR", "."};
      spec.stdout_path = ls_out;
    }
    spec.evict = [&](std::string* e) {
      if (env.on_phase) env.on_phase(probe + ": evicting the tree");
      return Evict(env, e);
    };
    if (env.on_phase) env.on_phase(probe + ": warm-up");
    LoadProbeResult result;
    if (!RunLoadWithProbe(env.fio, load, spec, env.work_dir, env.label_prefix + probe, &result,
                          err)) {
      return false;
    }
    ProbeRecord rec;
    rec.probe = probe;
    const ProcessResult& p = result.probe.process;
    rec.status = result.probe.dnf          ? "dnf"
                 : result.probe.oom_killed ? kProbeKilledOom
                 : p.exit_code == 0        ? "ok"
                                           : "failed";
    rec.exit_code = p.exit_code;
    rec.user_seconds = p.usage.user_seconds;
    rec.system_seconds = p.usage.system_seconds;
    rec.elapsed_seconds = p.usage.elapsed_seconds;
    rec.timeout_seconds = spec.timeout_seconds;
    rec.major_faults = p.usage.major_faults;
    rec.minor_faults = p.usage.minor_faults;
    rec.bytes_read = result.probe.bytes_read;
    rec.files_total = plan_.file_count;
    rec.bytes_total = plan_.total_bytes;
    rec.warmup_seconds = result.probe.warmup_seconds;
    rec.load = result.load;
    if (cat) {
      // cat reads its arguments in order: a finished cat read every file; a stopped one read
      // the files whose sizes add up to what it had read.
      rec.files_read = rec.status == "ok" ? plan_.file_count : FilesCoveredBy(rec.bytes_read);
      if (rec.status == "ok") rec.bytes_read = std::max(rec.bytes_read, plan_.total_bytes);
    } else {
      rec.entries_listed = CountLines(ls_out);
    }
    records->push_back(ProbeRecordToJson(rec));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    std::filesystem::remove_all(TreeRoot(env.directory), ec);
    std::filesystem::remove_all(std::filesystem::path(LoadFile(env.directory)).parent_path(), ec);
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return std::string("Tree evicted right before each probe") + kDropOrEvictPolicy + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, ProbeRecordsFromDocument, AggregateProbeRows, ProbeSummaryToJson);
  }

 private:
  static constexpr uint32_t kLoadBlockBytes = 1 << 20;  // dd bs=1M, cat's large reads

  bool NeedsReader() const {
    for (const std::string& p : probes_) {
      if (p.find("during-read") != std::string::npos) return true;
    }
    return false;
  }

  // The load: one buffered stream over one large file, in 1 MiB calls as `dd bs=1M` or `cat`.
  StreamSpec Stream(const std::string& name, const std::string& rw, const std::string& dir) const {
    return FileStream(name, rw, LoadFile(dir), static_cast<uint64_t>(load_mb_) << 20,
                      kLoadBlockBytes);
  }

  // The probe must read the tree from the disk: as root, drop the clean page cache, dentries
  // and inodes (metadata too, for ls -lR) without a sync that would stall the writer; otherwise
  // evict each file's pages (metadata stays cached; the results say which).
  bool Evict(const CellEnvironment& env, std::string* err) const {
    if (env.root) return DropCleanCaches(err);
    const std::string root = TreeRoot(env.directory);
    std::vector<std::string> paths;
    paths.reserve(files_.size());
    for (const TreeEntry& f : files_) paths.push_back(root + "/" + f.path);
    (void)EvictFilesFromPageCache(paths);  // a file that cannot be opened is skipped
    return true;
  }

  uint64_t FilesCoveredBy(uint64_t bytes) const {
    uint64_t sum = 0, n = 0;
    for (const TreeEntry& f : files_) {
      if (sum + f.bytes > bytes) break;
      sum += f.bytes;
      ++n;
    }
    return n;
  }

  static uint64_t CountLines(const std::string& path) {
    std::string text, ignored;
    if (!ReadWholeFile(path, &text, &ignored)) return 0;
    return static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  }

  std::string probes_text_ = "cat-during-read,cat-during-write,ls-during-read,ls-during-write";
  std::vector<std::string> probes_;
  std::string tree_dir_;
  int64_t tree_mb_ = 142;
  uint64_t tree_seed_ = 1;
  int64_t load_mb_ = 512;
  double warmup_seconds_ = 5;
  uint64_t tree_bytes_ = 0;
  std::string directory_;
  TreePlan plan_;
  std::vector<TreeEntry> files_;
};

}  // namespace

std::unique_ptr<Suite> MakeProbesSuite() { return std::make_unique<ProbesSuite>(); }

}  // namespace elevbench
