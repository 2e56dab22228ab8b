#include "reporters/post2003_text.h"

#include <algorithm>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/seed_2003.h"
#include "reporters/suite_report.h"
#include "scenarios/composite/composite_suite.h"

namespace elevbench {
namespace {

// The post's own heading of a part whose renderer starts with its first table (contest's nick
// format prints its own "Contest").
std::string PartHeading(const std::string& part) {
  if (part == "tiobench") return "tiobench\n";
  return "";
}

}  // namespace

std::string AddSeed2003Lines(const std::string& post_text) {
  std::ostringstream out;
  out << "(under each row, \"2003:\" is Nick Piggin's line for the same label: lkml 25/27 Mar "
         "2003, 2.5.65-mm4, UP P4 2.0 GHz, 256 MB, Maxtor 6E040L0, ext2)\n";
  const auto& seed = Seed2003Rows();
  std::istringstream in(post_text);
  std::string line, section;
  while (std::getline(in, line)) {
    out << line << "\n";
    const std::string title = PostSectionOf(line);
    if (!title.empty()) {
      section = title;
      continue;
    }
    PostRowKey key;
    if (!PostRowKeyOf(section, line, &key)) continue;
    const auto it = seed.find(key);
    if (it != seed.end()) out << "  2003: " << it->second << "\n";
  }
  return out.str();
}

bool RenderPost2003Report(const ResultsDocument& doc, const std::string& format,
                          Post2003PartRenderer render_part, std::string* text, std::string* err) {
  if (!CheckSuiteFormat({"post-2003", {"nick", "beside-2003"}}, format, err)) return false;
  std::string post;
  for (const std::string& part : CompositeParts(doc)) {
    const ResultsDocument sub = PartDocument(doc, part);
    post += PartHeading(part);
    if (sub.records.empty()) {
      post += part + ": (no results)\n";
      continue;
    }
    std::string part_text;
    if (!render_part(sub, part, &part_text, err)) {
      *err = part + ": " + *err;
      return false;
    }
    post += part_text;
  }
  const bool beside = format == "beside-2003" ||
                      (doc.parameters.is_object() && doc.parameters.value("beside_2003", false));
  *text = RenderEnvironmentHeader(doc.context, kUnitsMebibytes) +
          (beside ? AddSeed2003Lines(post) : post);
  return true;
}

}  // namespace elevbench
