#include "harness/disk/drive_figures.h"

#include <algorithm>
#include <utility>

namespace elevbench {
namespace {

using C = CalibrationCheck;

struct CheckWords {
  C check;
  const char* key;
  const char* title;
  const char* unit;
};

constexpr CheckWords kChecks[] = {
    {C::kRandReadQd1Ms, "randread_qd1_ms", "4 KiB random read, QD1 (mean)", "ms"},
    {C::kRandReadQd32Iops, "randread_qd32_iops", "4 KiB random read, QD32", "IOPS"},
    {C::kSeqReadMbps, "seqread_mbps", "1 MiB sequential read", "MB/s"},
    {C::kSeqWriteMbps, "seqwrite_mbps", "1 MiB sequential write", "MB/s"},
    {C::kRandWriteQd1Iops, "randwrite_qd1_iops", "4 KiB random write, QD1", "IOPS"},
    {C::kWriteFsyncPerSecond, "write_fsync_per_s", "4 KiB write + fsync, QD1", "/s"},
    {C::kFlushAfter8Ms, "flush_after_8_ms", "fsync after 8 scattered 4 KiB writes (p50)", "ms"},
    {C::kFlushAfter64Ms, "flush_after_64_ms", "fsync after 64 scattered 4 KiB writes (p50)", "ms"},
    {C::kReadsKeptBesideFsyncWriterPct, "reads_kept_beside_fsync_writer_pct",
     "QD1 reads kept beside a writer fsyncing each 4 KiB", "%"},
};

const CheckWords& WordsOf(C check) {
  for (const CheckWords& w : kChecks) {
    if (w.check == check) return w;
  }
  return kChecks[0];
}

PublishedFigure Figure(C check, double value, const std::string& source,
                       const std::string& not_claimed_because = "") {
  return {check, value, value, value, source, not_claimed_because, 0};
}

// A figure whose published measurement ran `seconds`, and `disk calibrate`'s check with it.
PublishedFigure Over(double seconds, PublishedFigure figure) {
  figure.window_seconds = seconds;
  return figure;
}

PublishedFigure Range(C check, double low, double high, const std::string& source) {
  return {check, (low + high) / 2, low, high, source, "", 0};
}

// The SSD model serves one command at a time and has no sequential streaming of its own.
const char* const kSsdOneAtATime =
    "the model serves one command at a time: no queue of its dies, no streaming rate";

// Every check that `figures` leaves, with `reason`.
std::vector<UnclaimedCheck> TheRest(const std::vector<PublishedFigure>& figures,
                                    const std::string& reason) {
  std::vector<UnclaimedCheck> rest;
  for (C check : AllCalibrationChecks()) {
    const bool claimed =
        std::any_of(figures.begin(), figures.end(),
                    [check](const PublishedFigure& f) { return f.check == check; });
    if (!claimed) rest.push_back({check, reason});
  }
  return rest;
}

// The drive `drive` behind `profile`: its published `figures`, and every check they leave
// unclaimed because of `unclaimed_because`.
DriveFigures Drive(const char* profile, const char* drive, std::vector<PublishedFigure> figures,
                   const std::string& unclaimed_because) {
  DriveFigures d;
  d.profile = profile;
  d.drive = drive;
  d.figures = std::move(figures);
  d.unclaimed = TheRest(d.figures, unclaimed_because);
  return d;
}

const char* const kUltrastarSheet = "HGST Ultrastar 7K8 datasheet";
const char* const kBarraCudaFio = "fio on a real drive (ublk-disksim README, docs/VALIDATION.md)";

DriveFigures Ultrastar7K8() {
  return Drive(
      "hus728t8", "HGST Ultrastar 7K8 (HUS728T8TALE6L4, 8 TB, 7200 rpm, NCQ 32)",
      {
          Figure(C::kRandReadQd1Ms, 12.2,
                 std::string(kUltrastarSheet) + ": 8.0 ms average seek + 4.16 ms rotation"),
          Figure(C::kRandReadQd32Iops, 200,
                 "7200 rpm SATA drives with NCQ at QD32 (WD Ultrastar HC580: 212)"),
          Figure(C::kSeqReadMbps, 205, std::string(kUltrastarSheet) + ": sustained transfer rate"),
      },
      "the datasheet gives one sustained rate and no write, flush or mixed figure");
}

DriveFigures BarraCuda2Tb() {
  return Drive(
      "st2000dm006", "Seagate BarraCuda ST2000DM006 (2 TB, 7200 rpm)",
      {
          Range(C::kRandReadQd1Ms, 17.2, 17.8, kBarraCudaFio),
          Figure(C::kRandReadQd32Iops, 94, kBarraCudaFio),
          Figure(C::kSeqReadMbps, 143, kBarraCudaFio),
          Figure(C::kSeqWriteMbps, 132, kBarraCudaFio),
          Over(30, Figure(C::kRandWriteQd1Iops, 124, std::string(kBarraCudaFio) + ", over 30 s")),
          Figure(C::kFlushAfter8Ms, 127, kBarraCudaFio,
                 "the published p50 includes NTFS metadata writes (fitted there as 28 + 9.4 N ms); "
                 "the model has only the 8 writes"),
          Figure(C::kFlushAfter64Ms, 630, kBarraCudaFio),
      },
      "not measured on the real drive");
}

DriveFigures Samsung870Evo() {
  return Drive(
      "870evo", "Samsung 870 EVO 1 TB (consumer SATA SSD, no power-loss protection)",
      {
          Figure(C::kRandReadQd1Ms, 1000.0 / 10700, "a real 850 EVO: 10.7K reads a second at QD1"),
          Range(C::kWriteFsyncPerSecond, 248, 311, "community fsync lists"),
          Figure(C::kReadsKeptBesideFsyncWriterPct, 100.0 * 612 / 10700,
                 "a real 850 EVO: reads fell from 10.7K to 612 a second"),
      },
      "no published figure of this drive in the sources");
}

DriveFigures SamsungPm883() {
  const std::string sheet = "Samsung PM883 published figures";
  return Drive("pm883", "Samsung PM883 960 GB (SATA SSD, power-loss protection)",
               {
                   Figure(C::kRandReadQd1Ms, 0.120, sheet),
                   Figure(C::kRandReadQd32Iops, 98000, sheet, kSsdOneAtATime),
                   Figure(C::kSeqReadMbps, 550, sheet, kSsdOneAtATime),
                   Figure(C::kSeqWriteMbps, 520, sheet, kSsdOneAtATime),
                   Figure(C::kWriteFsyncPerSecond, 15500, "community fsync lists"),
               },
               "no published figure of this drive in the sources");
}

}  // namespace

const std::vector<CalibrationCheck>& AllCalibrationChecks() {
  static const std::vector<CalibrationCheck> all = [] {
    std::vector<CalibrationCheck> v;
    for (const CheckWords& w : kChecks) v.push_back(w.check);
    return v;
  }();
  return all;
}

std::string CalibrationCheckTitle(CalibrationCheck check) { return WordsOf(check).title; }
std::string CalibrationCheckUnit(CalibrationCheck check) { return WordsOf(check).unit; }
std::string CalibrationCheckKey(CalibrationCheck check) { return WordsOf(check).key; }

DriveFigures DriveFiguresOf(const std::string& profile) {
  for (DriveFigures (*make)() : {Ultrastar7K8, BarraCuda2Tb, Samsung870Evo, SamsungPm883}) {
    DriveFigures d = make();
    if (d.profile == profile) return d;
  }
  DriveFigures d;
  d.profile = profile;
  const std::string reason =
      profile == "ide-2003"
          ? "calibrated to the 2003 tiobench rows (docs/emulated-disk.md), not to these checks"
      : profile == "sata-7200" || profile == "ssd"
          ? "illustrative: no real drive's figures behind it"
          : "no real drive's figures known for this profile";
  d.unclaimed = TheRest({}, reason);
  return d;
}

}  // namespace elevbench
