#include "harness/stats/measurement.h"

namespace elevbench {

RecordMeasurements::RecordMeasurements(std::string suite, std::string section,
                                       const RecordHeader& header, std::vector<Measurement>* out,
                                       std::string status)
    : out_(out) {
  base_.suite = std::move(suite);
  base_.section = std::move(section);
  base_.identifier = header.identifier;
  base_.label = header.label;
  base_.scheduler = header.scheduler;
  base_.repetition = header.repetition;
  base_.status = std::move(status);
}

void RecordMeasurements::operator()(MetricInfo info, double value) const {
  Measurement m = base_;
  m.metric = std::move(info);
  m.value = value;
  if (m.status != "ok") m.reason = reason_;
  out_->push_back(std::move(m));
}

void RecordMeasurements::operator()(MetricInfo info, double value,
                                    const std::string& status) const {
  Measurement m = base_;
  m.metric = std::move(info);
  m.value = value;
  m.status = status;
  if (m.status != "ok") m.reason = reason_;
  out_->push_back(std::move(m));
}

const char* DirectionName(Direction direction) {
  switch (direction) {
    case Direction::kHigherIsBetter:
      return "higher";
    case Direction::kLowerIsBetter:
      return "lower";
    case Direction::kNeither:
      return "neither";
  }
  return "neither";
}

const char* MeanKindName(MeanKind kind) { return kind == MeanKind::kHarmonic ? "hmean" : "mean"; }

}  // namespace elevbench
