#pragma once
// The cat / ls -lr probes' report in the layout of Nick Piggin's posts
// (docs/legacy-suites.md §5, seed 000, 27 Mar 2003):
//
//   Cat kernel source during seq write
//   DL - 0.03user 0.14system 14:06.45elapsed
//   CF - N/A
//   * CF: DNF after 20 minutes (read 0.5 of 199.5 MB of 10^6 bytes, as --tree-size takes them,
//     12 of 13602 files)
//
// one title line per probe, one row per label with GNU time 1.7's fields (reporters/gnu_time.h),
// "N/A" for a label whose every repetition did not finish, and notes ("* ...", in the spirit of
// the seed's "* Test DNF after 20 minutes.") after the probe's block.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/probes/probe_records.h"

namespace elevbench {

/// A timeout in words: whole minutes as "20 minutes" / "1 minute", anything else in seconds as
/// "90 seconds" / "1 second" / "2.5 seconds" (%g).
std::string ProbeTimeoutText(double seconds);

/// Bytes in words: "800 B" below 1 KiB, "512 KiB" (rounded) below 1 MiB, "190.3 MB" below
/// 1 GiB, else "1.25 GB" (MB = MiB and GB = GiB, as everywhere in elevbench's tables).
std::string ProbeBytesText(uint64_t bytes);

/// The row without newline, `label` printed as given:
///   finished repetitions: "DL - 0.03user 0.13system 5:21.39elapsed" (means over them);
///   none finished, some DNF: "CF - N/A";
///   every repetition failed: "XX - failed (exit 2)".
std::string RenderProbeRow(const std::string& label, const ProbeRow& row);

/// The note lines (each "* ...", without newline) of a row, empty when every repetition
/// finished: one for DNF repetitions, "* CF: DNF after 20 minutes (read 0.5 of 199.5 MB of 10^6
/// bytes, as --tree-size takes them, 12 of 13602 files)" for cat (ProbeDnfProgress) and "(listed
/// 8190 entries)" for ls ("2 of 3 repetitions DNF … (on average read …)" when there were several),
/// and one for failed repetitions when the row line does not already say so ("* CF: 1 of 3
/// repetitions failed (exit 1)").
std::vector<std::string> ProbeNotes(const std::string& label, const ProbeRow& row);

/// The whole report from aggregated rows (AggregateProbeRows order): the environment header of
/// `context`, "(means of N repetitions)" when rows cover more than one repetition, then per
/// probe its title, its rows and their notes. A row without a label prints its identifier.
std::string RenderProbesText(const nlohmann::json& context, const std::vector<ProbeRow>& rows);

/// The suite's renderer (SuiteRenderer): format "nick" only. Rows without a label in their
/// records take doc.labels' entry of their identifier. err when the records are not the probes'.
[[nodiscard]] bool RenderProbesReport(const ResultsDocument& doc, const std::string& format,
                                      std::string* text, std::string* err);

}  // namespace elevbench
