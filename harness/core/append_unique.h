#pragma once
// AppendUnique: the "first seen order" list that reporters build their rows and columns with.

#include <algorithm>
#include <vector>

namespace elevbench {

/// Appends `item` to `items` unless it is already there; the order stays that of first sight.
/// Linear: for the short lists of sections, rows and configurations of a report.
template <typename T>
void AppendUnique(std::vector<T>* items, const T& item) {
  if (std::find(items->begin(), items->end(), item) == items->end()) items->push_back(item);
}

}  // namespace elevbench
