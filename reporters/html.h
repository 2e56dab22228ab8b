#pragma once
// `--format html`: one self-contained HTML page for one or several results files: inline CSS,
// the plots as inline SVG drawn by gnuplot (reporters/plots.h), no script, no external URL, so
// it can be mailed or archived as one file and opened offline. Works for every suite through
// the tidy layer (reporters/report_tables.h). Without gnuplot the page has the tables and a
// note saying the plots need Debian's gnuplot-nox.

#include <string>
#include <vector>

#include "reporters/gnuplot.h"
#include "reporters/report_tables.h"

namespace elevbench {

/// The HTML report of `files` in the given order: with `verdict` first a <section
/// class="verdict"> with every file's verdict lines (reporters/verdict_text.h), then a header
/// table per file (machine, kernel, target, fio, ...), a table per suite section with its
/// legend, then the file's plots (each a <figure class="plot"> holding one <svg>, or a note
/// when gnuplot failed on it, or a note that gnuplot is missing). The files come with their
/// measurements and plot series made (app/suites.h RenderReport), so nothing here can fail.
std::string RenderHtmlReport(const std::vector<NamedResults>& files, const GnuplotOptions& gnuplot,
                             bool verdict);

}  // namespace elevbench
