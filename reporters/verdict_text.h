#pragma once
// The verdict block in words (harness/stats/verdict.h): last in every text format `run` and
// `report` print, after a blank line; first in Markdown and HTML, which escape these plain
// lines themselves. One line per headline row:
//
//   bench3 IO Rate: AS best, 1.86× DL (p=0.008, n=5) — read dispatch run 47 vs 1.1; seeks 2.1 % vs
//   89 % bench2 Reads per write: AS best, 1.02× DL, 1.10× CF (n=1: not tested, --repetitions 4 or
//   more)
//
// A line names its metric by its display name (MetricDisplayName), and says "not tested" once.

#include <string>
#include <vector>

#include "harness/stats/verdict.h"
#include "reporters/report_tables.h"

namespace elevbench {

/// A U test's p as every verdict and protection line gives it: "p=0.008", "p<0.001".
std::string PText(double p);

/// "Verdict (headline rows; U test two-sided, p < 0.05 with 4 or more values a side, threshold
/// 5 %):" with the block's settings.
std::string VerdictHeading(const VerdictBlock& block);

/// One row's line, plain text: what (the suite when it is not the document's, the section, the
/// row key, the metric's display name), the best configuration, then for each other one its
/// ratio with the U test's p and the n of both sides, "no difference" or why it has no value
/// (or, when no other one differs, "no difference between" them all), the untested ones last
/// with one "not tested" note for them all, and the trace's evidence after " — " when there is
/// some.
std::string VerdictLineText(const VerdictBlock& block, const VerdictLine& line);

/// The block as a text format ends: a blank line, the heading, one line per headline row (or a
/// line saying there is none), each ending in a newline.
std::string RenderVerdictText(const VerdictBlock& block);

/// One file's part of the verdict that Markdown and HTML open with: its title ("suite: file",
/// empty when the report has one file) and its plain lines (a line saying there is no headline
/// metric when there is none). The renderers only escape and wrap them.
struct VerdictSection {
  std::string title;
  std::vector<std::string> lines;
};

/// The verdict of every file of a report: the first file's heading and one section per file.
void VerdictSectionsOf(const std::vector<NamedResults>& files, std::string* heading,
                       std::vector<VerdictSection>* sections);

}  // namespace elevbench
