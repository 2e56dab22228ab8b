#include "scenarios/orasim/orasim_suite.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>

#include "harness/core/plain_range.h"
#include "harness/engine/load_probe.h"
#include "scenarios/orasim/orasim_records.h"

namespace elevbench {
namespace {

constexpr uint32_t kBlockBytes = 8192;       // Oracle's default block size
constexpr uint64_t kLogBytes = 64ULL << 20;  // the log wraps round within this
// Every configuration issues the same offsets (the post's date as the seed).
constexpr uint64_t kRandomSeed = 20030325;

class OrasimSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--size", size_mb_, "MiB of the data file (default 512)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(16, 1 << 20, "MiB"));
    cmd->add_option("--runtime", runtime_s_, "Seconds per run (default 60)")
        ->check(PlainRange(1, 24 * 3600, "seconds"));
    cmd->add_option("--runs", runs_, "Runs per cell, each one number of the row (default 2)")
        ->check(PlainRange(1, 100));
    cmd->add_option("--readers", readers_, "Random 8 KiB reader threads (default 4)")
        ->check(PlainRange(0, 256, "threads"));
    cmd->add_option("--writers", writers_, "Synchronous random 8 KiB writer threads (default 1)")
        ->check(PlainRange(0, 256, "threads"));
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    if (readers_ + writers_ == 0) {
      *err = "--readers and --writers cannot both be 0";
      return false;
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    return DataBytes() + DataBytes() / 8 + kLogBytes + (64ULL << 20);
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"stand_in", "OraSim was never published: an OLTP-like fio job stands in for it"},
            {"size_mb", size_mb_},
            {"runtime_seconds", runtime_s_},
            {"runs", runs_},
            {"readers", readers_},
            {"writers", writers_},
            {"block_bytes", kBlockBytes},
            {"log_bytes", kLogBytes},
            {"direct", true},
            {"score", "I/O operations per second of all streams, bigger is better"}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (int r = 1; r <= runs_; ++r) variants.push_back({"run" + std::to_string(r), {{"run", r}}});
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    std::error_code ec;
    std::filesystem::create_directories(Dir(), ec);
    if (ec) {
      *err = "cannot create " + Dir() + ": " + ec.message();
      return false;
    }
    StreamSpec layout = Stream("layout", "write", DataFile());
    layout.file_size_bytes = DataBytes();
    layout.block_size_bytes = 1 << 20;
    layout.direct = false;
    layout.end_fsync = true;
    if (env.on_phase) env.on_phase("laying out the data file");
    if (!LayOutWithFio(env, Global(), {layout}, "orasim-layout", env.timeout_seconds,
                       "laying out the data file", err)) {
      return false;
    }
    *setup = {{"data_file", DataFile()}, {"data_bytes", DataBytes()}};
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    unlink(LogFile().c_str());  // every run writes a new log
    LoadSpec load;
    load.global = Global();
    for (int i = 1; i <= readers_; ++i) {
      load.streams.push_back(Stream("reader" + std::to_string(i), "randread", DataFile()));
    }
    for (int i = 1; i <= writers_; ++i) {
      StreamSpec w = Stream("writer" + std::to_string(i), "randwrite", DataFile());
      w.extra.emplace_back("sync", "1");
      load.streams.push_back(w);
    }
    StreamSpec log = Stream("log", "write", LogFile());
    log.file_size_bytes = kLogBytes;
    log.extra.emplace_back("sync", "1");
    load.streams.push_back(log);
    if (env.on_phase) env.on_phase("OLTP-like " + variant.label);
    OrasimRecord rec;
    rec.run = variant.key.at("run").get<int>();
    if (!RunLoadToFirstEnd(env.fio, load, env.work_dir, env.label_prefix + variant.label,
                           env.timeout_seconds, &rec.streams, &rec.elapsed_seconds, err)) {
      return false;
    }
    unlink(LogFile().c_str());
    for (const StreamResult& s : rec.streams) {
      const uint64_t ops = s.bytes() / kBlockBytes;
      if (s.name == "log") {
        rec.log_ops += ops;
      } else if (s.name.rfind("writer", 0) == 0) {
        rec.write_ops += ops;
      } else {
        rec.read_ops += ops;
      }
      rec.cpu_seconds += s.cpu_seconds;
    }
    const uint64_t ops = rec.read_ops + rec.write_ops + rec.log_ops;
    rec.score_ops_s = rec.elapsed_seconds > 0 ? static_cast<double>(ops) / rec.elapsed_seconds : 0;
    records->push_back(OrasimRecordToJson(rec));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    std::filesystem::remove_all(env.directory + "/orasim", ec);
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return "O_DIRECT I/O: the page cache is not involved" + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, OrasimRecordsFromDocument, AggregateOrasimRows, OrasimSummaryToJson);
  }

 private:
  uint64_t DataBytes() const { return static_cast<uint64_t>(size_mb_) << 20; }
  std::string Dir() const { return directory_ + "/orasim"; }
  std::string DataFile() const { return Dir() + "/data"; }
  std::string LogFile() const { return Dir() + "/log"; }

  static FioGlobalSpec Global() {
    FioGlobalSpec g;  // the defaults: threads, per-job results, no drop, plain writes
    g.random_seed = kRandomSeed;
    return g;
  }

  StreamSpec Stream(const std::string& name, const std::string& rw, const std::string& file) const {
    StreamSpec s = FileStream(name, rw, file, rw == "write" ? 0 : DataBytes(), kBlockBytes);
    s.direct = true;
    s.runtime_ms = static_cast<uint64_t>(runtime_s_) * 1000;
    return s;
  }

  int64_t size_mb_ = 512;
  int runtime_s_ = 60;
  int runs_ = 2;
  int readers_ = 4;
  int writers_ = 1;
  std::string directory_;
};

}  // namespace

std::unique_ptr<Suite> MakeOrasimSuite() { return std::make_unique<OrasimSuite>(); }

}  // namespace elevbench
