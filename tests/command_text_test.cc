// `run command`: its records round-trip, its rows and the load's rate as the device saw it,
// its measurements (the program's wall time the headline, named by the program), the report
// with its verdict as a golden file, the quoting of the program and the tail of its stderr,
// and the disk counters it reads.

#include "reporters/command_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/device/disk_stat.h"
#include "scenarios/command/command_measurements.h"
#include "scenarios/command/command_suite.h"
#include "test_util.h"

namespace elevbench {
namespace {

constexpr char kCommandTar[] = "tar -xf /src/linux.tar";

CommandRecord CmdMakeRecord(const std::string& label, const std::string& id, uint32_t rep,
                            double elapsed, const std::string& status = "ok") {
  CommandRecord r;
  r.label = label;
  r.identifier = id;
  r.scheduler = label == "DL" ? "mq-deadline" : label == "BFQ" ? "bfq" : "none";
  r.repetition = rep;
  r.command = kCommandTar;
  r.load = "seq-write";
  r.status = status;
  r.elapsed_seconds = elapsed;
  r.user_seconds = 0.25;
  r.system_seconds = 1.5;
  r.timeout_seconds = 1200;
  r.setup_seconds = 0.5;
  r.warmup_seconds = 5.01;
  r.major_faults = 2;
  r.minor_faults = 1200;
  r.read_bytes = uint64_t{1} << 20;
  r.written_bytes = uint64_t{180} << 20;
  // The device wrote the program's 180 MB and 40 MB/s of the load's over the window.
  r.device_written_bytes = r.written_bytes + static_cast<uint64_t>(40 * elapsed * (1 << 20));
  r.device_read_bytes = uint64_t{2} << 20;
  StreamResult w;
  w.name = "seq-write";
  w.direction = "write";
  w.bytes_written = uint64_t{900} << 20;
  w.runtime_seconds = 10;
  r.load_streams = {w};
  if (status == "failed") {
    r.exit_code = 2;
    r.stderr_tail = "tar: linux/Makefile: Cannot open: No space left on device";
  }
  return r;
}

ResultsDocument CmdCommandDocument() {
  ResultsDocument doc;
  doc.suite = "command";
  doc.identifiers = {"6.18.44-dl", "6.18.44-bfq", "6.18.44-none"};
  doc.labels = {"DL", "BFQ", "NO"};
  doc.parameters = {
      {"command", kCommandTar}, {"setup", "cp /src/linux.tar ."}, {"load", "seq-write"}};
  const double dl[] = {3.2, 3.3, 3.1, 3.25}, bfq[] = {2.3, 2.2, 2.35, 2.25};
  for (uint32_t i = 0; i < 4; ++i) {
    doc.records.push_back(CommandRecordToJson(CmdMakeRecord("DL", "6.18.44-dl", i, dl[i])));
    doc.records.push_back(CommandRecordToJson(CmdMakeRecord("BFQ", "6.18.44-bfq", i, bfq[i])));
  }
  doc.records.push_back(CommandRecordToJson(CmdMakeRecord("NO", "6.18.44-none", 0, 1200, "dnf")));
  doc.records.push_back(CommandRecordToJson(CmdMakeRecord("NO", "6.18.44-none", 1, 4, "failed")));
  doc.records.push_back(CommandRecordToJson(CmdMakeRecord("NO", "6.18.44-none", 2, 4.5)));
  return doc;
}

TEST(CommandTextTest, GoldenReportWithItsVerdict) {
  std::string text, err;
  ASSERT_TRUE(RenderCommandReport(CmdCommandDocument(), "nick", &text, &err)) << err;
  EXPECT_NE(text.find("\ntar -xf /src/linux.tar during seq-write\n"
                      "(set-up before each run: cp /src/linux.tar .)\n"
                      "DL - 0.25user 1.50system 0:03.21elapsed 2major 1200minor, read 1.0 MB, "
                      "wrote 180.0 MB; load 40.0 MB/s at the device\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("* NO: 1 of 3 repetitions DNF after 20 minutes\n"
                      "* NO: 1 of 3 repetitions failed (exit 2: tar: linux/Makefile: Cannot "
                      "open: No space left on device)\n"),
            std::string::npos)
      << text;
  testing::ExpectPrintedMatchesGolden("command_report.txt", CmdCommandDocument(), "nick", text);
  std::string all;
  ASSERT_TRUE(RenderResults(CmdCommandDocument(), "nick", ReportOptions{}, &all, &err)) << err;
  EXPECT_NE(all.find("tar -xf /src/linux.tar Elapsed time: BFQ best, 1.41× DL (p=0.029"),
            std::string::npos)
      << all;
  EXPECT_FALSE(RenderCommandReport(CmdCommandDocument(), "lkml", &text, &err));
  EXPECT_EQ(err, "command results print as nick, not 'lkml'");
}

TEST(CommandTextTest, RowsOfEveryDnfOrEveryFailure) {
  CommandRow row;
  row.repetitions = 2;
  row.dnf = 2;
  row.load = "none";
  row.timeout_seconds = 90;
  EXPECT_EQ(RenderCommandRow("CF", row), "CF - N/A");
  EXPECT_EQ(CommandNotes("CF", row), std::vector<std::string>{"* CF: 2 of 2 repetitions DNF after "
                                                              "90 seconds"});
  row.dnf = 0;
  row.failed = 2;
  row.failed_how = "signal 9";
  EXPECT_EQ(RenderCommandRow("CF", row), "CF - failed (signal 9)");
}

TEST(CommandTextTest, TracedBiosPrintTheirP99) {
  CommandRow row;
  row.repetitions = 1;
  row.load = "none";
  row.elapsed_seconds = 1;
  row.traced = 1;
  (void)row.kernel_read.Record(12'300'000);
  (void)row.kernel_write.Record(4'500'000);
  EXPECT_EQ(RenderCommandRow("DL", row),
            "DL - 0.00user 0.00system 0:01.00elapsed 0major 0minor, read 0 B, wrote 0 B; its bios "
            "p99 read 12.3 ms, write 4.5 ms");
  row.kernel_read = LatencyHistogram();
  EXPECT_EQ(RenderCommandRow("DL", row),
            "DL - 0.00user 0.00system 0:01.00elapsed 0major 0minor, read 0 B, wrote 0 B; its bios "
            "p99 write 4.5 ms");
}

// A row whose bios no repetition traced says why, when the records know (files from before
// bios_problem say nothing, as they did).
TEST(CommandTextTest, UntracedBiosSayWhy) {
  CommandRecord untraced = CmdMakeRecord("DL", "x", 0, 1);
  untraced.load = "none";
  untraced.bios_problem = "invalid file entry 'r.json.fio/cell001-command-bios.trace'";
  CommandRecord old = untraced;
  old.bios_problem.clear();
  std::vector<CommandRow> rows = AggregateCommandRows({old, untraced}, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].untraced_why, untraced.bios_problem);
  EXPECT_NE(RenderCommandRow("DL", rows[0])
                .find("; its bios not traced: invalid file entry 'r.json.fio/cell001-command-"
                      "bios.trace'"),
            std::string::npos)
      << RenderCommandRow("DL", rows[0]);
  rows = AggregateCommandRows({old}, {});
  EXPECT_EQ(RenderCommandRow("DL", rows[0]).find("not traced"), std::string::npos);
  CommandRecord back;
  std::string err;
  ASSERT_TRUE(CommandRecordFromJson(CommandRecordToJson(untraced), &back, &err)) << err;
  EXPECT_EQ(back.bios_problem, untraced.bios_problem);
  nlohmann::json j = CommandRecordToJson(untraced);
  j.erase("bios_problem");
  ASSERT_TRUE(CommandRecordFromJson(j, &back, &err)) << "a file from before the field: " << err;
  EXPECT_EQ(back.bios_problem, "");
}

TEST(CommandMeasurementsTest, TracedBiosGiveTheirP99) {
  ResultsDocument doc;
  doc.suite = "command";
  CommandRecord r = CmdMakeRecord("DL", "x", 0, 3);
  r.load = "none";
  r.bios_traced = true;
  r.bios = 3;
  (void)r.kernel_read.Record(2'000'000);
  (void)r.kernel_write.Record(7'000'000);
  doc.records.push_back(CommandRecordToJson(r));
  std::vector<Measurement> m;
  std::string err;
  ASSERT_TRUE(CommandMeasurements(doc, &m, &err)) << err;
  ASSERT_EQ(m.size(), 8u);  // the program's 6, its bios' read and write p99, no load
  EXPECT_EQ(m[6].metric.name, "kernel_read_p99_ms");
  EXPECT_DOUBLE_EQ(m[6].value, 2);
  EXPECT_EQ(m[7].metric.name, "kernel_write_p99_ms");
  EXPECT_DOUBLE_EQ(m[7].value, 7);
  const std::vector<CommandRow> rows = AggregateCommandRows({r, r}, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].traced, 2u);
  EXPECT_EQ(rows[0].kernel_read.count(), 2u);
}

TEST(CommandRecordsTest, RoundTripAndRefusals) {
  CommandRecord r = CmdMakeRecord("DL", "x", 1, 3.5, "failed");
  r.bios_traced = true;
  r.bios = 2;
  (void)r.kernel_write.Record(3'000'000);
  CommandRecord back;
  std::string err;
  ASSERT_TRUE(CommandRecordFromJson(CommandRecordToJson(r), &back, &err)) << err;
  EXPECT_EQ(CommandRecordToJson(back), CommandRecordToJson(r));
  EXPECT_EQ(back.kernel_write.count(), 1u);
  nlohmann::json j = CommandRecordToJson(r);
  j["load"] = "seq-lunch";
  EXPECT_FALSE(CommandRecordFromJson(j, &back, &err));
  EXPECT_EQ(err, "load: unknown load 'seq-lunch'");
  j = CommandRecordToJson(r);
  j["status"] = "meh";
  EXPECT_FALSE(CommandRecordFromJson(j, &back, &err));
  j = CommandRecordToJson(r);
  j.erase("device_written_bytes");
  EXPECT_FALSE(CommandRecordFromJson(j, &back, &err));
  EXPECT_EQ(err, "device_written_bytes: missing");
}

TEST(CommandRecordsTest, TheLoadsBytesAreTheDevicesLessTheProgramsOwn) {
  CommandRecord r = CmdMakeRecord("DL", "x", 0, 2);
  EXPECT_EQ(LoadDeviceBytes(r), uint64_t{80} << 20);
  EXPECT_DOUBLE_EQ(LoadDeviceMbPerSecond(r), 40);
  r.load = "seq-read";  // reads: the device's 2 MB less the program's 1 MB
  EXPECT_EQ(LoadDeviceBytes(r), uint64_t{1} << 20);
  r.read_bytes = uint64_t{3} << 20;  // more than the device saw: nothing of the load's
  EXPECT_EQ(LoadDeviceBytes(r), 0u);
  r.load = "none";
  EXPECT_EQ(LoadDeviceBytes(r), 0u);
  // A command's direction is unknown: both, less the program's both.
  r.load = "command";
  r.read_bytes = uint64_t{1} << 20;
  EXPECT_EQ(LoadDeviceBytes(r), (uint64_t{80} << 20) + (uint64_t{1} << 20));
}

TEST(CommandTextTest, ACommandLoadIsNamedInTheTitle) {
  CommandRecord r = CmdMakeRecord("DL", "x", 0, 2);
  r.load = "command";
  r.load_command = "tar -cf /dev/null /usr";
  r.load_iterations = 3;
  const std::vector<CommandRow> rows = AggregateCommandRows({r}, {});
  const std::string text = RenderCommandText(nlohmann::json::object(), "", rows);
  EXPECT_NE(text.find("tar -xf /src/linux.tar during `tar -cf /dev/null /usr`\n"),
            std::string::npos)
      << text;
  CommandRecord back;
  std::string err;
  ASSERT_TRUE(CommandRecordFromJson(CommandRecordToJson(r), &back, &err)) << err;
  EXPECT_EQ(back.load_command, r.load_command);
  EXPECT_EQ(back.load_iterations, 3u);
}

TEST(CommandMeasurementsTest, TheProgramsWallTimeIsTheHeadline) {
  std::vector<Measurement> m;
  std::string err;
  ASSERT_TRUE(CommandMeasurements(CmdCommandDocument(), &m, &err)) << err;
  ASSERT_EQ(m.size(), 11u * 7);  // 11 records × (6 of the program + the load's rate)
  EXPECT_EQ(m[0].section, kCommandTar);
  EXPECT_EQ(m[0].metric.name, "elapsed_seconds");
  EXPECT_TRUE(m[0].metric.headline);
  EXPECT_DOUBLE_EQ(m[0].value, 3.2);
  EXPECT_EQ(m[6].metric.name, "load_device_mb_s");
  EXPECT_NEAR(m[6].value, 40, 1e-9);
  const Measurement& dnf = m[8 * 7];  // the NO row's DNF: no time, the load's rate kept
  EXPECT_EQ(dnf.status, "dnf");
  EXPECT_EQ(m[8 * 7 + 6].status, "ok");
}

TEST(CommandSuiteTest, ProgramTextAndStderrTail) {
  EXPECT_EQ(CommandText({"tar", "-xf", "/src/linux.tar"}), "tar -xf /src/linux.tar");
  EXPECT_EQ(CommandText({"sh", "-c", "dd of=f && sync"}), "sh -c 'dd of=f && sync'");
  EXPECT_EQ(CommandText({"echo", "it's", ""}), "echo 'it'\\''s' ''");
  EXPECT_EQ(StderrTail("a\n\nb  \nc\nd\n"), "b | c | d");
  EXPECT_EQ(StderrTail(""), "");
  EXPECT_EQ(StderrTail(std::string(400, 'x'), 3, 10), "…xxxxxxxxxx");
}

TEST(DiskStatTest, SectorsOfOneOrSeveralDisks) {
  DiskIoCounters c;
  std::string err;
  ASSERT_TRUE(ParseDiskStat("  100 2 800 30 50 1 1600 20 0 40 50 0 0 0 0 0 0\n", &c, &err)) << err;
  EXPECT_EQ(c.read_bytes, 800u * 512);
  EXPECT_EQ(c.written_bytes, 1600u * 512);
  EXPECT_FALSE(ParseDiskStat("1 2 3", &c, &err));
  EXPECT_EQ(err, "disk stat: 3 fields, expected at least 7");
  EXPECT_FALSE(ParseDiskStat("1 2 x 4 5 6 7", &c, &err));
  testing::ScopedTempDir root;
  for (const char* disk : {"loop3", "loop4"}) {
    std::filesystem::create_directories(root.path() + "/sys/block/" + disk);
    std::ofstream(root.path() + "/sys/block/" + disk + "/stat") << "1 0 8 0 1 0 16 0 0 0 0\n";
  }
  SystemPaths paths;
  paths.root = root.path();
  ASSERT_TRUE(ReadDiskIoCounters({"loop3", "loop4"}, paths, &c, &err)) << err;
  EXPECT_EQ(c.read_bytes, 2u * 8 * 512);
  EXPECT_EQ(c.written_bytes, 2u * 16 * 512);
  EXPECT_FALSE(ReadDiskIoCounters({"loop9"}, paths, &c, &err));
  EXPECT_EQ(err.rfind("loop9: ", 0), 0u) << err;
  const DiskIoCounters d = DiskIoDelta({100, 50}, {150, 40});
  EXPECT_EQ(d.read_bytes, 50u);
  EXPECT_EQ(d.written_bytes, 0u);
}

}  // namespace
}  // namespace elevbench
