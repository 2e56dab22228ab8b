#pragma once
// `run command`'s report in the style of the probe suites (reporters/probes_text.h):
//
//   tar -xf /src/linux.tar during seq-write
//   (set-up before each run: cp /src/linux.tar .)
//   DL  - 0.52user 1.94system 0:03.21elapsed 0major 12034minor, read 0.1 MB, wrote 180.3 MB;
//   load 41.2 MB/s at the device BFQ - N/A
//   * BFQ: DNF after 20 minutes
//
// a title line (the program, and the load beside it), the set-up when there is one, one row
// per configuration with GNU time 1.7's fields (means over the finished repetitions), the
// program's faults and storage bytes, and the load's rate as the device saw it; "N/A" for a
// configuration whose every repetition did not finish, "failed (exit 2)" for one whose every
// repetition failed, and notes ("* ...") after the rows: DNFs, failures with the tail of stderr.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/command/command_records.h"

namespace elevbench {

/// The row without newline, `label` printed as given (see the header's example).
std::string RenderCommandRow(const std::string& label, const CommandRow& row);

/// The note lines ("* ...", without newline) of a row; empty when every repetition finished.
std::vector<std::string> CommandNotes(const std::string& label, const CommandRow& row);

/// The whole report from aggregated rows: the environment header of `context`, "(means of N
/// repetitions)" when rows cover more than one, the title, the set-up line (`setup` empty: none),
/// the rows and their notes. A row without a label prints its identifier.
std::string RenderCommandText(const nlohmann::json& context, const std::string& setup,
                              const std::vector<CommandRow>& rows);

/// The suite's renderer (SuiteRenderer): format "nick" only. Rows without a label in their
/// records take doc.labels' entry of their identifier. err when the records are not command's.
[[nodiscard]] bool RenderCommandReport(const ResultsDocument& doc, const std::string& format,
                                       std::string* text, std::string* err);

}  // namespace elevbench
