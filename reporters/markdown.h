#pragma once
// `--format md`: GitHub-flavoured Markdown tables of one or several results files, to paste
// into a mail or a pull request. Works for every suite through the tidy layer
// (reporters/report_tables.h): per file a header table (machine, kernel, target, fio, ...) and
// one table per suite section, then a legend.

#include <string>
#include <vector>

#include "reporters/report_tables.h"

namespace elevbench {

/// `text` escaped for GitHub-flavoured Markdown (inline text and table cells): backslash
/// before \ ` * [ ] < > | # ~ &, before _ at the start or end of a word (rate_mb_s stays
/// readable), newlines become spaces.
std::string MarkdownEscape(const std::string& text);

/// The Markdown report of `files` in the given order: "# elevbench report", with `verdict` a
/// "## Verdict" section (its heading, then each file's lines as a list, under "### <suite>:
/// <name>" when there are several files), then per file "## <suite>: <name>" (or "## <suite>"
/// when the name is empty), its header table, a "### <section>" table per section and the
/// legend as a list. Cannot fail: the files were read, their measurements made.
std::string RenderMarkdownReport(const std::vector<NamedResults>& files, bool verdict);

}  // namespace elevbench
