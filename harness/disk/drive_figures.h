#pragma once
// What real drives were measured or specified to do, per emulated-disk profile, for `disk
// calibrate` to hold the model against: each figure with its source, and what a profile does not
// claim with the reason. Plain data (docs/emulated-disk.md cites the same sources).

#include <string>
#include <vector>

namespace elevbench {

/// The checks `disk calibrate` runs, in the order it runs them. Each measures one figure.
enum class CalibrationCheck {
  kRandReadQd1Ms,                  ///< 4 KiB random reads at queue depth 1: mean latency, ms
  kRandReadQd32Iops,               ///< 4 KiB random reads at queue depth 32: I/Os a second
  kSeqReadMbps,                    ///< 1 MiB sequential reads: MB/s (10^6 bytes)
  kSeqWriteMbps,                   ///< 1 MiB sequential writes: MB/s (10^6 bytes)
  kRandWriteQd1Iops,               ///< 4 KiB random writes at queue depth 1: I/Os a second
  kWriteFsyncPerSecond,            ///< 4 KiB writes, each followed by an fsync: writes a second
  kFlushAfter8Ms,                  ///< an fsync after 8 scattered 4 KiB writes: its p50, ms
  kFlushAfter64Ms,                 ///< an fsync after 64 scattered 4 KiB writes: its p50, ms
  kReadsKeptBesideFsyncWriterPct,  ///< QD1 reads beside a writer fsyncing each 4 KiB write, as
                                   ///< a share of the reads alone (kRandReadQd1Ms' run): %
};

/// Every check, in run order.
const std::vector<CalibrationCheck>& AllCalibrationChecks();

/// The check's words for tables ("4 KiB random read, QD1 (mean)") and its unit ("ms").
std::string CalibrationCheckTitle(CalibrationCheck check);
std::string CalibrationCheckUnit(CalibrationCheck check);
/// A short stable key for JSON ("randread_qd1_ms").
std::string CalibrationCheckKey(CalibrationCheck check);

/// One published figure. A range (17.2–17.8 ms) has low < high and `value` its middle; a single
/// figure has low == high == value.
struct PublishedFigure {
  CalibrationCheck check;
  double value = 0;
  double low = 0;
  double high = 0;
  std::string source;  ///< where it comes from, in a few words
  /// Empty: the profile claims it (its model within 10 % on the virtual clock,
  /// disk_figures.h, and through the block layer, `disk calibrate`). Otherwise why the profile
  /// does not, though the figure was published.
  std::string not_claimed_because;
  /// How long the published measurement ran, when that shapes the figure (a write cache absorbs
  /// the first seconds of random writes: 124 IOPS over 30 s is 176 over 10 s); 0 when it does
  /// not. `disk calibrate` runs the check at least this long (CalibrationCheckSeconds).
  double window_seconds = 0;
  bool claimed() const { return not_claimed_because.empty(); }
};

/// A check the profile makes no claim on, and why.
struct UnclaimedCheck {
  CalibrationCheck check;
  std::string reason;
};

/// What a profile claims: the published figures (each claimed or not, with why) and the checks
/// no figure was published for, every check in exactly one of the two lists. The one table of
/// published figures: the model's own check (ModelFiguresOf) and `disk calibrate` read it.
struct DriveFigures {
  std::string profile;
  std::string drive;  ///< the real drive, "HGST Ultrastar 7K8 (HUS728T8TALE6L4, 8 TB)"
  std::vector<PublishedFigure> figures;
  std::vector<UnclaimedCheck> unclaimed;
};

/// The figures of `profile` (a profile name of `disk profiles`). A profile with no real drive
/// behind it (ide-2003 is calibrated to 2003 tiobench rows, sata-7200 and ssd are illustrative),
/// and a name this table does not know, gets every check unclaimed, with the reason.
DriveFigures DriveFiguresOf(const std::string& profile);

}  // namespace elevbench
