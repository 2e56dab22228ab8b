// The skeleton suite: every part of a suite in one file, each hook saying when the run calls it
// and what the run expects of it, as fio's engines/skeleton_external.c shows an engine. It is
// compiled and run by the tests only: it is in no table (not `elevbench list suites`, not the
// README), and the tests at the end run it through the session loop on a fake fio and render
// its table. docs/architecture.md ("Adding a suite") points here.
//
// Its workload is the smallest that has every part: SetUp lays out one file of --size MiB, and
// each cell reads it through once with fio at one of --block-sizes (a variant per block size).
//
// A real suite NAME spreads these parts over the layers (scripts/check-layers refuses an
// include that points up), each a file of its own:
//   1. records       scenarios/NAME/NAME_records.{h,cc}       (scenarios/orasim/orasim_records.h)
//   2. measurements  scenarios/NAME/NAME_measurements.{h,cc}  (orasim_measurements.h)
//   3. the suite     scenarios/NAME/NAME_suite.{h,cc}         (orasim_suite.h: only its Make*)
//   4. renderer      reporters/NAME_text.{h,cc}               (reporters/orasim_text.h)
//   5. table row     app/suites.cc, in AllSuites()            (the "orasim" row)
//   6. tests         tests/NAME_suite_test.cc, tests/NAME_text_test.cc (a golden in golden/)
// Parts 1, 2 and 4 are declared in their headers with `///` docs; the suite's class lives in an
// anonymous namespace of its .cc, so its header is one factory. Here everything is in one
// anonymous namespace, every name starting with Skeleton (tests/ is a unity build: names in
// anonymous namespaces must be unique over the folder).

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "app/suites.h"
#include "fakes.h"
#include "harness/core/json_field_table.h"
#include "harness/core/plain_range.h"
#include "harness/engine/load_probe.h"
#include "harness/fio/fio_runner.h"
#include "harness/results/record_header.h"
#include "harness/results/stream_result.h"
#include "harness/run/run_session.h"
#include "harness/run/suite.h"
#include "harness/stats/measurement.h"
#include "harness/stats/statistics.h"
#include "reporters/environment_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"
#include "test_util.h"

namespace elevbench {
namespace {

// ---- 1. Records (scenarios/NAME/NAME_records.{h,cc}) ----------------------------------------
// A record is what one cell measured, plain data: RunCell writes it as JSON, and everything
// after the run (summary, renderer, measurer, compare, history) reads it back from the results
// file. It starts with the header the session fills (scheduler, identifier, label, repetition).

/// One read of the file at one block size.
struct SkeletonRecord : RecordHeader {
  uint32_t block_kib = 0;      ///< the variant: fio's bs= in KiB
  double elapsed_seconds = 0;  ///< fio's runtime of the read
  uint64_t bytes = 0;          ///< bytes read
  double rate_mb_s = 0;        ///< bytes / 2^20 / elapsed_seconds (MB = MiB, as every _mb_s)
  double cpu_seconds = 0;      ///< fio's thread's user + system CPU
};

// One table names the fields for both directions, so writer and reader cannot disagree.
constexpr JsonField<SkeletonRecord> kSkeletonFields[] = {
    {"block_kib", &SkeletonRecord::block_kib},
    {"elapsed_seconds", &SkeletonRecord::elapsed_seconds},
    {"bytes", &SkeletonRecord::bytes},
    {"rate_mb_s", &SkeletonRecord::rate_mb_s},
    {"cpu_seconds", &SkeletonRecord::cpu_seconds},
};

/// The record's JSON object: the header's fields and kSkeletonFields.
nlohmann::json SkeletonRecordToJson(const SkeletonRecord& r) {
  nlohmann::json j = nlohmann::json::object();
  WriteJsonFields(kSkeletonFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

/// Reads a record back; err names the key. Checks what the JSON types cannot (a block of 0).
bool SkeletonRecordFromJson(const nlohmann::json& j, SkeletonRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a skeleton record object";
    return false;
  }
  SkeletonRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kSkeletonFields, j, &r, err)) return false;
  if (r.block_kib == 0) {
    *err = "block_kib: expected 1 or more";
    return false;
  }
  *out = std::move(r);
  return true;
}

/// Every record of a document (err prefixed "records[i]: "): what Summarize, the renderer and
/// the measurer start from.
bool SkeletonRecordsFromDocument(const ResultsDocument& doc, std::vector<SkeletonRecord>* out,
                                 std::string* err) {
  return ReadDocumentRecords(doc, SkeletonRecordFromJson, out, err);
}

/// A printed row: one configuration at one block size, over its repetitions.
struct SkeletonRow {
  std::string identifier;
  std::string label;
  uint32_t block_kib = 0;
  double rate_mb_s = 0;      ///< harmonic mean over the repetitions (a rate)
  uint32_t repetitions = 0;  ///< records averaged; 0 for a row whose every cell failed
};

/// Rows in `given_order` of configurations (then any others, ConfigurationOrder), each
/// configuration's block sizes in the order its records came (the variants' order).
std::vector<SkeletonRow> AggregateSkeletonRows(const std::vector<SkeletonRecord>& records,
                                               const std::vector<std::string>& given_order) {
  std::vector<SkeletonRow> rows;
  for (const std::string& id : ConfigurationOrder(given_order, records)) {
    std::vector<uint32_t> blocks;
    for (const SkeletonRecord& r : records) {
      if (r.identifier == id &&
          std::find(blocks.begin(), blocks.end(), r.block_kib) == blocks.end())
        blocks.push_back(r.block_kib);
    }
    for (uint32_t block : blocks) {
      SkeletonRow row{id, "", block};
      std::vector<double> rates;
      for (const SkeletonRecord& r : records) {
        if (r.identifier != id || r.block_kib != block) continue;
        if (row.label.empty()) row.label = r.label;
        rates.push_back(r.rate_mb_s);
      }
      row.rate_mb_s = Summarize(rates, MeanKind::kHarmonic).mean;
      row.repetitions = static_cast<uint32_t>(rates.size());
      rows.push_back(row);
    }
  }
  return rows;
}

/// The results file's summary block (Suite::Summarize through SummarizeRows).
nlohmann::json SkeletonSummaryToJson(const std::vector<SkeletonRow>& rows) {
  nlohmann::json summary = nlohmann::json::array();
  for (const SkeletonRow& row : rows) {
    summary.push_back({{"identifier", row.identifier},
                       {"label", row.label},
                       {"block_kib", row.block_kib},
                       {"rate_mb_s", row.rate_mb_s},
                       {"repetitions", row.repetitions}});
  }
  return summary;
}

// ---- 2. Measurements (scenarios/NAME/NAME_measurements.{h,cc}) -------------------------------
// The tidy view of the records (harness/stats/measurement.h): one number per metric per record,
// each with its unit, direction, mean and whether it is a headline. Statistics, the verdict,
// `--repetitions auto`, compare, the history and the generic formats (md, csv, html) read only
// these, so a suite gets all of them by writing this one function (a SuiteMeasurer).

/// Per record, section "read", row "block=<N>k": rate_mb_s (the headline, "Rate"),
/// elapsed_seconds and cpu_seconds.
bool SkeletonMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                          std::string* err) {
  std::vector<SkeletonRecord> records;
  if (!SkeletonRecordsFromDocument(doc, &records, err)) return false;
  for (const SkeletonRecord& r : records) {
    RecordMeasurements add("skeleton", "read", r, out);
    add.SetRow("block=" + std::to_string(r.block_kib) + "k");
    add({"rate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true, "Rate"},
        r.rate_mb_s);
    add({"elapsed_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.elapsed_seconds);
    add({"cpu_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.cpu_seconds);
  }
  return true;
}

// ---- 3. The suite (scenarios/NAME/NAME_suite.{h,cc}; harness/run/suite.h is the contract) ----
// The run calls the hooks in this order: AddOptions (before parsing), Prepare, BytesNeeded,
// CheckTarget, HostPaths (with --kernels), HasRoles (with --controls), Parameters, Variants,
// SetUp once, RunCell per cell (configurations × variants × repetitions), TearDown once on
// every path, CachePolicy and Summarize for the results file. Every error is one line in *err.

class SkeletonSuite : public Suite {
 public:
  // Its own options, on `run NAME` (the run's own flags, --schedulers, --dir …, are not the
  // suite's). Check ranges here with CLI11's validators, so a bad value is refused by the
  // parser with the option's name; a check across options goes in Prepare.
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("--size", size_mb_, "MiB of the file every cell reads (default 64)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(1, 1 << 20, "MiB"));
    cmd->add_option("--block-sizes", block_kib_, "KiB per read, one variant each (default 4,64)")
        ->delimiter(',')
        ->check(PlainRange(1, 16384, "KiB"));
    cmd->add_option("--log", log_, "Append a line per cell to this file of the host");
  }

  // After parsing, before anything is made: checks across options and fills the defaults that
  // depend on the machine (`machine` is the one the run emulates with --machine). The skeleton
  // refuses a block larger than its file.
  bool Prepare(const MachineInfo& /*machine*/, std::string* err) override {
    for (uint32_t kib : block_kib_) {
      if (static_cast<uint64_t>(kib) << 10 > FileBytes()) {
        *err = "--block-sizes " + std::to_string(kib) + " is larger than --size";
        return false;
      }
    }
    return true;
  }

  // What its files take on the target, so that a scratch or emulated device is made big enough
  // and a --device that cannot hold them is refused. Add room for the filesystem's own.
  uint64_t BytesNeeded() const override { return FileBytes() + (16ULL << 20); }

  // The target as the command line names it, before anything is made (fiojobs: a job file's
  // paths outside --dir; replay: a trace's writes on the user's --device). The skeleton
  // refuses a --log inside its own folder, which TearDown removes.
  bool CheckTarget(const TargetFacts& facts, std::string* err) override {
    if (!log_.empty() && !facts.directory.empty()) {
      const std::string mine = facts.directory + "/skeleton/";
      if (log_.rfind(mine, 0) == 0) {
        *err = "--log " + log_ + " is in " + mine + ", which the run removes";
        return false;
      }
    }
    return true;
  }

  // The host's files its options name (a trace, a job file, a program): `run --kernels` refuses
  // those a guest cannot reach before anything is made. `written` for a file the run writes.
  std::vector<HostPathUse> HostPaths() const override {
    if (log_.empty()) return {};
    return {{"--log", log_, /*written=*/true}};
  }

  // True only for a suite whose cells run a load beside a probe, placing each role as
  // CellEnvironment's load_placement and probe_placement say (probes, contest, command
  // --load): only such a suite takes --controls. The skeleton has one role.
  bool HasRoles() const override { return false; }

  // Everything that decides its numbers, for the results file (and so for compare and report).
  nlohmann::json Parameters() const override {
    return {{"size_mb", size_mb_}, {"block_kib", block_kib_}, {"direct", false}};
  }

  // The cells of one configuration, in run order; `key` is recorded in the cell (and read back
  // by the renderer's InsertFailedRows), `label` is for progress lines.
  std::vector<SuiteVariant> Variants() const override {
    std::vector<SuiteVariant> variants;
    for (uint32_t kib : block_kib_) {
      variants.push_back({"bs=" + std::to_string(kib) + "k", {{"block_kib", kib}}});
    }
    return variants;
  }

  // (VariantTakesLanes, WantsRawDevice: the defaults. A suite whose cells drop the machine's
  // caches keeps them out of --lanes; replay's cells want a raw device, no filesystem.)

  // Once per run before the first cell (and again before each with --fresh-fs): lays out what
  // every configuration reads, so all read the same layout. `setup` goes into the results file.
  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    std::error_code ec;
    std::filesystem::create_directories(Dir(env), ec);
    if (ec) {
      *err = "cannot create " + Dir(env) + ": " + ec.message();
      return false;
    }
    StreamSpec layout = FileStream("layout", "write", File(env), FileBytes(), 1 << 20);
    layout.end_fsync = true;
    if (env.on_phase) env.on_phase("laying out the file");
    if (!LayOutWithFio(env, FioGlobalSpec{}, {layout}, "skeleton-layout", env.timeout_seconds,
                       "laying out the file", err)) {
      return false;
    }
    *setup = {{"file", File(env)}, {"file_bytes", FileBytes()}};
    return true;
  }

  // One cell: all bulk I/O through env.fio (a fake in the tests), its files in env.work_dir
  // named from env.label_prefix, within env.timeout_seconds. Appends its records; the session
  // adds the header's fields. A false return fails this cell only; the run goes on.
  bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    SkeletonRecord rec;
    rec.block_kib = variant.key.at("block_kib").get<uint32_t>();
    FioInvocation read;
    read.streams = {FileStream("reader", "read", File(env), FileBytes(), rec.block_kib << 10)};
    read.work_dir = env.work_dir;
    read.label = env.label_prefix + variant.label;
    read.timeout_seconds = env.timeout_seconds;
    if (env.on_phase) env.on_phase("reading at " + variant.label);
    FioRunResult result;
    if (!env.fio->Run(read, &result, err)) return false;
    const std::vector<StreamResult> streams = StreamResultsFromFio(result, 0);
    if (streams.size() != 1) {
      *err = "fio reported " + std::to_string(streams.size()) + " jobs, expected 1";
      return false;
    }
    rec.elapsed_seconds = streams[0].runtime_seconds;
    rec.bytes = streams[0].bytes();
    rec.cpu_seconds = streams[0].cpu_seconds;
    if (rec.elapsed_seconds > 0) {
      rec.rate_mb_s = static_cast<double>(rec.bytes) / (1 << 20) / rec.elapsed_seconds;
    }
    if (!log_.empty()) std::ofstream(log_, std::ios::app) << variant.label << "\n";
    records->push_back(SkeletonRecordToJson(rec));
    return true;
  }

  // Once after the last cell, on every exit path (a failed cell, an interrupt): removes what
  // SetUp laid out. It cannot fail the run.
  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    std::filesystem::remove_all(Dir(env), ec);
  }

  // The header's line on caches: what the suite itself does, and the run's global drop
  // (`global_drop`, "; all caches dropped before each cell" or "") where it reads right.
  std::string CachePolicy(const std::string& global_drop) const override {
    return "buffered reads: the file may be in the page cache" + global_drop;
  }

  // The results file's summary: the records aggregated (SummarizeRows does it for every suite
  // whose rows have a reader, an aggregation and a JSON form).
  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, SkeletonRecordsFromDocument, AggregateSkeletonRows,
                         SkeletonSummaryToJson);
  }

 private:
  uint64_t FileBytes() const { return static_cast<uint64_t>(size_mb_) << 20; }
  static std::string Dir(const CellEnvironment& env) { return env.directory + "/skeleton"; }
  static std::string File(const CellEnvironment& env) { return Dir(env) + "/data"; }

  int64_t size_mb_ = 64;
  std::vector<uint32_t> block_kib_ = {4, 64};
  std::string log_;
};

/// The suite's header declares only this: the table of suites calls it.
std::unique_ptr<Suite> MakeSkeletonSuite() { return std::make_unique<SkeletonSuite>(); }

// ---- 4. Text renderer (reporters/NAME_text.{h,cc}) -------------------------------------------
// The suite's own layouts (a 2003 post's, for the legacy suites). It reads the records, never
// the summary, and prints a row for a configuration whose every cell failed (InsertFailedRows),
// so a failure is never a missing line. RenderSuiteReport does the reading and the labels.

/// The table: the environment header, the means line, "Config  Block  Rate" and a row per
/// configuration × block size, a short row marked.
std::string RenderSkeletonText(const nlohmann::json& context,
                               const std::vector<SkeletonRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const SkeletonRow& row : rows) repetitions.push_back(row.repetitions);
  const uint32_t requested = RequestedRepetitions(context);
  out << RenderEnvironmentHeader(context, kUnitsMebibytes) << "Skeleton: one file read through\n"
      << MeansLine(repetitions, "Rate is a harmonic mean") << "Config  Block     Rate\n";
  for (const SkeletonRow& row : rows) {
    char line[96];
    const std::string label = row.label.empty() ? row.identifier : row.label;
    const std::string block = std::to_string(row.block_kib) + " KiB";
    if (row.repetitions == 0) {
      std::snprintf(line, sizeof line, "%-6s  %-6s  failed", label.c_str(), block.c_str());
    } else {
      std::snprintf(line, sizeof line, "%-6s  %-6s  %6.2f MB/s", label.c_str(), block.c_str(),
                    row.rate_mb_s);
    }
    out << line << ShortRowMark(row.repetitions, requested) << "\n";
  }
  return out.str();
}

/// The suite's renderer (a SuiteRenderer): format "table" only; err for another format or
/// records that are not the skeleton's.
bool RenderSkeletonReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                          std::string* err) {
  return RenderSuiteReport(
      doc, format, {"skeleton", {"table"}}, SkeletonRecordsFromDocument, AggregateSkeletonRows,
      [&](std::vector<SkeletonRow> rows) {
        InsertFailedRows(
            doc, "block_kib", &rows,
            [](const SkeletonRow& r, const nlohmann::json& key) {
              return key.is_number() && r.block_kib == key.get<uint32_t>();
            },
            [](const nlohmann::json& key) {
              SkeletonRow row;
              row.block_kib = key.is_number() ? key.get<uint32_t>() : 0;
              return row;
            });
        return RenderSkeletonText(doc.context, rows);
      },
      text, err);
}

// ---- 5. The table row (app/suites.cc, AllSuites()) -------------------------------------------
// One row puts the suite on the command line (`run NAME`, its --format), in `list suites`,
// `report`, compare, the history and scripts/killsweep; tests/suites_test.cc checks every row
// has a renderer, a measurer and smoke arguments. The skeleton's row is here, not in the table.

/// The skeleton's row, as it would read in AllSuites().
SuiteEntry SkeletonEntry() {
  return {.name = "skeleton",
          .description = "The skeleton suite: one file read through at each block size",
          .make = MakeSkeletonSuite,
          .formats = {"table"},
          .render = RenderSkeletonReport,
          .measure = SkeletonMeasurements,
          // plot_series: null (no latency histograms or streams over time to draw).
          .smoke_args = "--schedulers none,mq-deadline --size 8 --block-sizes 4",
          .smoke_size = "64M",
          // --lanes: a lane of one CPU measures what the suite measures alone.
          .lane_cpus = 1};
}

// ---- 6. Its tests (tests/NAME_suite_test.cc, tests/NAME_text_test.cc) -------------------------

// The suite of the row, parsed from `args` and prepared on an unknown machine.
std::unique_ptr<Suite> PreparedSkeleton(const std::string& args, std::string* err) {
  std::unique_ptr<Suite> suite = SkeletonEntry().make();
  CLI::App app;
  suite->AddOptions(&app);
  app.parse(args, false);
  if (!suite->Prepare(MachineInfo{}, err)) return nullptr;
  return suite;
}

TEST(SkeletonSuiteTest, IsInNoTable) {
  EXPECT_EQ(FindSuite("skeleton"), nullptr);
  EXPECT_EQ(FormatChoices("skeleton"), "");
}

TEST(SkeletonSuiteTest, RunsThroughTheSessionAndRendersItsTable) {
  testing::ScopedTempDir dir;
  const std::string log = dir.path() + "/cells.log";
  std::string err;
  std::unique_ptr<Suite> suite = PreparedSkeleton("--size 8 --block-sizes 4,64 --log " + log, &err);
  ASSERT_NE(suite, nullptr) << err;
  SessionConfig config;
  config.identifiers = {"k-dl", "k-bfq"};
  config.labels = {"DL", "BFQ"};
  config.repetitions = 2;
  config.out_path = dir.path() + "/r.json";
  config.work_dir = dir.path();
  config.measure = SkeletonEntry().measure;
  SessionTarget target;
  target.directory = dir.path();
  ResultsDocument doc;
  doc.suite = "skeleton";
  doc.context = {{"repetitions", 2}};
  testing::FakeFio fio;  // every job moves its stream's bytes in one second
  Progress progress(stderr, false);
  size_t failed = 0;
  ASSERT_TRUE(RunSession(*suite, config, target, &fio, &progress, &doc, &failed, &err)) << err;
  EXPECT_EQ(failed, 0u);
  ASSERT_EQ(doc.cells.size(), 2u * 2 * 2);  // configurations × block sizes × repetitions
  EXPECT_EQ(fio.runs.size(), 1u + 8);       // the layout, then a read per cell
  EXPECT_EQ(std::count_if(fio.runs.begin(), fio.runs.end(),
                          [](const FioInvocation& r) {
                            return r.streams[0].rw == "read" &&
                                   r.streams[0].block_size_bytes == 64 * 1024;
                          }),
            4);  // a variant's block size in each of its cells
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/skeleton"));  // TearDown ran
  EXPECT_EQ(doc.summary.size(), 4u);
  EXPECT_EQ(doc.summary[0]["rate_mb_s"], 8.0);  // 8 MiB in the fake's 1 s

  std::string text;
  ASSERT_TRUE(SkeletonEntry().render(doc, "table", &text, &err)) << err;
  EXPECT_NE(text.find("(means of 2 repetitions; Rate is a harmonic mean)\n"
                      "Config  Block     Rate\n"
                      "DL      4 KiB     8.00 MB/s\n"
                      "DL      64 KiB    8.00 MB/s\n"
                      "BFQ     4 KiB     8.00 MB/s\n"
                      "BFQ     64 KiB    8.00 MB/s\n"),
            std::string::npos)
      << text;
  std::vector<Measurement> measurements;
  ASSERT_TRUE(SkeletonEntry().measure(doc, &measurements, &err)) << err;
  EXPECT_EQ(measurements.size(), 8u * 3);  // a record per cell, three metrics each
  std::ifstream lines(log);
  EXPECT_EQ(std::count(std::istreambuf_iterator<char>(lines), {}, '\n'), 8);
}

TEST(SkeletonSuiteTest, AFailedCellIsARowThatSaysSo) {
  testing::ScopedTempDir dir;
  std::string err;
  std::unique_ptr<Suite> suite = PreparedSkeleton("--size 8 --block-sizes 4", &err);
  ASSERT_NE(suite, nullptr) << err;
  SessionConfig config;
  config.identifiers = {"k-dl", "k-bfq"};
  config.labels = {"DL", "BFQ"};
  config.out_path = dir.path() + "/r.json";
  config.work_dir = dir.path();
  SessionTarget target;
  target.directory = dir.path();
  ResultsDocument doc;
  doc.suite = "skeleton";
  testing::FakeFio fio;
  fio.failing_runs = {3};  // the layout, the first cell's read, then the second cell's fails
  Progress progress(stderr, false);
  size_t failed = 0;
  ASSERT_TRUE(RunSession(*suite, config, target, &fio, &progress, &doc, &failed, &err)) << err;
  EXPECT_EQ(failed, 1u);
  ASSERT_EQ(doc.cells.size(), 2u);
  EXPECT_EQ(doc.cells[1].status, "failed");  // the plan's order of configurations is shuffled
  const bool dl_failed = doc.cells[1].identifier == "k-dl";
  std::string text;
  ASSERT_TRUE(SkeletonEntry().render(doc, "table", &text, &err)) << err;
  EXPECT_NE(text.find(dl_failed ? "DL      4 KiB   failed\nBFQ     4 KiB     8.00 MB/s\n"
                                : "DL      4 KiB     8.00 MB/s\nBFQ     4 KiB   failed\n"),
            std::string::npos)
      << text;
  EXPECT_FALSE(SkeletonEntry().render(doc, "nick", &text, &err));
  EXPECT_EQ(err, "skeleton results print as table, not 'nick'");
}

TEST(SkeletonSuiteTest, TheHooksRefuseWhatTheyMust) {
  std::string err;
  EXPECT_EQ(PreparedSkeleton("--size 1 --block-sizes 2048", &err), nullptr);
  EXPECT_EQ(err, "--block-sizes 2048 is larger than --size");
  std::unique_ptr<Suite> suite = PreparedSkeleton("--log /t/skeleton/log", &err);
  ASSERT_NE(suite, nullptr) << err;
  EXPECT_EQ(suite->BytesNeeded(), (64ULL + 16) << 20);
  EXPECT_FALSE(suite->HasRoles());
  ASSERT_EQ(suite->HostPaths().size(), 1u);
  EXPECT_TRUE(suite->HostPaths()[0].written);
  TargetFacts facts;
  facts.directory = "/t";
  EXPECT_FALSE(suite->CheckTarget(facts, &err));
  EXPECT_EQ(err, "--log /t/skeleton/log is in /t/skeleton/, which the run removes");
  facts.directory = "/u";
  EXPECT_TRUE(suite->CheckTarget(facts, &err)) << err;
}

}  // namespace
}  // namespace elevbench
