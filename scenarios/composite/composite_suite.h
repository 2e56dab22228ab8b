#pragma once
// A suite made of other suites run one after another in every configuration: `post-2003` runs
// the probes, contest, tiobench, the OraSim stand-in and nickbench in the order of Nick
// Piggin's post. Each part is an ordinary suite from the table, configured by a command line
// of its own options, so a part behaves exactly as `elevbench run <part>` would; the composite
// only chains their variants, tags their records with the part, and projects a composite
// results document back onto each part for its measurer and renderer.

#include <memory>
#include <string>
#include <vector>

#include "harness/run/suite.h"
#include "harness/stats/measurement.h"

namespace elevbench {

/// One part: a suite of the table and its options ("--size 1024 --threads 1,4").
struct CompositePart {
  std::string suite;
  std::string arguments;
};

/// A yes/no option of the composite itself, recorded in its parameters for its renderer
/// ("--beside-2003" → "beside_2003": true).
struct CompositeFlag {
  std::string option;     ///< "--beside-2003"
  std::string parameter;  ///< "beside_2003"
  std::string help;
};

/// What the composite needs of one part's suite: how to make it, its measurer and the CPUs a
/// lane of it needs (0: it takes no lanes).
struct PartSuite {
  std::unique_ptr<Suite> (*make)() = nullptr;
  SuiteMeasurer measure = nullptr;
  int lane_cpus = 0;
};

/// Finds the suite a part names; false for a suite this build does not know. The table of
/// suites, which sits above the composite, hands its lookup in, so that the composite knows no
/// table (scripts/check-layers).
using PartSuiteLookup = bool (*)(const std::string& suite, PartSuite* out);

/// Makes a composite of `parts` (in run order) named `name`, finding each part's suite through
/// `lookup`. Its own options: `--parts a,b` (a subset, in the composite's order), `--part-args
/// SUITE=ARGS` (repeatable: replaces a part's arguments) and `flags`. `extra_parameters` are
/// written into its Parameters() beside the parts'.
std::unique_ptr<Suite> MakeCompositeSuite(std::string name, std::vector<CompositePart> parts,
                                          PartSuiteLookup lookup, nlohmann::json extra_parameters,
                                          std::vector<CompositeFlag> flags = {});

/// The part of a composite results document that belongs to `part`: its cells (their variant
/// without "part"), its records (without "part"), its parameters, set-up and summary, under the
/// part's suite name, with the composite's identifiers and labels and a context holding only
/// what the part's tables read (repetitions) — so the part renders without a second machine
/// header. A document without that part gives an empty one.
ResultsDocument PartDocument(const ResultsDocument& doc, const std::string& part);

/// The parts of a composite results document, in run order (its parameters' "parts").
std::vector<std::string> CompositeParts(const ResultsDocument& doc);

/// The tidy measurements of a composite document: each part's, through the measurer `lookup`
/// finds for it.
[[nodiscard]] bool CompositeMeasurements(const ResultsDocument& doc, PartSuiteLookup lookup,
                                         std::vector<Measurement>* out, std::string* err);

}  // namespace elevbench
