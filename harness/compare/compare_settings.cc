#include "harness/compare/compare_settings.h"

#include "harness/core/strings.h"

namespace elevbench {

bool ParseMetricSelection(const std::string& text, CompareSettings* settings, std::string* err) {
  const std::string t = TrimWhitespace(text);
  settings->metric_names.clear();
  if (t == "headline") {
    settings->metrics = MetricSelection::kHeadline;
    return true;
  }
  if (t == "all") {
    settings->metrics = MetricSelection::kAll;
    return true;
  }
  for (const std::string& name : SplitAndTrim(t, ',')) {
    if (name.empty()) {
      *err = "--metrics: expected headline, all or a list of metric names, got '" + text + "'";
      return false;
    }
    settings->metric_names.push_back(name);
  }
  settings->metrics = MetricSelection::kNamed;
  return true;
}

bool ParseBetween(const std::string& text, CompareSettings* settings, std::string* err) {
  const std::vector<std::string> names = SplitAndTrim(text, ',');
  if (names.size() != 2 || names[0].empty() || names[1].empty()) {
    *err = "--between: expected two configurations A,B, got '" + text + "'";
    return false;
  }
  settings->between_base = names[0];
  settings->between_new = names[1];
  return true;
}

}  // namespace elevbench
