#include "harness/run/disk_calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace elevbench {
namespace {

using C = CalibrationCheck;

// The job's own lines after [global]: the section(s) of `check`.
std::string CheckSections(C check) {
  switch (check) {
    case C::kRandReadQd1Ms:
      return "[randread_qd1]\nrw=randread\nbs=4k\niodepth=1\n";
    case C::kRandReadQd32Iops:
      return "[randread_qd32]\nrw=randread\nbs=4k\niodepth=32\n";
    case C::kSeqReadMbps:
      return "[seqread]\nrw=read\nbs=1m\niodepth=4\n";
    case C::kSeqWriteMbps:
      return "[seqwrite]\nrw=write\nbs=1m\niodepth=4\n";
    case C::kRandWriteQd1Iops:
      return "[randwrite_qd1]\nrw=randwrite\nbs=4k\niodepth=1\n";
    case C::kWriteFsyncPerSecond:
      return "[write_fsync]\nrw=write\nbs=4k\nioengine=psync\nfsync=1\n";
    case C::kFlushAfter8Ms:
      return "[flush_after_8]\nrw=randwrite\nbs=4k\nioengine=psync\nfsync=8\n";
    case C::kFlushAfter64Ms:
      return "[flush_after_64]\nrw=randwrite\nbs=4k\nioengine=psync\nfsync=64\n";
    case C::kReadsKeptBesideFsyncWriterPct:
      // The writer keeps to the upper half, so the reader's offsets are those of its run alone.
      return "[reader]\nrw=randread\nbs=4k\niodepth=1\nsize=50%\n"
             "[writer]\nrw=write\nbs=4k\nioengine=psync\nfsync=1\noffset=50%\n";
  }
  return "";
}

// I/Os a second of one direction over its own runtime; 0 without I/O.
double Iops(const FioDirectionResult& d) {
  return d.runtime_ms == 0 ? 0.0 : static_cast<double>(d.total_ios) * 1000.0 / d.runtime_ms;
}

const FioJobResult* JobNamed(const FioRunResult& result, const std::string& name) {
  for (const FioJobResult& j : result.jobs) {
    if (j.name == name) return &j;
  }
  return nullptr;
}

bool Positive(double value, const std::string& what, double* figure, std::string* err) {
  if (!(value > 0) || !std::isfinite(value)) {
    *err = what + ": fio reported none";
    return false;
  }
  *figure = value;
  return true;
}

}  // namespace

std::string CalibrationJobText(CalibrationCheck check, const std::string& device,
                               double runtime_seconds) {
  char runtime[32];
  std::snprintf(runtime, sizeof runtime, "%.0f", std::max(1.0, std::round(runtime_seconds)));
  return std::string("[global]\nfilename=") + device +
         "\ndirect=1\nioengine=libaio\nthread\ntime_based\nruntime=" + runtime +
         "\nclat_percentiles=1\n" + CheckSections(check);
}

bool CalibrationFigure(CalibrationCheck check, const FioRunResult& result, double reads_alone_iops,
                       double* figure, std::string* err) {
  const std::string what = CalibrationCheckKey(check);
  if (check == C::kReadsKeptBesideFsyncWriterPct) {
    const FioJobResult* reader = JobNamed(result, "reader");
    if (reader == nullptr || reads_alone_iops <= 0) {
      *err = what + ": no reader job, or no QD1 read rate alone to compare with";
      return false;
    }
    return Positive(100.0 * Iops(reader->read) / reads_alone_iops, what, figure, err);
  }
  if (result.jobs.size() != 1) {
    *err = what + ": expected one job in fio's result, found " + std::to_string(result.jobs.size());
    return false;
  }
  const FioJobResult& j = result.jobs.front();
  if (j.error != 0) {
    *err = what + ": fio's job failed (errno " + std::to_string(j.error) + ")";
    return false;
  }
  switch (check) {
    case C::kRandReadQd1Ms:
      return Positive(j.read.clat.mean_ns() / 1e6, what, figure, err);
    case C::kRandReadQd32Iops:
      return Positive(Iops(j.read), what, figure, err);
    case C::kSeqReadMbps:
      return Positive(j.read.bw_bytes / 1e6, what, figure, err);
    case C::kSeqWriteMbps:
      return Positive(j.write.bw_bytes / 1e6, what, figure, err);
    case C::kRandWriteQd1Iops:
    case C::kWriteFsyncPerSecond:
      return Positive(Iops(j.write), what, figure, err);
    case C::kFlushAfter8Ms:
    case C::kFlushAfter64Ms:
      return Positive(static_cast<double>(j.sync_lat.ValueAtPercentile(50)) / 1e6, what, figure,
                      err);
    case C::kReadsKeptBesideFsyncWriterPct:
      break;
  }
  *err = what + ": no figure";
  return false;
}

bool CalibrationResult::AllClaimedWithin() const {
  for (const CalibrationRow& r : rows) {
    if (r.claimed && !r.within) return false;
  }
  return true;
}

std::vector<CalibrationRow> CalibrationRows(const DriveFigures& figures,
                                            const std::map<CalibrationCheck, double>& measured) {
  std::vector<CalibrationRow> rows;
  for (CalibrationCheck check : AllCalibrationChecks()) {
    CalibrationRow row;
    row.check = check;
    const auto m = measured.find(check);
    row.measured = m == measured.end() ? 0.0 : m->second;
    for (const PublishedFigure& f : figures.figures) {
      if (f.check != check) continue;
      row.published = f;
      row.claimed = f.claimed();
      row.unclaimed_reason = f.not_claimed_because;
    }
    for (const UnclaimedCheck& u : figures.unclaimed) {
      if (u.check == check) row.unclaimed_reason = u.reason;
    }
    if (row.published && row.published->value > 0) {
      row.ratio = row.measured / row.published->value;
      row.within = m != measured.end() &&
                   row.measured >= row.published->low * (1 - kCalibrationTolerance) &&
                   row.measured <= row.published->high * (1 + kCalibrationTolerance);
    }
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json CalibrationResultToJson(const CalibrationResult& result) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CalibrationRow& r : result.rows) {
    nlohmann::json row = {{"check", CalibrationCheckKey(r.check)},
                          {"title", CalibrationCheckTitle(r.check)},
                          {"unit", CalibrationCheckUnit(r.check)},
                          {"model", r.measured}};
    if (r.published) {
      row["published"] = {{"value", r.published->value},
                          {"low", r.published->low},
                          {"high", r.published->high},
                          {"source", r.published->source}};
      row["ratio"] = r.ratio;
      row["within_tolerance"] = r.within;
    }
    if (!r.claimed) row["not_claimed"] = r.unclaimed_reason;
    rows.push_back(row);
  }
  return {{"profile", result.profile},
          {"drive", result.drive},
          {"image_bytes", result.image_bytes},
          {"stroke_bytes", result.stroke_bytes},
          {"runtime_seconds", result.runtime_seconds},
          {"fio_version", result.fio_version},
          {"kernel", result.kernel},
          {"tolerance", kCalibrationTolerance},
          {"all_claimed_within", result.AllClaimedWithin()},
          {"rows", rows}};
}

double CalibrationCheckSeconds(CalibrationCheck check, const DriveFigures& figures,
                               double runtime_seconds) {
  double seconds = runtime_seconds;
  for (const PublishedFigure& f : figures.figures) {
    if (f.check == check) seconds = std::max(seconds, f.window_seconds);
  }
  return seconds;
}

bool RunCalibrationChecks(const std::string& device, const DriveFigures& figures,
                          double runtime_seconds, const std::string& work_dir, FioRunner* fio,
                          const SettleDrive& settle, Progress* progress,
                          std::map<CalibrationCheck, double>* measured, std::string* err) {
  const std::vector<CalibrationCheck>& checks = AllCalibrationChecks();
  progress->Start("calibrate", checks.size());
  double reads_alone_iops = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    progress->BeginCell(i, CalibrationCheckTitle(checks[i]));
    if (settle && !settle(err)) {
      *err = "before " + CalibrationCheckKey(checks[i]) + ": " + *err;
      progress->Finish(true);
      return false;
    }
    const double seconds = CalibrationCheckSeconds(checks[i], figures, runtime_seconds);
    FioInvocation inv;
    inv.job_text = CalibrationJobText(checks[i], device, seconds);
    inv.work_dir = work_dir;
    inv.label = CalibrationCheckKey(checks[i]);
    inv.timeout_seconds = seconds * 2 + 120;  // fio's own runtime, its set-up, a flush
    FioRunResult result;
    double figure = 0;
    if (!fio->Run(inv, &result, err) ||
        !CalibrationFigure(checks[i], result, reads_alone_iops, &figure, err)) {
      progress->Finish(true);
      return false;
    }
    if (checks[i] == CalibrationCheck::kRandReadQd1Ms && !result.jobs.empty()) {
      reads_alone_iops = Iops(result.jobs.front().read);
    }
    (*measured)[checks[i]] = figure;
    progress->EndCell();
  }
  progress->Finish();
  return true;
}

}  // namespace elevbench
