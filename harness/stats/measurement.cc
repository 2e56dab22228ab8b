#include "harness/stats/measurement.h"

namespace elevbench {

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
