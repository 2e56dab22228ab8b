#include "reporters/csv.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "harness/core/strings.h"
#include "harness/stats/metric_table.h"

namespace elevbench {
namespace {

std::string CsvLine(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += CsvField(fields[i]);
  }
  return line + "\n";
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

bool RenderCsvReport(const std::vector<NamedResults>& files, std::string* text, std::string*) {
  std::ostringstream out;
  out << CsvLine({"file", "suite", "section", "row", "identifier", "label", "scheduler",
                  "repetition", "metric", "unit", "direction", "value", "status", "reason",
                  "page_cache"});
  for (const NamedResults& file : files) {
    std::vector<Measurement> measurements = file.measurements;
    AddFailedMeasurements(file.doc, &measurements);
    for (const Measurement& m : measurements) {
      out << CsvLine({file.name, m.suite, m.section, m.row, m.identifier, m.label, m.scheduler,
                      std::to_string(m.repetition), m.metric.name, SpelledUnit(m.metric.unit),
                      DirectionName(m.metric.direction), m.status == "ok" ? CsvNumber(m.value) : "",
                      m.status, m.reason, m.metric.page_cache ? "yes" : "no"});
    }
  }
  *text = out.str();
  return true;
}

bool RenderCsvSummaryReport(const std::vector<NamedResults>& files, std::string* text,
                            std::string*) {
  std::ostringstream out;
  out << CsvLine({"file",      "suite",        "section", "row",       "identifier", "label",
                  "scheduler", "metric",       "unit",    "direction", "headline",   "requested",
                  "n",         "not_measured", "mean",    "mean_kind", "stddev",     "cov",
                  "ci_low",    "ci_high",      "min",     "max",       "reason",     "page_cache"});
  for (const NamedResults& file : files) {
    for (const MetricRow& r : MetricRowsFrom(file.doc, file.measurements)) {
      const SampleSummary& s = r.summary;
      const bool any = s.n > 0;
      auto number = [&](double v, bool shown) { return shown ? CsvNumber(v) : std::string(); };
      out << CsvLine({file.name,
                      r.suite,
                      r.section,
                      r.row,
                      r.identifier,
                      r.label,
                      r.scheduler,
                      r.metric.name,
                      SpelledUnit(r.metric.unit),
                      DirectionName(r.metric.direction),
                      r.metric.headline ? "yes" : "no",
                      r.requested ? std::to_string(r.requested) : "",
                      std::to_string(s.n),
                      std::to_string(r.not_measured),
                      number(s.mean, any),
                      any ? MeanKindName(s.kind) : "",
                      number(s.stddev, s.has_spread),
                      number(s.cov, s.has_spread),
                      number(s.ci_low, s.has_spread),
                      number(s.ci_high, s.has_spread && std::isfinite(s.ci_high)),
                      number(s.min, any),
                      number(s.max, any),
                      JoinWith(r.reasons, "; "),
                      r.metric.page_cache ? "yes" : "no"});
    }
  }
  *text = out.str();
  return true;
}

}  // namespace elevbench
