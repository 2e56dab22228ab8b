#pragma once
// Which configurations of a results document have cells that did not finish (status "failed" or
// "interrupted"), how many, and why: every report format lists them beside its tables, so a
// configuration whose every cell failed is a row with its reason, never a silent gap (issue 45).

#include <cstdint>
#include <string>
#include <vector>

#include "harness/results/results_document.h"

namespace elevbench {

/// One configuration's unfinished cells.
struct ConfigurationFailures {
  std::string identifier;            ///< "6.18.44-ky"
  std::string label;                 ///< its short label, or "" when the document has none
  std::string scheduler;             ///< "kyber"
  uint32_t cells = 0;                ///< every cell of the configuration in the document
  uint32_t failed = 0;               ///< cells with status "failed"
  uint32_t interrupted = 0;          ///< cells with status "interrupted"
  std::vector<std::string> reasons;  ///< the distinct errors, in order of first appearance
};

/// The configurations with at least one failed or interrupted cell, in IdentifierOrder(doc)
/// (then any others in order of first appearance).
std::vector<ConfigurationFailures> CellFailuresOf(const ResultsDocument& doc);

/// "6 of 6 cells failed (fio failed (exit 1): planted failure)", "1 of 4 cells interrupted":
/// one line, without the configuration's name.
std::string CellFailuresText(const ConfigurationFailures& failures);

}  // namespace elevbench
