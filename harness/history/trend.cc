#include "harness/history/trend.h"

#include <algorithm>
#include <cctype>

#include "harness/core/strings.h"

namespace elevbench {
namespace {

void AddUnique(std::vector<std::string>* list, const std::string& value) {
  if (std::find(list->begin(), list->end(), value) == list->end()) list->push_back(value);
}

// A list of choices in a message, an empty name shown as "".
std::string Join(std::vector<std::string> items) {
  for (std::string& s : items) {
    if (s.empty()) s = "\"\"";
  }
  return JoinWith(items, ", ");
}

// How a configuration is named to the user: its label, else its scheduler, else identifier.
std::string ConfigurationName(const MeasuredKey& k) {
  if (!k.label.empty()) return k.label;
  return k.scheduler.empty() ? k.identifier : k.scheduler;
}

std::string ConfigurationChoice(const MeasuredKey& k) {
  const std::string name = ConfigurationName(k);
  return k.scheduler.empty() || k.scheduler == name ? name : name + " (" + k.scheduler + ")";
}

// As SeriesKey::configuration says: scheduler, label, identifier or code (#45: "dl" of
// 6.18.44-dl in a file without labels), the last three in any case.
bool MatchesConfiguration(const MeasuredKey& k, const std::string& wanted) {
  const std::string id = Lowercase(k.identifier), want = Lowercase(wanted);
  return k.scheduler == wanted || id == want || Lowercase(k.label) == want ||
         (id.size() > want.size() && id.ends_with("-" + want));
}

// Picks `wanted` among `choices` (or the only choice when wanted is empty). `what` names the
// option ("section"), `where` the context of the message ("in tiobench").
bool Choose(const std::vector<std::string>& choices, const std::string& wanted,
            const std::string& what, const std::string& where, std::string* chosen,
            std::string* err) {
  if (wanted.empty()) {
    if (choices.size() == 1) {
      *chosen = choices[0];
      return true;
    }
    *err = "give --" + what + " (" + where + ": " + Join(choices) + ")";
    return false;
  }
  if (std::find(choices.begin(), choices.end(), wanted) != choices.end()) {
    *chosen = wanted;
    return true;
  }
  *err = "no " + what + " '" + wanted + "' " + where + " (" + what + "s: " + Join(choices) + ")";
  return false;
}

// --row as given, or "--row 4" for "threads=4" when exactly one row has that value.
std::string TrendRowWanted(const std::vector<std::string>& rows, const std::string& wanted) {
  if (wanted.empty() || std::find(rows.begin(), rows.end(), wanted) != rows.end()) return wanted;
  std::vector<std::string> by_value;
  for (const std::string& r : rows) {
    const size_t eq = r.find('=');
    if (eq != std::string::npos && r.substr(eq + 1) == wanted) by_value.push_back(r);
  }
  return by_value.size() == 1 ? by_value[0] : wanted;
}

// The row of key's section, keeping in *keys only its measurements.
bool ResolveTrendRow(const TrendRequest& request, std::vector<MeasuredKey>* keys, SeriesKey* key,
                     std::string* err) {
  std::vector<std::string> rows;
  for (const MeasuredKey& k : *keys) AddUnique(&rows, k.row);
  const std::string row_wanted = TrendRowWanted(rows, request.row);
  const std::string where = "in " + key->suite + " " + key->section;
  if (rows.size() == 1 && rows[0].empty() && !row_wanted.empty()) {
    *err = key->suite + " " + key->section + " has a single row: leave out --row";
    return false;
  }
  if (!Choose(rows, row_wanted, "row", where, &key->row, err)) return false;
  std::erase_if(*keys, [&](const MeasuredKey& k) { return k.row != key->row; });
  return true;
}

// The configuration: --config when it names one of *keys (keeping only its measurements), else
// the only one there is. `where_row` places the message ("in tiobench seq threads=4").
bool ResolveTrendConfiguration(const TrendRequest& request, const std::string& where_row,
                               std::vector<MeasuredKey>* keys, SeriesKey* key, std::string* err) {
  std::vector<std::string> configurations;
  for (const MeasuredKey& k : *keys) AddUnique(&configurations, ConfigurationChoice(k));
  if (request.configuration.empty()) {
    std::vector<std::string> names;
    for (const MeasuredKey& k : *keys) AddUnique(&names, ConfigurationName(k));
    if (names.size() != 1) {
      *err = "give --config (" + where_row + ": " + Join(configurations) + ")";
      return false;
    }
    key->configuration = names[0];
    return true;
  }
  std::erase_if(
      *keys, [&](const MeasuredKey& k) { return !MatchesConfiguration(k, request.configuration); });
  if (keys->empty()) {
    // A configuration whose every cell failed is in `history`'s list but has no measurement.
    *err = "no configuration '" + request.configuration + "' with measurements " + where_row +
           " (measured: " + Join(configurations) + "; one whose cells all failed has none)";
    return false;
  }
  // A label or identifier named whole wins over codes and schedulers; a code ("none") or a
  // scheduler that several labelled configurations share names no one of them: a --kernels
  // run's rows (6.1.0-50-cloud-NONE, 6.12.118-cloud-NONE) would be read as one series.
  const std::string want = Lowercase(request.configuration);
  const auto whole = [&](const MeasuredKey& k) {
    return Lowercase(k.identifier) == want || Lowercase(k.label) == want;
  };
  if (std::any_of(keys->begin(), keys->end(), whole)) {
    std::erase_if(*keys, [&](const MeasuredKey& k) { return !whole(k); });
  }
  std::vector<std::string> labels;
  for (const MeasuredKey& k : *keys) {
    if (!k.label.empty()) AddUnique(&labels, k.label);
  }
  if (labels.size() > 1) {
    *err = "--config '" + request.configuration + "' names " + std::to_string(labels.size()) +
           " configurations " + where_row + " (" + Join(labels) + "): give one of them";
    return false;
  }
  key->configuration = request.configuration;
  return true;
}

// The metric: --metric among those of keys, else the headline one, else the first.
bool ResolveTrendMetric(const TrendRequest& request, const std::string& where_row,
                        const std::vector<MeasuredKey>& keys, SeriesKey* key, std::string* err) {
  std::vector<std::string> metrics;
  std::string headline;
  for (const MeasuredKey& k : keys) {
    AddUnique(&metrics, k.metric);
    if (k.headline && headline.empty()) headline = k.metric;
  }
  if (request.metric.empty()) {
    key->metric = headline.empty() ? metrics.front() : headline;
    return true;
  }
  return Choose(metrics, request.metric, "metric", where_row, &key->metric, err);
}

}  // namespace

bool ResolveTrendRequest(HistoryStore* store, const TrendRequest& request, SeriesKey* key,
                         std::string* err) {
  std::vector<std::string> suites;
  if (!store->Suites(&suites, err)) return false;
  if (suites.empty()) {
    *err =
        "the history has no runs yet (every 'elevbench run' adds one; 'elevbench history "
        "import FILE' adds saved ones)";
    return false;
  }
  *key = SeriesKey{};
  key->host = request.host;
  if (!Choose(suites, request.suite, "suite", "in the history", &key->suite, err)) return false;
  std::vector<MeasuredKey> keys;
  if (!store->MeasuredKeys(key->suite, request.host, &keys, err)) return false;
  if (keys.empty()) {
    *err = "no measurements of " + key->suite +
           (request.host.empty() ? "" : " on host '" + request.host + "'") + " in the history";
    return false;
  }

  std::vector<std::string> sections;
  for (const MeasuredKey& k : keys) AddUnique(&sections, k.section);
  if (!Choose(sections, request.section, "section", "in " + key->suite, &key->section, err)) {
    return false;
  }
  std::erase_if(keys, [&](const MeasuredKey& k) { return k.section != key->section; });
  if (!ResolveTrendRow(request, &keys, key, err)) return false;

  const std::string where = "in " + key->suite + " " + key->section;
  const std::string where_row = key->row.empty() ? where : where + " " + key->row;
  if (!ResolveTrendConfiguration(request, where_row, &keys, key, err)) return false;
  return ResolveTrendMetric(request, where_row, keys, key, err);
}

Trend BuildTrend(const SeriesKey& key, const std::vector<SeriesPoint>& points, double alpha) {
  Trend trend;
  trend.key = key;
  trend.alpha = alpha;
  if (!points.empty()) trend.metric = points.back().metric;
  trend.points.reserve(points.size());
  const TrendPoint* previous = nullptr;  // stays valid: the vector never grows past `reserve`
  for (const SeriesPoint& p : points) {
    TrendPoint t;
    t.point = p;
    t.summary = Summarize(p.values, p.metric.mean);
    if (previous != nullptr && t.summary.n > 0) {
      t.has_previous = true;
      t.previous_n = previous->summary.n;
      if (previous->summary.mean != 0) {
        t.change_pct = (t.summary.mean - previous->summary.mean) / previous->summary.mean * 100;
      }
      if (t.summary.n >= 2 && previous->summary.n >= 2) {
        t.tested = true;
        t.test = MannWhitneyU(p.values, previous->point.values);
        t.significant = t.test.p_value < alpha;
      }
      if (t.significant) {
        const bool up = t.summary.mean > previous->summary.mean;
        switch (p.metric.direction) {
          case Direction::kHigherIsBetter:
            t.verdict = up ? "better" : "worse";
            break;
          case Direction::kLowerIsBetter:
            t.verdict = up ? "worse" : "better";
            break;
          case Direction::kNeither:
            t.verdict = "changed";
            break;
        }
      }
    }
    trend.points.push_back(std::move(t));
    if (trend.points.back().summary.n > 0) previous = &trend.points.back();
  }
  return trend;
}

bool ReadTrendSeries(HistoryStore* store, const TrendRequest& request, SeriesKey* key,
                     std::vector<SeriesPoint>* points, bool* bad_request, std::string* err) {
  *bad_request = !ResolveTrendRequest(store, request, key, err);
  return !*bad_request && store->Series(*key, points, err);
}

std::vector<std::string> SeriesHosts(const std::vector<SeriesPoint>& points) {
  std::vector<std::string> hosts;
  for (const SeriesPoint& p : points) {
    if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end()) hosts.push_back(p.host);
  }
  return hosts;
}

}  // namespace elevbench
