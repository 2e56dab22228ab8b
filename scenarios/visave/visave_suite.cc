#include "scenarios/visave/visave_suite.h"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "harness/core/interrupt.h"
#include "harness/core/plain_range.h"
#include "harness/engine/load_probe.h"
#include "harness/fio/fio_job_file.h"
#include "harness/process/self_placement.h"
#include "scenarios/visave/vi_save.h"
#include "scenarios/visave/visave_records.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kFileBytes = 200;  // "to save a 200 bytes file on ext3"
constexpr uint32_t kBlockBytes = 1 << 20;

std::string SaveDir(const std::string& dir) { return dir + "/visave"; }
std::string SavedFile(const std::string& dir) { return SaveDir(dir) + "/somefile"; }
std::string LoadFile(const std::string& dir) { return dir + "/visave-load/data"; }

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Sleeps `seconds` in 50 ms steps; false as soon as an interrupt arrives.
bool InterruptibleSleep(double seconds) {
  const auto start = std::chrono::steady_clock::now();
  while (Since(start) < seconds) {
    if (InterruptRequested()) return false;
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::min(0.05, seconds - Since(start))));
  }
  return !InterruptRequested();
}

class VisaveSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--saves", saves_, "Saves per configuration (default 9, as the seed)")
        ->check(PlainRange(1, 100000, "saves"));
    cmd->add_option("--interval", interval_seconds_,
                    "Seconds between the end of a save and the next (default 10; the 2005 "
                    "report slept 60)")
        ->check(PlainRange(0.0, 86400.0, "seconds"));
    cmd->add_option("--load-size", load_mb_,
                    "MiB of the file the buffered writer loops over (default 1024)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(1, 1 << 20, "MiB"));
    cmd->add_option("--warmup", warmup_seconds_,
                    "Seconds the writer runs before the first save (default 10)")
        ->check(PlainRange(0.0, 3600.0, "seconds"));
  }

  bool Prepare(const MachineInfo&, std::string*) override { return true; }

  /// The buffered writer is the load, the saver the probe (`run visave --controls`).
  bool HasRoles() const override { return true; }

  uint64_t BytesNeeded() const override {
    const uint64_t load = static_cast<uint64_t>(load_mb_) << 20;
    return load + load / 8 + (64ULL << 20);
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"saves", saves_},
            {"interval_seconds", interval_seconds_},
            {"file_bytes", kFileBytes},
            {"load_size_mb", load_mb_},
            {"warmup_seconds", warmup_seconds_},
            {"block_bytes", kBlockBytes}};
  }

  std::vector<SuiteVariant> Variants() const override { return {{"vi-save", {}}}; }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    std::error_code ec;
    fs::create_directories(SaveDir(env.directory), ec);
    if (!ec) fs::create_directories(fs::path(LoadFile(env.directory)).parent_path(), ec);
    if (ec) {
      *err = "cannot make " + SaveDir(env.directory) + ": " + ec.message();
      return false;
    }
    SaveTiming ignored;
    if (!ViStyleSave(SavedFile(env.directory), ViSaveContent(kFileBytes), &ignored, err)) {
      return false;
    }
    // The writer overwrites a file that exists, in every cell alike.
    if (env.on_phase) env.on_phase("laying out the writer's file");
    StreamSpec s = Writer(env.directory);
    s.name = "layout";
    s.runtime_ms = 0;
    s.end_fsync = true;
    if (!LayOutWithFio(env, LegacyToolFioGlobal(), {s}, "visave-layout", 0,
                       "laying out the writer's file", err)) {
      return false;
    }
    *setup = {{"saved_file", SavedFile(env.directory)},
              {"file_bytes", kFileBytes},
              {"load_file", LoadFile(env.directory)},
              {"load_file_bytes", static_cast<uint64_t>(load_mb_) << 20}};
    return true;
  }

  bool RunCell(const SuiteVariant&, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    LoadSpec load;
    load.global = LegacyToolFioGlobal();
    load.streams = {Writer(env.directory)};
    load.placement = env.load_placement;  // --controls: the writer is the load role
    VisaveRecord rec;
    rec.interval_seconds = interval_seconds_;
    rec.file_bytes = kFileBytes;
    const std::string path = SavedFile(env.directory);
    const std::string content = ViSaveContent(kFileBytes);
    auto saves = [&](std::string* e) {
      const auto first = std::chrono::steady_clock::now();
      for (int64_t i = 0; i < saves_; ++i) {
        if (i > 0 && !InterruptibleSleep(interval_seconds_)) {
          *e = "interrupted between saves";
          return false;
        }
        if (env.on_phase) {
          env.on_phase("save " + std::to_string(i + 1) + " of " + std::to_string(saves_));
        }
        VisaveSave s;
        s.started_seconds = Since(first);
        // --controls: the saver is the probe role; the harness saves, so it places itself.
        ScopedSelfPlacement placed;
        if (!placed.Apply(env.probe_placement, e) || !ViStyleSave(path, content, &s.timing, e) ||
            !placed.Undo(e)) {
          *e = "save " + std::to_string(i + 1) + ": " + *e;
          return false;
        }
        (void)rec.histogram.Record(static_cast<uint64_t>(s.timing.wall_seconds * 1e9));
        rec.saves.push_back(s);
      }
      return true;
    };
    if (env.on_phase) env.on_phase("writer warm-up");
    if (!RunLoadAround(env.fio, load, warmup_seconds_, 0, saves, env.work_dir,
                       env.label_prefix + "visave", &rec.load, &rec.warmup_seconds, err)) {
      return false;
    }
    records->push_back(VisaveRecordToJson(rec));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    fs::remove_all(SaveDir(env.directory), ec);
    fs::remove_all(fs::path(LoadFile(env.directory)).parent_path(), ec);
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return "The saved file is written, never read: nothing of it to evict" + global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, VisaveRecordsFromDocument, AggregateVisaveRows, VisaveSummaryToJson);
  }

 private:
  // The heavy buffered writer: `dd bs=1M` through the page cache, looping over its file.
  StreamSpec Writer(const std::string& dir) const {
    StreamSpec s = FileStream("buffered-writer", "write", LoadFile(dir),
                              static_cast<uint64_t>(load_mb_) << 20, kBlockBytes);
    s.runtime_ms = 7ULL * 24 * 3600 * 1000;  // runs until stopped
    return s;
  }

  int64_t saves_ = 9;
  double interval_seconds_ = 10;
  int64_t load_mb_ = 1024;
  double warmup_seconds_ = 10;
  std::string directory_;
};

}  // namespace

std::unique_ptr<Suite> MakeVisaveSuite() { return std::make_unique<VisaveSuite>(); }

}  // namespace elevbench
