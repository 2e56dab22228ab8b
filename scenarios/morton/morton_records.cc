#include "scenarios/morton/morton_records.h"

#include <algorithm>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

double Mean(const std::vector<double>& v, MeanKind kind = MeanKind::kArithmetic) {
  return v.empty() ? 0 : Summarize(v, kind).mean;
}

// A probe's fields before its ProcessUsage members and after them (the reader's order of errors),
// beside "argv" in the same object.
constexpr JsonField<MortonProbe> kMortonProbeFields[] = {
    {"command", &MortonProbe::command},
    {"status", &MortonProbe::status},
    {"exit_code", &MortonProbe::exit_code},
    {"term_signal", &MortonProbe::term_signal},
    {"start_offset_seconds", &MortonProbe::start_offset_seconds},
};
constexpr JsonField<MortonProbe> kMortonProbeTailFields[] = {
    {"timeout_seconds", &MortonProbe::timeout_seconds},
    {"bytes_read", &MortonProbe::bytes_read},
    {"work_bytes", &MortonProbe::work_bytes},
};

// Beside the header's fields, "title" (written for readers only), "probes" and "load".
constexpr JsonField<MortonRecord> kMortonFields[] = {
    {"test", &MortonRecord::test},
    {"description", &MortonRecord::description},
    {"stand_in", &MortonRecord::stand_in},
    {"scale", &MortonRecord::scale},
    {"warmup_seconds", &MortonRecord::warmup_seconds},
};

json ProbeToJson(const MortonProbe& p) {
  json j{{"argv", p.argv}};
  WriteJsonFields(kMortonProbeFields, p, &j);
  WriteJsonFields(kMortonProbeTailFields, p, &j);
  WriteProcessUsage(p.usage, &j);
  return j;
}

bool ProbeFromJson(const json& j, MortonProbe* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  MortonProbe p;
  if (!ReadJsonFields(kMortonProbeFields, j, &p, err) || !ReadProcessUsage(j, &p.usage, err) ||
      !ReadJsonFields(kMortonProbeTailFields, j, &p, err)) {
    return false;
  }
  const auto argv = j.find("argv");
  if (argv == j.end() || !argv->is_array()) {
    *err = "argv: expected an array of strings";
    return false;
  }
  for (const json& a : *argv) {
    if (!a.is_string()) {
      *err = "argv: expected an array of strings";
      return false;
    }
    p.argv.push_back(a.get<std::string>());
  }
  if (p.status != "ok" && p.status != "dnf" && p.status != "failed") {
    *err = "status: expected ok, dnf or failed, not '" + p.status + "'";
    return false;
  }
  *out = std::move(p);
  return true;
}

}  // namespace

std::string MortonTestTitle(int test) {
  switch (test) {
    case 1:
      return "iosched: parallel streaming reads";
    case 2:
      return "iosched: streaming write and interactivity";
    case 3:
      return "iosched: streaming reads and interactivity";
    case 4:
      return "iosched: time to copy many small files";
    case 5:
      return "iosched: concurrent reads of many small files";
    case 6:
      return "iosched: impact of a streaming write on a streaming read";
    case 7:
      return "iosched: impact of a streaming write on reads of many files";
    case 8:
      return "iosched: impact of a streaming read on reads of many files";
    case 9:
      return "iosched: impact of a streaming read on a streaming write";
    default:
      return "";
  }
}

MortonTimeStyle MortonTimeStyleOf(int test) {
  if (test == 1) return MortonTimeStyle::kZsh;
  if (test == 5) return MortonTimeStyle::kBash;
  return MortonTimeStyle::kSeconds;
}

json MortonRecordToJson(const MortonRecord& r) {
  json probes = json::array();
  for (const MortonProbe& p : r.probes) probes.push_back(ProbeToJson(p));
  json load = json::array();
  for (const StreamResult& s : r.load) load.push_back(StreamResultToJson(s));
  json j{
      {"title", MortonTestTitle(r.test)}, {"probes", std::move(probes)}, {"load", std::move(load)}};
  WriteJsonFields(kMortonFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool MortonRecordFromJson(const json& j, MortonRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a morton record object";
    return false;
  }
  MortonRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kMortonFields, j, &r, err)) return false;
  if (MortonTestTitle(r.test).empty()) {
    *err = "test: expected 1 to 9, not " + std::to_string(r.test);
    return false;
  }
  const auto probes = j.find("probes");
  if (probes == j.end() || !probes->is_array() || probes->empty()) {
    *err = "probes: expected a non-empty array";
    return false;
  }
  for (size_t i = 0; i < probes->size(); ++i) {
    MortonProbe p;
    if (!ProbeFromJson((*probes)[i], &p, err)) {
      *err = "probes[" + std::to_string(i) + "]." + *err;
      return false;
    }
    r.probes.push_back(std::move(p));
  }
  if (!StreamResultsFromJson(j, "load", &r.load, err)) return false;
  *out = std::move(r);
  return true;
}

bool MortonRecordsFromDocument(const ResultsDocument& doc, std::vector<MortonRecord>* out,
                               std::string* err) {
  return ReadDocumentRecords(doc, MortonRecordFromJson, out, err);
}

std::vector<MortonRow> AggregateMortonRows(const std::vector<MortonRecord>& records,
                                           const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  std::vector<MortonRow> rows;
  for (int test = 1; test <= kMortonTestCount; ++test) {
    for (const std::string& id : order) {
      MortonRow row;
      row.identifier = id;
      row.test = test;
      std::vector<std::vector<double>> user, system, elapsed;
      std::vector<std::vector<double>> load_mb_s;
      for (const MortonRecord& r : records) {
        if (r.identifier != id || r.test != test) continue;
        if (row.repetitions++ == 0) {
          row.description = r.description;
          row.stand_in = r.stand_in;
          for (const StreamResult& s : r.load) row.load.push_back({s.name, s.direction, 0});
        }
        if (row.label.empty()) row.label = r.label;
        if (r.probes.size() > row.probes.size()) {
          row.probes.resize(r.probes.size());
          user.resize(r.probes.size());
          system.resize(r.probes.size());
          elapsed.resize(r.probes.size());
        }
        for (size_t i = 0; i < r.probes.size(); ++i) {
          const MortonProbe& p = r.probes[i];
          MortonProbeRow& pr = row.probes[i];
          if (pr.command.empty()) pr.command = p.command;
          pr.timeout_seconds = std::max(pr.timeout_seconds, p.timeout_seconds);
          if (p.status == "ok") {
            ++pr.ok;
            user[i].push_back(p.usage.user_seconds);
            system[i].push_back(p.usage.system_seconds);
            elapsed[i].push_back(p.usage.elapsed_seconds);
          } else if (p.status == "dnf") {
            ++pr.dnf;
          } else {
            ++pr.failed;
            pr.failed_exit_code = p.exit_code;
          }
        }
        load_mb_s.resize(row.load.size());
        for (size_t i = 0; i < row.load.size() && i < r.load.size(); ++i) {
          if (r.load[i].runtime_seconds > 0) {
            load_mb_s[i].push_back(static_cast<double>(r.load[i].bytes()) / (1 << 20) /
                                   r.load[i].runtime_seconds);
          }
        }
      }
      if (row.repetitions == 0) continue;
      for (size_t i = 0; i < row.probes.size(); ++i) {
        row.probes[i].user_seconds = Mean(user[i]);
        row.probes[i].system_seconds = Mean(system[i]);
        row.probes[i].elapsed_seconds = Mean(elapsed[i]);
      }
      for (size_t i = 0; i < row.load.size(); ++i) {
        row.load[i].mb_s = Mean(load_mb_s[i], MeanKind::kHarmonic);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

json MortonSummaryToJson(const std::vector<MortonRow>& rows) {
  json summary = json::array();
  for (const MortonRow& row : rows) {
    json probes = json::array();
    for (const MortonProbeRow& p : row.probes) {
      probes.push_back(json{{"command", p.command},
                            {"ok", p.ok},
                            {"dnf", p.dnf},
                            {"failed", p.failed},
                            {"mean", json{{"user_seconds", p.user_seconds},
                                          {"system_seconds", p.system_seconds},
                                          {"elapsed_seconds", p.elapsed_seconds}}}});
    }
    json load = json::array();
    for (const MortonLoadRow& l : row.load) {
      load.push_back(json{{"name", l.name}, {"direction", l.direction}, {"mb_s", l.mb_s}});
    }
    summary.push_back(json{{"identifier", row.identifier},
                           {"label", row.label},
                           {"test", row.test},
                           {"title", MortonTestTitle(row.test)},
                           {"repetitions", row.repetitions},
                           {"probes", std::move(probes)},
                           {"load", std::move(load)}});
  }
  return summary;
}

}  // namespace elevbench
