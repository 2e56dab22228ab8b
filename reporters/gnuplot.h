#pragma once
// Running gnuplot (Debian's gnuplot-nox) to draw one SVG, and making that SVG fit inline into an
// HTML page. gnuplot runs as a child process (harness/process/subprocess.h) with a time limit;
// its script and output are temporary files; the data is inline in the script (datablocks), so
// nothing else is read.

#include <string>

namespace elevbench {

/// How to run gnuplot.
struct GnuplotOptions {
  std::string program = "gnuplot";  ///< searched in PATH
  double timeout_seconds = 60;      ///< one plot; the child is stopped after that
};

/// True when options.program is an executable in PATH.
bool GnuplotAvailable(const GnuplotOptions& options);

/// Draws one SVG: writes "set terminal svg size W,H dynamic noenhanced …", "set output …" and
/// `script` to a temporary file, runs gnuplot on it and reads the SVG back. err (one line: the
/// last line of gnuplot's stderr, a timeout, or why the files could not be made) when gnuplot
/// fails or writes no SVG. Temporary files are removed on every path.
[[nodiscard]] bool RunGnuplotSvg(const std::string& script, int width, int height,
                                 const GnuplotOptions& options, std::string* svg, std::string* err);

/// gnuplot's SVG made fit for inline use in an HTML page: the XML declaration and anything
/// before <svg dropped, the xmlns attributes dropped (the HTML parser knows SVG; so the page
/// names no URL), every id, #reference and url(#…) prefixed with `id_prefix` (several plots in
/// one page define the same ids), and gnuplot's <title> replaced by `title` (escaped).
std::string InlineSvg(const std::string& svg, const std::string& id_prefix,
                      const std::string& title);

/// `text` as a gnuplot single-quoted string: characters outside printable ASCII and the ones
/// that could reach the SVG as markup (< > & " \) become '?', a single quote is doubled.
/// Use with `noenhanced` so that _ ^ @ { } print as themselves.
std::string GnuplotString(const std::string& text);

/// `text` as a double-quoted field of a gnuplot datablock (a column string): the same
/// replacements, and a single quote becomes '?' too.
std::string GnuplotDataString(const std::string& text);

/// A number for a datablock: "%.9g", "NaN" for what is not a finite number.
std::string GnuplotNumber(double value);

}  // namespace elevbench
