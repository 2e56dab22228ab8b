// `disk calibrate`'s pure part (harness/run/disk_calibration.h, harness/disk/drive_figures.h,
// reporters/calibration_text.h): the job files, the figure each check reads from fio's result,
// the rows against the real drive's figures and their tolerance, the checks run in order with a
// fake fio, and the table and JSON as goldens; and DiskCalibrateRootTest, the command on a
// real emulated drive, leaving nothing behind.

#include "harness/run/disk_calibration.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "fakes.h"
#include "harness/device/restore_journal.h"
#include "harness/disk/disk_model.h"
#include "harness/disk/drive_figures.h"
#include "harness/process/subprocess.h"
#include "harness/run/disk_calibration_command.h"
#include "reporters/calibration_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

using C = CalibrationCheck;

// Every profile, those `disk profiles` has and the real drives' (which the model may not
// have yet): each check claimed or left once, a claim with a source and a positive range.
TEST(DriveFiguresTest, EveryCheckIsClaimedOrLeftOnceForEveryProfile) {
  std::vector<std::string> names = DiskProfileNames();
  for (const char* drive : {"hus728t8", "st2000dm006", "870evo", "pm883", "no-such"}) {
    names.push_back(drive);
  }
  for (const std::string& name : names) {
    const DriveFigures d = DriveFiguresOf(name);
    EXPECT_EQ(d.profile, name);
    std::multiset<C> seen;
    for (const PublishedFigure& f : d.figures) {
      seen.insert(f.check);
      EXPECT_FALSE(f.source.empty()) << name;
      EXPECT_GT(f.low, 0) << name;
      EXPECT_LE(f.low, f.value) << name;
      EXPECT_LE(f.value, f.high) << name;
    }
    for (const UnclaimedCheck& u : d.unclaimed) {
      seen.insert(u.check);
      EXPECT_FALSE(u.reason.empty()) << name;
    }
    for (C check : AllCalibrationChecks()) EXPECT_EQ(seen.count(check), 1u) << name;
    EXPECT_EQ(seen.size(), AllCalibrationChecks().size()) << name;
  }
  EXPECT_EQ(DriveFiguresOf("st2000dm006").figures.size(), 7u);
  EXPECT_TRUE(DriveFiguresOf("ide-2003").figures.empty());
  EXPECT_NE(DriveFiguresOf("ide-2003").unclaimed[0].reason.find("2003 tiobench"),
            std::string::npos);
}

TEST(DiskCalibrationTest, EveryJobRunsOnTheDeviceDirectForItsRuntime) {
  for (C check : AllCalibrationChecks()) {
    const std::string text = CalibrationJobText(check, "/dev/loop9", 7);
    EXPECT_EQ(text.rfind("[global]\nfilename=/dev/loop9\ndirect=1\n", 0), 0u) << text;
    EXPECT_NE(text.find("\nruntime=7\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\ntime_based\n"), std::string::npos) << text;
  }
  EXPECT_NE(CalibrationJobText(C::kRandReadQd32Iops, "/dev/x", 5).find("iodepth=32\n"),
            std::string::npos);
  EXPECT_NE(CalibrationJobText(C::kFlushAfter8Ms, "/dev/x", 5).find("fsync=8\n"),
            std::string::npos);
  EXPECT_NE(CalibrationJobText(C::kFlushAfter64Ms, "/dev/x", 5).find("fsync=64\n"),
            std::string::npos);
  const std::string both = CalibrationJobText(C::kReadsKeptBesideFsyncWriterPct, "/dev/x", 5);
  EXPECT_NE(both.find("[reader]"), std::string::npos);
  EXPECT_NE(both.find("[writer]\nrw=write\nbs=4k\nioengine=psync\nfsync=1\noffset=50%"),
            std::string::npos);
  EXPECT_NE(CalibrationJobText(C::kSeqReadMbps, "/dev/x", 0.2).find("\nruntime=1\n"),
            std::string::npos);
}

// One job of `name` that read or wrote `ios` I/Os of `latency_ms` each in `runtime_ms`.
FioJobResult Job(const std::string& name, bool write, uint64_t ios, uint64_t runtime_ms,
                 double latency_ms, uint64_t bytes_each = 4096) {
  FioJobResult j;
  j.name = name;
  FioDirectionResult& d = write ? j.write : j.read;
  d.total_ios = ios;
  d.io_bytes = ios * bytes_each;
  d.runtime_ms = runtime_ms;
  d.bw_bytes = static_cast<double>(d.io_bytes) * 1000.0 / static_cast<double>(runtime_ms);
  d.clat.Record(static_cast<uint64_t>(latency_ms * 1e6), ios);
  return j;
}

TEST(DiskCalibrationTest, EachFigureComesFromItsOwnPartOfFiosResult) {
  auto figure = [](C check, const FioRunResult& r, double alone = 0) {
    double value = -1;
    std::string err;
    EXPECT_TRUE(CalibrationFigure(check, r, alone, &value, &err)) << err;
    return value;
  };
  FioRunResult r;
  r.jobs = {Job("randread_qd1", false, 570, 10000, 17.5)};
  EXPECT_NEAR(figure(C::kRandReadQd1Ms, r), 17.5, 0.2);  // the histogram's bucket width
  r.jobs = {Job("randread_qd32", false, 940, 10000, 300)};
  EXPECT_DOUBLE_EQ(figure(C::kRandReadQd32Iops, r), 94.0);
  r.jobs = {Job("seqread", false, 1430, 10000, 5, 1000000)};
  EXPECT_DOUBLE_EQ(figure(C::kSeqReadMbps, r), 143.0);
  r.jobs = {Job("seqwrite", true, 1320, 10000, 5, 1000000)};
  EXPECT_DOUBLE_EQ(figure(C::kSeqWriteMbps, r), 132.0);
  r.jobs = {Job("write_fsync", true, 2800, 10000, 0.1)};
  EXPECT_DOUBLE_EQ(figure(C::kWriteFsyncPerSecond, r), 280.0);
  FioJobResult flush = Job("flush_after_8", true, 800, 10000, 0.1);
  flush.sync_ios = 100;
  flush.sync_lat.Record(127'000'000, 100);
  r.jobs = {flush};
  EXPECT_NEAR(figure(C::kFlushAfter8Ms, r), 127.0, 127.0 * 0.02);
  r.jobs = {Job("reader", false, 612, 10000, 1), Job("writer", true, 3000, 10000, 1)};
  EXPECT_NEAR(figure(C::kReadsKeptBesideFsyncWriterPct, r, 1070.0), 100.0 * 61.2 / 1070.0, 1e-9);

  double value = 0;
  std::string err;
  r.jobs = {Job("flush_after_8", true, 800, 10000, 0.1)};  // no fsync reported
  EXPECT_FALSE(CalibrationFigure(C::kFlushAfter8Ms, r, 0, &value, &err));
  EXPECT_EQ(err, "flush_after_8_ms: fio reported none");
  r.jobs = {Job("reader", false, 612, 10000, 1)};
  EXPECT_FALSE(CalibrationFigure(C::kReadsKeptBesideFsyncWriterPct, r, 0, &value, &err));
  r.jobs = {Job("a", false, 1, 1000, 1), Job("b", false, 1, 1000, 1)};
  EXPECT_FALSE(CalibrationFigure(C::kSeqReadMbps, r, 0, &value, &err));
  EXPECT_EQ(err, "seqread_mbps: expected one job in fio's result, found 2");
  r.jobs = {Job("seqread", false, 1, 1000, 1)};
  r.jobs[0].error = 5;
  EXPECT_FALSE(CalibrationFigure(C::kSeqReadMbps, r, 0, &value, &err));
  EXPECT_EQ(err, "seqread_mbps: fio's job failed (errno 5)");
}

// Within 10 % of the published range, its ends included; a range's ratio is to its middle.
TEST(DiskCalibrationTest, RowsHoldTheModelToTheRangeWithinTheTolerance) {
  const DriveFigures st = DriveFiguresOf("st2000dm006");
  std::map<C, double> measured = {{C::kRandReadQd1Ms, 17.2 * 0.9},
                                  {C::kRandReadQd32Iops, 94 * 1.1},
                                  {C::kSeqReadMbps, 143 * 0.899},
                                  {C::kWriteFsyncPerSecond, 50}};
  const std::vector<CalibrationRow> rows = CalibrationRows(st, measured);
  ASSERT_EQ(rows.size(), AllCalibrationChecks().size());
  EXPECT_TRUE(rows[0].within);
  EXPECT_NEAR(rows[0].ratio, 17.2 * 0.9 / 17.5, 1e-12);
  EXPECT_TRUE(rows[1].within);
  EXPECT_FALSE(rows[2].within);
  EXPECT_FALSE(rows[3].within) << "a claimed check that gave no figure is not within";
  EXPECT_FALSE(rows[5].published.has_value());
  EXPECT_EQ(rows[5].unclaimed_reason, "not measured on the real drive");
  CalibrationResult result;
  result.rows = rows;
  EXPECT_FALSE(result.AllClaimedWithin());
  result.rows = CalibrationRows(DriveFiguresOf("ide-2003"), measured);
  EXPECT_TRUE(result.AllClaimedWithin()) << "no claim, nothing off";
}

// The st2000dm006 figures as the fake fio gives them: the reads alone from the first check.
void MeasureLikeABarraCuda(const FioInvocation& inv, double, FioRunResult* result) {
  const std::string& k = inv.label;
  if (k == "randread_qd1_ms") result->jobs = {Job("randread_qd1", false, 570, 10000, 17.5)};
  if (k == "randread_qd32_iops") result->jobs = {Job("randread_qd32", false, 960, 10000, 330)};
  if (k == "seqread_mbps") result->jobs = {Job("seqread", false, 1500, 10000, 7, 1000000)};
  if (k == "seqwrite_mbps") result->jobs = {Job("seqwrite", true, 1100, 10000, 7, 1000000)};
  if (k == "randwrite_qd1_iops") result->jobs = {Job("randwrite_qd1", true, 1250, 10000, 8)};
  if (k == "write_fsync_per_s") result->jobs = {Job("write_fsync", true, 700, 10000, 14)};
  if (k == "flush_after_8_ms" || k == "flush_after_64_ms") {
    const bool eight = k == "flush_after_8_ms";
    FioJobResult j = Job(eight ? "flush_after_8" : "flush_after_64", true, 640, 10000, 0.1);
    j.sync_ios = eight ? 80 : 10;
    j.sync_lat.Record(eight ? 120'000'000 : 640'000'000, j.sync_ios);
    result->jobs = {j};
  }
  if (k == "reads_kept_beside_fsync_writer_pct") {
    result->jobs = {Job("reader", false, 114, 10000, 80), Job("writer", true, 600, 10000, 15)};
  }
}

CalibrationResult BarraCudaResult(testing::FakeFio* fio) {
  fio->measure = MeasureLikeABarraCuda;
  Progress progress(stderr, false);
  std::map<C, double> measured;
  std::string err;
  size_t settled = 0;
  const SettleDrive settle = [&settled, fio](std::string*) {
    EXPECT_EQ(settled++, fio->runs.size()) << "settled before each check, not after";
    return true;
  };
  EXPECT_TRUE(RunCalibrationChecks("/dev/loop9", DriveFiguresOf("st2000dm006"), 10, "/tmp", fio,
                                   settle, &progress, &measured, &err))
      << err;
  EXPECT_EQ(settled, AllCalibrationChecks().size());
  CalibrationResult r;
  r.profile = "st2000dm006";
  r.drive = DriveFiguresOf(r.profile).drive;
  r.image_bytes = r.stroke_bytes = 4ULL << 30;
  r.runtime_seconds = 10;
  r.fio_version = "fio-3.33";
  r.kernel = "6.18.44";
  r.rows = CalibrationRows(DriveFiguresOf(r.profile), measured);
  return r;
}

TEST(DiskCalibrationTest, ChecksRunInOrderEachOnTheDevice) {
  testing::FakeFio fio;
  const CalibrationResult r = BarraCudaResult(&fio);
  ASSERT_EQ(fio.runs.size(), AllCalibrationChecks().size());
  for (size_t i = 0; i < fio.runs.size(); ++i) {
    EXPECT_EQ(fio.runs[i].label, CalibrationCheckKey(AllCalibrationChecks()[i]));
    EXPECT_NE(fio.runs[i].job_text.find("filename=/dev/loop9\n"), std::string::npos);
    EXPECT_GT(fio.runs[i].timeout_seconds, 10);
    // The random writes run as long as the published measurement did (30 s: the write cache
    // absorbs the first seconds), every other check --runtime's 10 s.
    const bool published_window = AllCalibrationChecks()[i] == C::kRandWriteQd1Iops;
    EXPECT_NE(fio.runs[i].job_text.find(published_window ? "\nruntime=30\n" : "\nruntime=10\n"),
              std::string::npos)
        << fio.runs[i].job_text;
  }
  EXPECT_EQ(CalibrationCheckSeconds(C::kRandWriteQd1Iops, DriveFiguresOf("st2000dm006"), 60), 60);
  EXPECT_EQ(CalibrationCheckSeconds(C::kRandWriteQd1Iops, DriveFiguresOf("hus728t8"), 10), 10);
  // 11.4 reads a second beside the writer against 57 alone: 20 %.
  EXPECT_NEAR(r.rows.back().measured, 20.0, 1e-9);
  EXPECT_FALSE(r.AllClaimedWithin());  // seqwrite 110 against 132

  testing::FakeFio failing;
  failing.measure = MeasureLikeABarraCuda;
  failing.failing_runs = {3};
  Progress progress(stderr, false);
  std::map<C, double> measured;
  std::string err;
  EXPECT_FALSE(RunCalibrationChecks("/dev/loop9", DriveFiguresOf("ide-2003"), 10, "/tmp", &failing,
                                    nullptr, &progress, &measured, &err));
  EXPECT_EQ(err, testing::FakeFio::kRunError);
  EXPECT_EQ(failing.runs.size(), 3u);
  // A drive that cannot be settled stops the calibration before the check's fio.
  testing::FakeFio unsettled;
  unsettled.measure = MeasureLikeABarraCuda;
  const SettleDrive stuck = [&unsettled](std::string* e) {
    if (unsettled.runs.size() < 2) return true;
    *e = "sync of /dev/loop9 did not finish within 120 s";
    return false;
  };
  EXPECT_FALSE(RunCalibrationChecks("/dev/loop9", DriveFiguresOf("ide-2003"), 10, "/tmp",
                                    &unsettled, stuck, &progress, &measured, &err));
  EXPECT_EQ(err, "before seqread_mbps: sync of /dev/loop9 did not finish within 120 s");
  EXPECT_EQ(unsettled.runs.size(), 2u);
}

TEST(DiskCalibrationTest, TableAndJsonMatchTheirGoldens) {
  testing::FakeFio fio;
  const CalibrationResult r = BarraCudaResult(&fio);
  testing::ExpectMatchesGolden("calibration_st2000dm006.txt", RenderCalibrationText(r));
  testing::ExpectMatchesGolden("calibration_st2000dm006.json",
                               CalibrationResultToJson(r).dump(2) + "\n");
  CalibrationResult none = r;
  none.profile = "ide-2003";
  none.drive.clear();
  none.rows = CalibrationRows(DriveFiguresOf("ide-2003"), {});
  const std::string text = RenderCalibrationText(none);
  EXPECT_NE(text.find("The ide-2003 profile claims no published figure.\n"), std::string::npos)
      << text;
}

// What the command may leave behind: loop devices, FUSE or elevbench mounts, a journal, fio's
// folder.
std::string CalibrationLeftovers() {
  std::string loops, ignored;
  (void)RunChecked({"losetup", "-a"}, &loops, &ignored);
  std::string mounts;
  std::ifstream in("/proc/mounts");
  for (std::string line; std::getline(in, line);) {
    if (line.find("elevbench") != std::string::npos || line.find("fuse") != std::string::npos) {
      mounts += line + "\n";
    }
  }
  std::string folders;
  for (const auto& e : std::filesystem::directory_iterator("/var/tmp")) {
    const std::string name = e.path().filename();
    if (name.rfind("elevbench-calibrate-", 0) == 0) folders += name + "\n";
  }
  return loops + "--\n" + mounts + "--\n" + folders + "--\n" +
         testing::JournalLeftIn(DefaultStateDir());
}

// A refused command line makes nothing and says its one line, before any restore's.
TEST(DiskCalibrationTest, ARefusedProfileIsAUsageErrorSaidOnce) {
  CalibrationJobConfig config;
  config.emulated = "nosuch-profile:1G";
  std::vector<std::string> lines;
  CalibrationResult result;
  RunFailure failure = RunFailure::kNone;
  EXPECT_FALSE(CalibrateEmulatedDrive(
      config, [&lines](const std::string& line) { lines.push_back(line); }, &result, &failure));
  EXPECT_EQ(failure, RunFailure::kUsage);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(lines[0].empty());
}

// The command on the 2003 disk, one second a check: every check gives a figure, the disk is
// charged (a QD1 random read takes milliseconds, where the page cache or a bare loop device on
// tmpfs answers in microseconds), exit 0 (ide-2003 claims no figure), nothing left behind.
TEST(DiskCalibrateRootTest, EveryCheckGivesAFigureAndNothingIsLeft) {
  if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0 || !ProgramInPath("fio")) {
    GTEST_SKIP() << "needs root, /dev/fuse and fio (an emulated drive, fio on its loop device)";
  }
  const std::string before = CalibrationLeftovers();
  const ProcessResult r = testing::RunElevbenchCli(
      {"disk", "calibrate", "ide-2003:256M", "--runtime", "1", "--json"}, 600);
  ASSERT_EQ(r.exit_code, 0) << r.error_output;
  EXPECT_EQ(CalibrationLeftovers(), before);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["profile"], "ide-2003");
  EXPECT_EQ(j["stroke_bytes"], 256u << 20);
  ASSERT_EQ(j["rows"].size(), AllCalibrationChecks().size());
  for (const nlohmann::json& row : j["rows"]) {
    EXPECT_GT(row["model"].get<double>(), 0) << row.dump();
    EXPECT_TRUE(row.contains("not_claimed")) << row.dump();
  }
  const double qd1_ms = j["rows"][0]["model"].get<double>();
  EXPECT_GT(qd1_ms, 1.0) << "the model charged no seek";
  EXPECT_LT(qd1_ms, 40.0) << "beyond a full stroke and a revolution";
}

}  // namespace
}  // namespace elevbench
