#include "harness/run/suite.h"

#include "harness/fio/fio_runner.h"

namespace elevbench {

bool Suite::SetUp(const CellEnvironment&, nlohmann::json*, std::string*) { return true; }

void Suite::TearDown(const CellEnvironment&) {}

bool Suite::CheckTarget(const TargetFacts&, std::string*) { return true; }

bool Suite::VariantTakesLanes(const SuiteVariant&, int) const { return true; }

bool LayOutWithFio(const CellEnvironment& env, const FioGlobalSpec& global,
                   std::vector<StreamSpec> streams, const std::string& label,
                   double timeout_seconds, const std::string& what, std::string* err) {
  FioInvocation inv;
  inv.global = global;
  inv.streams = std::move(streams);
  inv.work_dir = env.work_dir;
  inv.label = env.label_prefix + label;
  inv.timeout_seconds = timeout_seconds;
  FioRunResult run;
  if (!env.fio->Run(inv, &run, err)) {
    *err = what + ": " + *err;
    return false;
  }
  return true;
}

}  // namespace elevbench
