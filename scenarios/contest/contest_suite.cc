#include "scenarios/contest/contest_suite.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>

#include "harness/core/plain_range.h"
#include "harness/tree/compile_tree.h"
#include "harness/tree/source_tree.h"
#include "scenarios/contest/contest_cell.h"
#include "scenarios/contest/contest_loads.h"
#include "scenarios/contest/contest_records.h"

namespace elevbench {
namespace {

constexpr double kContestDefaultTimeoutSeconds =
    3600;  // contest had none; a compile past 1 h is DNF
constexpr const char* kDbenchLoadfile = "/usr/share/dbench/client.txt";  // Debian's dbench

std::string TreeRoot(const std::string& dir) { return dir + "/contest-tree"; }
std::string LoadDir(const std::string& dir) { return dir + "/contest-load"; }

bool Selected(const std::vector<std::string>& loads, const char* name) {
  return std::find(loads.begin(), loads.end(), name) != loads.end();
}

uint64_t DirectoryBytes(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  }
  return bytes;
}

std::string SelfExecutable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

class ContestSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--loads", loads_text_,
                    "Loads, comma separated (default: all eleven in contest's order: no_load, "
                    "cacherun, process_load, ctar_load, xtar_load, io_load, io_other, read_load, "
                    "list_load, mem_load, dbench_load)")
        ->type_name("LIST");
    cmd->add_option("--compile-size", compile_files_,
                    "C files of the generated compile tree (default " +
                        std::to_string(kDefaultCompileTreeCFiles) +
                        ": about a minute of make -j4 on one CPU of a 2020s machine)")
        ->check(PlainRange(1u, 1000000u, "files"));
    cmd->add_option("--compile-seed", compile_seed_, "Seed of the generated tree (default 1)")
        ->check(PlainRange(uint64_t{0}, uint64_t{UINT64_MAX}));
    cmd->add_option("--compile-tree", compile_tree_,
                    "Copy this real tree onto the target and compile it instead (with "
                    "--compile-cmd, e.g. a configured kernel tree; default: the generated tree)")
        ->type_name("DIR");
    cmd->add_option("--compile-cmd", compile_cmd_,
                    "The compile, run by sh in the tree (default: make -j<4 x CPUs>)")
        ->type_name("COMMAND");
    cmd->add_option("--clean-cmd", clean_cmd_,
                    "Undoes a compile of --compile-tree between cells (default: make clean)")
        ->type_name("COMMAND");
    cmd->add_option("--other-dir", other_dir_,
                    "io_other's directory, ideally on another disk (default: none, and io_other "
                    "runs no load, as contest without -o)")
        ->type_name("DIR");
    cmd->add_option("--list-dir", list_dir_,
                    "What list_load lists with ls -lRa (default: the target directory, not / as "
                    "in 2003: the target is what is measured)")
        ->type_name("DIR");
    cmd->add_option("--memory", memory_mb_,
                    "MiB of RAM the load sizes follow (default: the machine's): io_load's and "
                    "read_load's files, mem_load's 110 %")
        ->check(PlainRange(1, 1 << 24, "MiB"));
    cmd->add_option("--warmup", warmup_seconds_,
                    "Seconds a load runs before the compile starts (default 3)")
        ->check(PlainRange(0.0, 3600.0, "seconds"));
    // For tests: the elevbench binary whose `internal` subcommands are mem_load and
    // process_load (default: this process's own executable).
    cmd->add_option("--internal-exe", self_exe_, "")->group("");
  }

  bool Prepare(const MachineInfo& machine, std::string* err) override {
    if (!ParseContestLoads(loads_text_, &loads_, err)) return false;
    cpus_ = std::max(1, machine.cpus);
    memory_bytes_ = memory_mb_ > 0 ? static_cast<uint64_t>(memory_mb_) << 20 : machine.memory_bytes;
    if (memory_bytes_ == 0) {
      *err = "cannot read the machine's memory size; give --memory MB";
      return false;
    }
    if (self_exe_.empty()) self_exe_ = SelfExecutable();
    if (!compile_tree_.empty()) {
      std::error_code ec;
      if (!std::filesystem::is_directory(compile_tree_, ec)) {
        *err = "--compile-tree " + compile_tree_ + " is not a directory";
        return false;
      }
      tree_bytes_ = DirectoryBytes(compile_tree_);
    } else if (!compile_cmd_.empty() || !clean_cmd_.empty()) {
      *err =
          "--compile-cmd and --clean-cmd go with --compile-tree (the generated tree has its "
          "own Makefile)";
      return false;
    }
    if (compile_tree_.empty() && (!ProgramInPath("make") || !ProgramInPath("gcc"))) {
      *err = "the compile needs make and gcc in PATH";
      return false;
    }
    for (const auto& [load, tool] : {std::pair<const char*, const char*>{"dbench_load", "dbench"},
                                     {"ctar_load", "tar"},
                                     {"xtar_load", "tar"}}) {
      if (Selected(loads_, load) && !ProgramInPath(tool)) {
        *err = std::string(load) + " needs " + tool + " in PATH";
        return false;
      }
    }
    for (const std::string* dir : {&other_dir_, &list_dir_}) {
      std::error_code ec;
      if (!dir->empty() && !std::filesystem::is_directory(*dir, ec)) {
        *err = (dir == &other_dir_ ? "--other-dir " : "--list-dir ") + *dir + " is not a directory";
        return false;
      }
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    const uint64_t tree = compile_tree_.empty() ? CompileTreeBytesNeeded(compile_files_)
                                                : 2 * tree_bytes_ + (64ULL << 20);
    uint64_t bytes = tree + (64ULL << 20);
    if (Selected(loads_, "io_load")) bytes += memory_bytes_ + memory_bytes_ / 8;
    if (Selected(loads_, "read_load")) bytes += memory_bytes_ + memory_bytes_ / 8;
    if (Selected(loads_, "ctar_load")) bytes += tree;
    if (Selected(loads_, "xtar_load")) bytes += 2 * tree;
    if (Selected(loads_, "dbench_load")) bytes += uint64_t{16} * cpus_ * (24ULL << 20);
    return bytes;
  }

  bool HasRoles() const override { return true; }

  // --compile-tree and --list-dir are read; io_other writes in --other-dir.
  std::vector<HostPathUse> HostPaths() const override {
    std::vector<HostPathUse> uses;
    if (!compile_tree_.empty()) uses.push_back({"--compile-tree", compile_tree_});
    if (!list_dir_.empty()) uses.push_back({"--list-dir", list_dir_});
    if (!other_dir_.empty()) uses.push_back({"--other-dir", other_dir_, /*written=*/true});
    return uses;
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"loads", loads_},
            {"compile_tree", compile_tree_.empty() ? "generated" : compile_tree_},
            {"compile_c_files", compile_tree_.empty() ? compile_files_ : 0},
            {"compile_seed", compile_seed_},
            {"compile_command", CompileCommandText()},
            {"clean_command", compile_tree_.empty() ? "remove the build's products" : CleanCmd()},
            {"other_dir", other_dir_},
            {"list_dir", list_dir_.empty() ? directory_ : list_dir_},
            {"memory_bytes", memory_bytes_},
            {"cpus", cpus_},
            {"make_jobs", 4 * cpus_},
            {"warmup_seconds", warmup_seconds_}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (const std::string& l : loads_) {
      SuiteVariant v{l, {{"load", l}}};
      v.keep_caches = l == "cacherun";
      variants.push_back(std::move(v));
    }
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    const std::string root = TreeRoot(env.directory);
    std::error_code ec;
    std::filesystem::create_directories(LoadDir(env.directory), ec);
    if (ec) {
      *err = "cannot create " + LoadDir(env.directory) + ": " + ec.message();
      return false;
    }
    if (env.on_phase)
      env.on_phase(compile_tree_.empty() ? "writing the compile tree" : "copying the compile tree");
    uint64_t tree_files = 0, tree_bytes = 0;
    if (compile_tree_.empty()) {
      CompileTreeSpec spec;
      spec.c_files = compile_files_;
      spec.seed = compile_seed_;
      tree_ = PlanCompileTree(spec);
      if (!WriteCompileTree(tree_, root, err)) return false;
      tree_files = tree_.files.size();
      tree_bytes = tree_.source_bytes;
    } else {
      TreePlan copied;
      if (!CopySourceTree(compile_tree_, root, &copied, err)) return false;
      tree_files = copied.file_count;
      tree_bytes = copied.total_bytes;
      if (!Clean(root, err)) return false;
    }
    if (Selected(loads_, "xtar_load")) {
      if (env.on_phase) env.on_phase("making xtar_load's tarball");
      std::string out;
      if (!RunChecked(
              {"tar", "cf", ContestTarball(Context(env)), "-C", env.directory, "contest-tree"},
              &out, err)) {
        *err = "xtar_load's tarball: " + *err;
        return false;
      }
    }
    if (Selected(loads_, "dbench_load")) {
      std::filesystem::create_directories(LoadDir(env.directory) + "/dbench", ec);
    }
    if (Selected(loads_, "read_load")) {
      if (env.on_phase) env.on_phase("laying out read_load's file");
      StreamSpec s = PlanContestLoad("read_load", Context(env)).fio.streams.at(0);
      s.name = "layout";
      s.rw = "write";
      s.runtime_ms = 0;
      s.end_fsync = true;
      if (!LayOutWithFio(env, ContestFioGlobal(), {s}, "contest-layout", 0,
                         "laying out read_load's file", err)) {
        return false;
      }
    }
    *setup = {{"compile_tree",
               {{"root", root},
                {"source", compile_tree_.empty() ? "generated" : compile_tree_},
                {"files", tree_files},
                {"bytes", tree_bytes},
                {"c_files", compile_tree_.empty() ? tree_.c_files : 0},
                {"headers", compile_tree_.empty() ? tree_.headers : 0},
                {"seed", compile_seed_}}},
              {"load_dir", LoadDir(env.directory)},
              {"io_file_bytes", memory_bytes_},
              {"io_other", other_dir_.empty() ? "absent (no --other-dir)" : other_dir_}};
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    const std::string load = variant.key.at("load").get<std::string>();
    ContestCellSpec spec;
    spec.load = load;
    spec.plan = PlanContestLoad(load, Context(env));
    spec.plan.fio.placement = env.load_placement;  // --controls: each role where it says
    spec.plan.command.placement = env.load_placement;
    spec.compile.placement = env.probe_placement;
    spec.caches_kept = variant.keep_caches;
    spec.compile.argv = {"sh", "-c", CompileCommandText()};
    spec.compile.working_directory = TreeRoot(env.directory);
    spec.compile.stdout_path = env.work_dir + "/" + env.label_prefix + load + "-compile.out";
    spec.compile.timeout_seconds =
        env.timeout_seconds > 0 ? env.timeout_seconds : kContestDefaultTimeoutSeconds;
    spec.compile.warmup_seconds = warmup_seconds_;
    if (env.on_phase) env.on_phase(load + ": compiling");
    ContestRecord record;
    const bool ok =
        RunContestCell(spec, env.fio, env.work_dir, env.label_prefix + load, &record, err);
    // The next cell compiles from scratch and finds the target as SetUp left it, on every path.
    std::string clean_err;
    const bool cleaned =
        Clean(TreeRoot(env.directory), &clean_err) && RemoveLoadLeftovers(env, load, &clean_err);
    if (!ok) return false;
    if (!cleaned) {
      *err = "cleaning up after the compile: " + clean_err;
      return false;
    }
    records->push_back(ContestRecordToJson(record));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    std::filesystem::remove_all(TreeRoot(env.directory), ec);
    std::filesystem::remove_all(LoadDir(env.directory), ec);
    if (!other_dir_.empty()) {
      std::filesystem::remove(ContestIoFile(Context(env), "io_other"), ec);
    }
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    std::string policy = "Compile products removed after each cell";
    if (global_drop.empty()) {
      return policy + "; caches not dropped between cells, so cacherun is no_load again";
    }
    return policy + global_drop +
           (Selected(loads_, "cacherun") ? " but cacherun, which runs right after no_load on "
                                           "warm caches"
                                         : "");
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, ContestRecordsFromDocument, AggregateContestRows,
                         ContestSummaryToJson);
  }

 private:
  ContestLoadContext Context(const CellEnvironment& env) const {
    ContestLoadContext c;
    c.directory = env.directory;
    c.tree_root = TreeRoot(env.directory);
    c.load_dir = LoadDir(env.directory);
    c.other_dir = other_dir_;
    c.list_dir = list_dir_.empty() ? env.directory : list_dir_;
    c.self_exe = self_exe_;
    c.dbench_loadfile = access(kDbenchLoadfile, R_OK) == 0 ? kDbenchLoadfile : "";
    c.memory_bytes = memory_bytes_;
    c.cpus = cpus_;
    return c;
  }

  std::string CompileCommandText() const {
    if (!compile_cmd_.empty()) return compile_cmd_;
    return "make -j" + std::to_string(4 * cpus_);
  }

  std::string CleanCmd() const { return clean_cmd_.empty() ? "make clean" : clean_cmd_; }

  bool Clean(const std::string& root, std::string* err) const {
    if (compile_tree_.empty()) return RemoveCompileProducts(tree_, root, err);
    ProcessOptions opts;
    opts.working_directory = root;
    opts.stdout_path = "/dev/null";
    ProcessResult result;
    if (!RunProcess({"sh", "-c", CleanCmd()}, opts, &result, err)) return false;
    if (result.exit_code != 0) {
      *err = "'" + CleanCmd() + "' failed (exit " + std::to_string(result.exit_code) +
             "): " + LastLine(result.error_output);
      return false;
    }
    return true;
  }

  // What a load wrote that the next cell must not find: io_load's RAM-sized file, the tar
  // loads' outputs. read_load's file and xtar's tarball stay for the next cells.
  bool RemoveLoadLeftovers(const CellEnvironment& env, const std::string& load,
                           std::string* err) const {
    const ContestLoadContext c = Context(env);
    std::vector<std::string> paths;
    if (load == "io_load") paths.push_back(ContestIoFile(c, "io_load"));
    if (load == "io_other" && !other_dir_.empty()) paths.push_back(ContestIoFile(c, "io_other"));
    if (load == "ctar_load") paths.push_back(c.load_dir + "/ctar.tar");
    if (load == "xtar_load") paths.push_back(c.load_dir + "/xtar");
    for (const std::string& p : paths) {
      std::error_code ec;
      std::filesystem::remove_all(p, ec);
      if (ec) {
        *err = "cannot remove " + p + ": " + ec.message();
        return false;
      }
    }
    return true;
  }

  std::string loads_text_;
  std::vector<std::string> loads_;
  uint32_t compile_files_ = kDefaultCompileTreeCFiles;
  uint64_t compile_seed_ = 1;
  std::string compile_tree_;
  std::string compile_cmd_;
  std::string clean_cmd_;
  std::string other_dir_;
  std::string list_dir_;
  int64_t memory_mb_ = 0;
  double warmup_seconds_ = 3;
  std::string self_exe_;
  int cpus_ = 1;
  uint64_t memory_bytes_ = 0;
  uint64_t tree_bytes_ = 0;
  std::string directory_;
  CompileTree tree_;
};

}  // namespace

std::unique_ptr<Suite> MakeContestSuite() { return std::make_unique<ContestSuite>(); }

}  // namespace elevbench
