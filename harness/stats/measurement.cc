#include "harness/stats/measurement.h"

#include <cctype>

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
  base_.control = header.control;
  base_.kernel = header.kernel.label;
  base_.configuration_label = header.configuration_label;
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

std::string SpelledUnit(const std::string& unit) {
  std::string out;
  for (size_t i = 0; i < unit.size(); ++i) {
    // "MB" as a word of its own ("MB/s", "MB/s per CPU"), never inside another word.
    const bool word_start = i == 0 || !std::isalpha(static_cast<unsigned char>(unit[i - 1]));
    if (word_start && unit.compare(i, 2, "MB") == 0 &&
        (i + 2 == unit.size() || !std::isalpha(static_cast<unsigned char>(unit[i + 2])))) {
      out += "MiB";
      ++i;
    } else {
      out += unit[i];
    }
  }
  return out;
}

}  // namespace elevbench
