#include "harness/run/suite.h"

namespace elevbench {

bool Suite::SetUp(const CellEnvironment&, nlohmann::json*, std::string*) { return true; }

void Suite::TearDown(const CellEnvironment&) {}

bool Suite::CheckTarget(const TargetFacts&, std::string*) { return true; }

bool Suite::VariantTakesLanes(const SuiteVariant&, int) const { return true; }

}  // namespace elevbench
