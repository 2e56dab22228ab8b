#include "reporters/calibration_text.h"

#include <cmath>

#include "harness/core/strings.h"
#include "reporters/text_table.h"

namespace elevbench {
namespace {

// A figure with as many decimals as its size asks: 17.41, 205.3, 15512, 0.124.
std::string Figure(double value) {
  const double a = std::fabs(value);
  return FormatDouble(a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", value);
}

std::string Published(const PublishedFigure& f, const std::string& unit) {
  return (f.low < f.high ? Figure(f.low) + "-" + Figure(f.high) : Figure(f.value)) + " " + unit;
}

std::string Header(const CalibrationResult& r) {
  std::string line = "Calibration of the emulated " + r.profile + " disk" +
                     (r.drive.empty() ? "" : ": " + r.drive) + "\n";
  line +=
      "fio on its loop device, scheduler none, " + FormatDouble("%.0f", r.runtime_seconds) +
      " s a check, the " + std::to_string(r.image_bytes >> 20) + " MiB image" +
      (r.stroke_bytes == r.image_bytes ? " as the whole stroke"
                                       : " of a " + Figure(r.stroke_bytes / 1e9) + " GB stroke") +
      (r.fio_version.empty() ? "" : ", " + r.fio_version) +
      (r.kernel.empty() ? "" : ", Linux " + r.kernel) + "\n\n";
  return line;
}

}  // namespace

std::string RenderCalibrationText(const CalibrationResult& r) {
  const std::string within_title =
      "Within " + FormatDouble("%.0f", kCalibrationTolerance * 100) + " %";
  std::vector<std::vector<std::string>> table = {
      {"Check", "Model", "Published", "Ratio", within_title, "Source"}};
  std::vector<std::vector<std::string>> unclaimed = {{"Check", "Model", "Not claimed because"}};
  size_t claimed = 0, within = 0;
  for (const CalibrationRow& row : r.rows) {
    const std::string unit = CalibrationCheckUnit(row.check);
    const std::string model = Figure(row.measured) + " " + unit;
    if (!row.claimed) {
      const std::string published =
          row.published ? " (published " + Published(*row.published, unit) + ")" : "";
      unclaimed.push_back(
          {CalibrationCheckTitle(row.check), model, row.unclaimed_reason + published});
      continue;
    }
    ++claimed;
    within += row.within ? 1 : 0;
    table.push_back({CalibrationCheckTitle(row.check), model, Published(*row.published, unit),
                     FormatDouble("%.2f", row.ratio), row.within ? "yes" : "NO",
                     row.published->source});
  }
  std::string text = Header(r);
  if (claimed > 0) text += RenderTextTable(table) + "\n";
  if (unclaimed.size() > 1) text += RenderTextTable(unclaimed) + "\n";
  text += claimed == 0 ? "The " + r.profile + " profile claims no published figure.\n"
                       : std::to_string(within) + " of " + std::to_string(claimed) +
                             " published figures within " +
                             FormatDouble("%.0f", kCalibrationTolerance * 100) + " %.\n";
  return text;
}

}  // namespace elevbench
