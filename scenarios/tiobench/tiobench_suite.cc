#include "scenarios/tiobench/tiobench_suite.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <limits>
#include <sstream>

#include "harness/core/plain_range.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "scenarios/tiobench/tiobench_runner.h"

namespace elevbench {
namespace {

// The largest --size, 16 TiB in MiB: larger than any disk a run sizes its files for, and small
// enough that the bytes it names fit in 64 bits.
constexpr int64_t kMaxSizeMiB = int64_t{1} << 24;

class TiobenchSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    size_option_ = cmd->add_option("--size", size_mb_,
                                   "Total file size in MiB over all threads (default 2xRAM, "
                                   "200..2000)")
                       ->type_name("SIZE")
                       ->transform(MiBSize())
                       ->check(PlainRange(int64_t{1}, kMaxSizeMiB, "MiB"));
    cmd->add_option("--threads", threads_text_,
                    "Thread counts, comma separated, each 1 to 4096 (default 1,2,4,8)")
        ->type_name("LIST");
    cmd->add_option("--block", params_.block_bytes,
                    "Bytes per read()/write() call, a multiple of 512 (default 4096)")
        ->check(PlainRange(512, 64 << 20, "bytes"));
    cmd->add_option("--random", params_.random_ops,
                    "Random I/O operations over all threads, at least one per thread (default "
                    "4000)")
        ->check(PlainRange(uint64_t{1}, std::numeric_limits<uint64_t>::max(), "operations"));
    cmd->add_option("--numruns", params_.numruns, "tiotest runs pooled per row (default 1)")
        ->check(PlainRange(1, 1000, "runs"));
    cmd->add_flag("--nofrag", params_.nofrag,
                  "Threads write their files one after another (tiobench.pl --nofrag; default "
                  "off)");
  }

  bool Prepare(const MachineInfo& machine, std::string* err) override {
    if (size_option_ != nullptr && size_option_->count() > 0) {
      if (size_mb_ <= 0) {
        *err = "--size: expected 1 to " + std::to_string(kMaxSizeMiB) + " MiB, not '" +
               std::to_string(size_mb_) + "'";
        return false;
      }
      params_.size_mb = static_cast<uint64_t>(size_mb_);
    } else {
      params_.size_mb = DefaultTiobenchSizeMb(machine.memory_bytes);
    }
    params_.threads.clear();
    std::stringstream ss(threads_text_);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        size_t used = 0;
        const long v = std::stol(item, &used);
        if (used != item.size() || v <= 0 || v > 4096) throw std::out_of_range("threads");
        params_.threads.push_back(static_cast<uint32_t>(v));
      } catch (const std::exception&) {
        *err = "--threads: '" + item + "' is not a thread count between 1 and 4096";
        return false;
      }
      // #45, fourth pass: a count given twice ran its rows twice; the other lists refuse alike.
      if (std::count(params_.threads.begin(), params_.threads.end(), params_.threads.back()) > 1) {
        *err = "--threads: '" + item + "' is listed twice";
        return false;
      }
    }
    return ValidateTiobenchParams(params_, err);
  }

  uint64_t BytesNeeded() const override {
    // The files, a quarter more for ext2's indirect blocks and free-space spread, and room for
    // the filesystem's own metadata.
    return (params_.size_mb << 20) + (params_.size_mb << 20) / 4 + (64ULL << 20);
  }

  nlohmann::json Parameters() const override { return TiobenchParamsToJson(params_); }

  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (uint32_t t : params_.threads) {
      variants.push_back({"threads=" + std::to_string(t), {{"threads", t}}});
    }
    return variants;
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json*, std::string*) override {
    params_.directory = env.directory;
    return true;
  }

  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    TiobenchParams params = params_;
    params.directory = env.directory;
    TioCellHooks hooks;
    hooks.fio = env.fio;
    hooks.on_phase = env.on_phase;
    hooks.fio_work_dir = env.work_dir;
    hooks.fio_label_prefix = env.label_prefix;
    hooks.phase_timeout_seconds = env.timeout_seconds;
    std::vector<TioPhaseMeasurement> measurements;
    if (!RunTioCell(params, variant.key.at("threads").get<uint32_t>(), hooks, &measurements, err)) {
      return false;
    }
    for (const TioPhaseMeasurement& m : measurements) {
      TioRecord r;
      r.measurement = m;
      r.metrics = DeriveTioRow(m);
      records->push_back(TioRecordToJson(r));
    }
    return true;
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return "Test files evicted from the page cache before each read phase" + global_drop +
           " (the 2003 runs used a 2xRAM file set instead)";
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, TioRecordsFromDocument, AggregateTioRows, TioSummaryToJson);
  }

 private:
  TiobenchParams params_;
  int64_t size_mb_ = 0;
  CLI::Option* size_option_ = nullptr;
  std::string threads_text_ = "1,2,4,8";
};

}  // namespace

std::unique_ptr<Suite> MakeTiobenchSuite() { return std::make_unique<TiobenchSuite>(); }

}  // namespace elevbench
