#pragma once
// A plain text table for the listings (`history`, `disk profiles`, `kernels`): columns as wide
// as their widest cell, two spaces apart, no trailing blanks. The 2003 layouts have their own
// fixed widths (seed_2003.h); compare's table counts display width (compare_text.cc).

#include <string>
#include <vector>

namespace elevbench {

/// `rows` as lines, each ending in "\n"; the columns whose `right` entry is true are
/// right-aligned (numbers), the others (and those past `right`'s end) left-aligned.
std::string RenderTextTable(const std::vector<std::vector<std::string>>& rows,
                            const std::vector<bool>& right = {});

}  // namespace elevbench
