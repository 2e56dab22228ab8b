#include "scenarios/nickbench/nickbench_suite.h"

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/plain_range.h"
#include "harness/engine/load_probe.h"
#include "harness/fio/fio_job_file.h"
#include "harness/fio/fio_placement.h"
#include "scenarios/nickbench/nickbench_records.h"

namespace elevbench {
namespace {

constexpr int kReaderFiles = 4;  // Bench 6 reads four files; the others reuse the first ones
constexpr int kWriterFiles = 2;

// Each stream's file lives in a directory of its own, so the filesystem spreads them apart as
// separate files of the 2003 runs were.
std::string ReaderFile(const std::string& dir, int i) {
  return dir + "/nickbench-r" + std::to_string(i) + "/data";
}
std::string WriterFile(const std::string& dir, int i) {
  return dir + "/nickbench-w" + std::to_string(i) + "/data";
}

class NickbenchSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--size", size_mb_, "MiB per stream (one file each; default 256)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(1, 1 << 20, "MiB"));
    cmd->add_option("--benches", benches_text_,
                    "Benches to run, comma separated (default 2,3,4,5,6)")
        ->type_name("LIST");
    cmd->add_option("--block", block_bytes_, "Bytes per read()/write() call (default 4096)")
        ->check(PlainRange(512, 64 << 20, "bytes"));
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    benches_.clear();
    std::stringstream ss(benches_text_);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (item.size() != 1 || item[0] < '0' + kFirstNickbench || item[0] > '0' + kLastNickbench) {
        *err = "--benches: '" + item + "' is not a bench (2, 3, 4, 5 or 6)";
        return false;
      }
      const int b = item[0] - '0';
      if (std::find(benches_.begin(), benches_.end(), b) != benches_.end()) {
        *err = "--benches: bench " + item + " is listed twice";
        return false;
      }
      benches_.push_back(b);
    }
    if (benches_.empty()) {
      *err = "--benches needs at least one bench";
      return false;
    }
    if (block_bytes_ % 512 != 0 || (static_cast<uint64_t>(size_mb_) << 20) < 2ULL * block_bytes_) {
      *err = "--block must be a multiple of 512 and at most half of --size";
      return false;
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    const uint64_t file = static_cast<uint64_t>(size_mb_) << 20;
    // Four reader files and two writer files, a quarter more for indirect blocks and spread.
    const uint64_t files = file * (kReaderFiles + kWriterFiles);
    return files + files / 4 + (64ULL << 20);
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_}, {"size_mb_per_stream", size_mb_},
            {"benches", benches_},     {"block_bytes", block_bytes_},
            {"ioengine", "psync"},     {"buffered", true}};
  }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (int b : benches_) variants.push_back({"bench" + std::to_string(b), {{"bench", b}}});
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    const int readers = NeedsReaders();
    if (readers == 0) return true;
    // The reader files, written one after another (not interleaved) and synced.
    std::vector<StreamSpec> layout;
    for (int i = 0; i < readers; ++i) {
      if (!MakeParent(ReaderFile(directory_, i), err)) return false;
      StreamSpec s = Stream("layout" + std::to_string(i), "write", ReaderFile(directory_, i));
      s.end_fsync = true;
      s.stonewall = i > 0;
      layout.push_back(s);
    }
    if (env.on_phase) env.on_phase("laying out " + std::to_string(readers) + " stream files");
    if (!LayOutWithFio(env, LegacyToolFioGlobal(), std::move(layout), "nickbench-layout",
                       env.timeout_seconds, "laying out the stream files", err)) {
      return false;
    }
    nlohmann::json files = nlohmann::json::array();
    for (int i = 0; i < readers; ++i) files.push_back(ReaderFile(directory_, i));
    *setup = {{"reader_files", files}, {"file_bytes", FileBytes()}};
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    const int bench = variant.key.at("bench").get<int>();
    for (int i = 0; i < kWriterFiles; ++i) {
      if (!MakeParent(WriterFile(env.directory, i), err)) return false;
      unlink(WriterFile(env.directory, i).c_str());  // every writer starts a new file
    }
    LoadSpec load;
    load.global = LegacyToolFioGlobal();
    load.global.thread = !env.roles_in_cgroups;  // fio moves a process into a v2 cgroup
    if (bench == 5 && !WriteBench5Log(env, err)) return false;
    load.streams = BenchStreams(bench, env);
    if (!PlaceStreams(env, &load.streams, err)) return false;
    if (env.on_phase) env.on_phase(variant.label);
    NickbenchRecord rec;
    rec.bench = bench;
    if (!RunLoadToFirstEnd(env.fio, load, env.work_dir, env.label_prefix + variant.label,
                           env.timeout_seconds, &rec.streams, &rec.elapsed_seconds, err)) {
      return false;
    }
    for (int i = 0; i < kWriterFiles; ++i) unlink(WriterFile(env.directory, i).c_str());
    Derive(&rec);
    records->push_back(NickbenchRecordToJson(rec));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    for (int i = 0; i < kReaderFiles; ++i) {
      std::filesystem::remove_all(std::filesystem::path(ReaderFile(env.directory, i)).parent_path(),
                                  ec);
    }
    for (int i = 0; i < kWriterFiles; ++i) {
      std::filesystem::remove_all(std::filesystem::path(WriterFile(env.directory, i)).parent_path(),
                                  ec);
    }
  }

  /// The readers are the probe, the writers the load (`run nickbench --controls`).
  bool HasRoles() const override { return true; }

  std::string CachePolicy(const std::string& global_drop) const override {
    return "Stream files evicted from the page cache as each reader starts" + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, NickbenchRecordsFromDocument, AggregateNickbenchRows,
                         NickbenchSummaryToJson);
  }

 private:
  uint64_t FileBytes() const { return static_cast<uint64_t>(size_mb_) << 20; }

  int NeedsReaders() const {
    int n = 0;
    for (int b : benches_) {
      n = std::max(n, b == 6 ? 4 : b == 3 ? 2 : (b == 2 || b == 5) ? 1 : 0);
    }
    return n;
  }

  StreamSpec Stream(const std::string& name, const std::string& rw, const std::string& file) const {
    StreamSpec s = FileStream(name, rw, file, FileBytes(), block_bytes_);
    // Readers start with their file out of the page cache (it was written or read before).
    if (rw == "read") s.extra.emplace_back("invalidate", "1");
    return s;
  }

  std::string Bench5LogPath(const CellEnvironment& env) const {
    return env.work_dir + "/nickbench-bench5.iolog";
  }

  // Bench 5's order of calls: read block k, then write it back, for every block of the file.
  // fio replays it exactly (read_iolog); its own rw=rw mixes directions at random.
  bool WriteBench5Log(const CellEnvironment& env, std::string* err) const {
    const std::string path = Bench5LogPath(env);
    if (access(path.c_str(), R_OK) == 0) return true;
    const std::string file = ReaderFile(env.directory, 0);
    std::string text = "fio version 2 iolog\n" + file + " add\n" + file + " open\n";
    const uint64_t blocks = FileBytes() / block_bytes_;
    text.reserve(text.size() + blocks * 2 * (file.size() + 24));
    for (uint64_t k = 0; k < blocks; ++k) {
      const std::string at = std::to_string(k * block_bytes_) + " " + std::to_string(block_bytes_);
      text += file + " read " + at + "\n" + file + " write " + at + "\n";
    }
    text += file + " close\n";
    return WriteFileAtomically(path, text, err);
  }

  // --controls: the readers are the probe role, the writers the load (bench 5's one reader
  // and writer of the same blocks is neither: it runs where the run does). They are jobs of one
  // fio, so fio's own job options place each (FioPlacementOptions).
  static bool PlaceStreams(const CellEnvironment& env, std::vector<StreamSpec>* streams,
                           std::string* err) {
    if (env.load_placement.empty() && env.probe_placement.empty()) return true;
    std::string mountinfo;
    if ((!env.load_placement.cgroup_procs.empty() || !env.probe_placement.cgroup_procs.empty()) &&
        !ReadWholeFile("/proc/self/mountinfo", &mountinfo, err)) {
      return false;
    }
    for (StreamSpec& s : *streams) {
      const ProcessPlacement* role = s.rw == "read"    ? &env.probe_placement
                                     : s.rw == "write" ? &env.load_placement
                                                       : nullptr;
      if (role != nullptr && !FioPlacementOptions(*role, mountinfo, &s.extra, err)) {
        *err = "placing " + s.name + " (--controls): " + *err;
        return false;
      }
    }
    return true;
  }

  std::vector<StreamSpec> BenchStreams(int bench, const CellEnvironment& env) const {
    const std::string& d = env.directory;
    switch (bench) {
      case 2:
        return {Stream("reader", "read", ReaderFile(d, 0)),
                Stream("writer", "write", WriterFile(d, 0))};
      case 3:
        return {Stream("reader1", "read", ReaderFile(d, 0)),
                Stream("reader2", "read", ReaderFile(d, 1))};
      case 4:
        return {Stream("writer1", "write", WriterFile(d, 0)),
                Stream("writer2", "write", WriterFile(d, 1))};
      case 5: {
        StreamSpec s = Stream("readwriter", "rw", ReaderFile(d, 0));
        s.file_size_bytes = 0;
        s.extra = {{"read_iolog", Bench5LogPath(env)}, {"invalidate", "1"}};
        return {s};
      }
      default: {
        std::vector<StreamSpec> readers;
        for (int i = 0; i < 4; ++i) {
          readers.push_back(Stream("reader" + std::to_string(i + 1), "read", ReaderFile(d, i)));
        }
        return readers;
      }
    }
  }

  static double Ratio(uint64_t a, uint64_t b) {
    return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
  }

  static void Derive(NickbenchRecord* rec) {
    uint64_t total = 0;
    for (const StreamResult& s : rec->streams) {
      total += s.bytes();
      rec->cpu_seconds += s.cpu_seconds;
    }
    const double mib = static_cast<double>(total) / (1024.0 * 1024.0);
    rec->io_rate_mb_s = rec->elapsed_seconds > 0 ? mib / rec->elapsed_seconds : 0;
    rec->fairness = FairnessOf(rec->streams);
    const auto& s = rec->streams;
    switch (rec->bench) {
      case 2:
        rec->metric = Ratio(s[0].bytes_read, s[1].bytes_written);
        break;
      case 3:
      case 4:
        rec->metric = Ratio(s[0].bytes(), s[1].bytes());
        break;
      case 5:
        rec->metric = mib > 0 ? rec->cpu_seconds * 1e6 / mib : 0;
        break;
      default:
        rec->metric = rec->fairness.min_max_ratio;
        break;
    }
  }

  static bool MakeParent(const std::string& file, std::string* err) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
    if (ec) {
      *err = "cannot create " + std::filesystem::path(file).parent_path().string() + ": " +
             ec.message();
      return false;
    }
    return true;
  }

  int64_t size_mb_ = 256;
  uint32_t block_bytes_ = 4096;
  std::string benches_text_ = "2,3,4,5,6";
  std::vector<int> benches_;
  std::string directory_;
};

}  // namespace

std::unique_ptr<Suite> MakeNickbenchSuite() { return std::make_unique<NickbenchSuite>(); }

}  // namespace elevbench
