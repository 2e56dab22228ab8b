#pragma once
// `elevbench disk calibrate` as a person reads it: a line naming the drive and how it was
// measured, then one row per check with the model's figure beside the real drive's, the ratio and
// whether it is within the tolerance; the checks the profile makes no claim on follow, each with
// its reason, then the answer in one line.
//
//   Calibration of the emulated st2000dm006 disk: Seagate BarraCuda ST2000DM006 (2 TB, 7200 rpm)
//   Check                            Model  Published    Ratio  Within 10 %  Source
//   4 KiB random read, QD1 (mean)    17.41 ms  17.2-17.8 ms  0.99  yes          fio on a real …

#include <string>

#include "harness/run/disk_calibration.h"

namespace elevbench {

/// The calibration's table; each line ends in a newline.
std::string RenderCalibrationText(const CalibrationResult& result);

}  // namespace elevbench
