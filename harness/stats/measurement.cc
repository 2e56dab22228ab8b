#include "harness/stats/measurement.h"

#include "harness/run/suite.h"

namespace elevbench {

bool MeasurementsOf(const ResultsDocument& doc, std::vector<Measurement>* out, std::string* err) {
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) {
    *err = "unknown suite '" + doc.suite + "'";
    return false;
  }
  if (entry->measure == nullptr) {
    *err = "suite '" + doc.suite + "' has no measurements";
    return false;
  }
  return entry->measure(doc, out, err);
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
