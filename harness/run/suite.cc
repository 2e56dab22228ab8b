#include "harness/run/suite.h"

namespace elevbench {

bool Suite::SetUp(const CellEnvironment&, nlohmann::json*, std::string*) { return true; }

void Suite::TearDown(const CellEnvironment&) {}

const SuiteEntry* FindSuite(const std::string& name) {
  for (const SuiteEntry& e : AllSuites()) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace elevbench
