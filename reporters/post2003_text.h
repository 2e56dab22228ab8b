#pragma once
// The report of `elevbench run post-2003`: Nick Piggin's post of 25/27 March 2003 in its own
// layout — the machine header once, then each part as its own renderer prints it, in the
// post's order, with the post's "Contest" and "tiobench" headings. With "beside-2003" (or a run
// made with --beside-2003) the seed's line for the same section, label and thread count follows
// each row, prefixed "  2003: ", so today's number and 2003's are read together.

#include <string>

#include "harness/results/results_document.h"

namespace elevbench {

/// Puts the seed's line under each row of `post_text` that has one (reporters/seed_2003.h),
/// and a line saying where those lines come from at the top.
std::string AddSeed2003Lines(const std::string& post_text);

/// Renders one part's document (`part` names its suite) as that suite prints it in the post.
using Post2003PartRenderer = bool (*)(const ResultsDocument& part_doc, const std::string& part,
                                      std::string* text, std::string* err);

/// The post in "nick" (the post) or "beside-2003" format, each part printed by `render_part`. A
/// part without finished cells prints its heading and "(no results)". err for another format or
/// a part whose records its renderer rejects, prefixed with the part's name.
[[nodiscard]] bool RenderPost2003Report(const ResultsDocument& doc, const std::string& format,
                                        Post2003PartRenderer render_part, std::string* text,
                                        std::string* err);

}  // namespace elevbench
