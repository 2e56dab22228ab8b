#pragma once
// `elevbench disk calibrate`: fio's checks of an emulated drive through the block layer (the
// loop device on the FUSE daemon, scheduler none), each giving one figure, held against what the
// real drive was measured or specified to do (harness/disk/drive_figures.h). The pure part: the
// job files, the figures read from fio's results, the rows. CalibrationJob (disk_calibration_job)
// builds the disk and runs them.

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/disk/drive_figures.h"
#include "harness/fio/fio_runner.h"

namespace elevbench {

/// A model's figure within this share of the published one passes (the 10 %).
inline constexpr double kCalibrationTolerance = 0.10;

/// The fio job file of `check` on the raw device `device` ("/dev/loop9"), each job running
/// `runtime_seconds`. Reads and writes are O_DIRECT, so the page cache is out of every figure;
/// the fsync checks use psync, one write at a time, as the published fsync lists do.
std::string CalibrationJobText(CalibrationCheck check, const std::string& device,
                               double runtime_seconds);

/// The figure of `check` from fio's result of its job. `reads_alone_iops` is the QD1 random
/// read rate of the kRandReadQd1Ms run (the kept share's denominator). False with err (one line)
/// when the result lacks what the figure needs (no I/O, no fsync).
[[nodiscard]] bool CalibrationFigure(CalibrationCheck check, const FioRunResult& result,
                                     double reads_alone_iops, double* figure, std::string* err);

/// One row: what the model gave and what the real drive did.
struct CalibrationRow {
  CalibrationCheck check = CalibrationCheck::kRandReadQd1Ms;
  double measured = 0;
  std::optional<PublishedFigure> published;  ///< none: no figure was published for the check
  bool claimed = false;                      ///< the profile claims the published figure
  std::string unclaimed_reason;              ///< when not claimed
  double ratio = 0;     ///< measured / published value; 0 without a published figure
  bool within = false;  ///< measured within kCalibrationTolerance of the published range
};

/// A calibration's outcome, for the reporters and --json.
struct CalibrationResult {
  std::string profile;
  std::string drive;          ///< the real drive behind the profile; empty when none
  uint64_t image_bytes = 0;   ///< the emulated disk's size
  uint64_t stroke_bytes = 0;  ///< the model's capacity_bytes: the image is the whole stroke
  double runtime_seconds = 0;
  std::string fio_version;
  std::string kernel;
  std::vector<CalibrationRow> rows;
  /// Whether every claimed figure is within the tolerance (true when none is claimed).
  bool AllClaimedWithin() const;
};

/// The rows of `figures` against `measured` (by check), in check order.
std::vector<CalibrationRow> CalibrationRows(const DriveFigures& figures,
                                            const std::map<CalibrationCheck, double>& measured);

nlohmann::json CalibrationResultToJson(const CalibrationResult& result);

/// Before each check: the drive brought back to rest (its write cache destaged by a flush, the
/// page cache dropped), so that no check pays for what the one before it left (a 256 MB write
/// cache that random writes filled takes a minute to destage). False with err (one line).
using SettleDrive = std::function<bool(std::string* err)>;

/// How long `check` runs: `runtime_seconds` (`--runtime`), or the length of the published
/// measurement of `figures` it is held against when that is longer, so that a figure a write
/// cache shapes (st2000dm006's random writes over 30 s) is measured as it was published.
double CalibrationCheckSeconds(CalibrationCheck check, const DriveFigures& figures,
                               double runtime_seconds);

/// Runs every check on `device` with `fio`, one job file after another (kept in `work_dir`),
/// each for CalibrationCheckSeconds, `settle` before each, and fills `measured`. Progress says
/// each check. False with err (one line) when settling or fio fails.
[[nodiscard]] bool RunCalibrationChecks(const std::string& device, const DriveFigures& figures,
                                        double runtime_seconds, const std::string& work_dir,
                                        FioRunner* fio, const SettleDrive& settle,
                                        Progress* progress,
                                        std::map<CalibrationCheck, double>* measured,
                                        std::string* err);

}  // namespace elevbench
