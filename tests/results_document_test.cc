// The results JSON (harness/results/results_document): golden layout, lossless round trip, and
// clear errors on bad files.

#include "harness/results/results_document.h"

#include <gtest/gtest.h>

#include "harness/results/record_header.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

ResultsDocument SmallTiobenchDocument() {
  ResultsDocument doc;
  doc.complete = true;
  doc.context = {{"kernel", "6.18.44"}, {"fio_version", "fio-3.33"}};
  doc.suite = "tiobench";
  TiobenchParams params;
  params.directory = "/mnt/test";
  params.size_mb = 64;
  params.threads = {1, 4};
  doc.parameters = TiobenchParamsToJson(params);
  doc.identifiers = {"6.18.44-dl", "6.18.44-bfq-ll0"};
  uint32_t rep = 0;
  for (const std::string& id : doc.identifiers) {
    CellRecord cell;
    cell.identifier = id;
    cell.scheduler = id == "6.18.44-dl" ? "mq-deadline" : "bfq:low_latency=0";
    cell.variant = {{"threads", 1}};
    cell.status = "ok";
    cell.started_at = "2026-11-29T23:00:00Z";
    cell.duration_seconds = 12.5;
    cell.queue = {{"loop1/queue/scheduler", "none [mq-deadline] kyber bfq"}};
    doc.cells.push_back(cell);
    for (TioPhase phase : kTioExecutionOrder) {
      TioRecord r;
      r.identifier = id;
      r.scheduler = cell.scheduler;
      r.repetition = rep;
      r.measurement.phase = phase;
      r.measurement.threads = 1;
      r.measurement.runs = 1;
      r.measurement.bytes = 64ULL << 20;
      r.measurement.ios = 16384;
      r.measurement.wall_seconds = 1.5;
      r.measurement.cpu_seconds = 0.25;
      r.measurement.latency.Record(80'000, 16000);
      r.measurement.latency.Record(12'000'000, 384);
      r.metrics = DeriveTioRow(r.measurement);
      doc.records.push_back(TioRecordToJson(r));
    }
  }
  std::vector<TioRecord> records;
  std::string err;
  EXPECT_TRUE(TioRecordsFromDocument(doc, &records, &err)) << err;
  doc.summary = TioSummaryToJson(AggregateTioRows(records, doc.identifiers));
  return doc;
}

TEST(ResultsTest, JsonMatchesGolden) {
  testing::ExpectMatchesGolden("results_small.json",
                               ResultsToJson(SmallTiobenchDocument()).dump(2) + "\n");
}

TEST(ResultsTest, RoundTripIsLossless) {
  const ResultsDocument doc = SmallTiobenchDocument();
  ResultsDocument back;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(ResultsToJson(doc), &back, &err)) << err;
  EXPECT_EQ(ResultsToJson(back), ResultsToJson(doc));
  ASSERT_EQ(back.records.size(), doc.records.size());
  TioRecord a, b;
  ASSERT_TRUE(TioRecordFromJson(doc.records[0], &a, &err)) << err;
  ASSERT_TRUE(TioRecordFromJson(back.records[0], &b, &err)) << err;
  EXPECT_EQ(a.measurement.latency, b.measurement.latency);
  EXPECT_EQ(back.cells[0].variant, (nlohmann::json{{"threads", 1}}));
}

TEST(ResultsTest, AggregatesMeanAndStddevOverRepetitions) {
  std::vector<TioRecord> records;
  for (uint32_t rep = 0; rep < 3; ++rep) {
    TioRecord r;
    r.identifier = "x";
    r.repetition = rep;
    r.measurement.phase = TioPhase::kSeqRead;
    r.measurement.threads = 1;
    r.metrics.rate_mb_s = 10.0 + rep;  // 10, 11, 12
    records.push_back(r);
  }
  auto rows = AggregateTioRows(records, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].repetitions, 3u);
  EXPECT_DOUBLE_EQ(rows[0].mean.rate_mb_s, 3 / (1 / 10.0 + 1 / 11.0 + 1 / 12.0));  // harmonic
  EXPECT_DOUBLE_EQ(rows[0].stddev.rate_mb_s, 1.0);
}

TEST(ResultsTest, RejectsOtherSchemasAndGarbage) {
  std::string err;
  ResultsDocument doc;
  EXPECT_FALSE(ResultsFromJson(nlohmann::json::object(), &doc, &err));
  EXPECT_NE(err.find("schema_version"), std::string::npos);
  nlohmann::json j = ResultsToJson(SmallTiobenchDocument());
  j["schema_version"] = 99;
  EXPECT_FALSE(ResultsFromJson(j, &doc, &err));
  EXPECT_NE(err.find("99"), std::string::npos);
  j = ResultsToJson(SmallTiobenchDocument());
  j["records"][0].erase("identifier");
  EXPECT_FALSE(ResultsFromJson(j, &doc, &err));
  EXPECT_NE(err.find("records[0]"), std::string::npos);
}

// A suite's records are checked by the suite's reader, which names the bad record and field.
TEST(ResultsTest, TiobenchRecordsAreCheckedByTheirReader) {
  std::string err;
  ResultsDocument doc;
  nlohmann::json j = ResultsToJson(SmallTiobenchDocument());
  j["records"][1]["phase"] = "sideways";
  ASSERT_TRUE(ResultsFromJson(j, &doc, &err)) << err;
  std::vector<TioRecord> records;
  EXPECT_FALSE(TioRecordsFromDocument(doc, &records, &err));
  EXPECT_NE(err.find("records[1]"), std::string::npos) << err;
  EXPECT_NE(err.find("sideways"), std::string::npos) << err;
  j = ResultsToJson(SmallTiobenchDocument());
  j["records"][0].erase("bytes");
  ASSERT_TRUE(ResultsFromJson(j, &doc, &err)) << err;
  EXPECT_FALSE(TioRecordsFromDocument(doc, &records, &err));
  EXPECT_NE(err.find("bytes"), std::string::npos) << err;
}

// Integers that arrive as floats out of their type's range (1e56) are refused with the field's
// name: converting them with nlohmann's get<> would be undefined behaviour.
TEST(ResultsTest, IntegersOutOfRangeAreRefusedNotConverted) {
  std::string err;
  ResultsDocument doc;
  nlohmann::json j = ResultsToJson(SmallTiobenchDocument());
  j["schema_version"] = 1e56;
  EXPECT_FALSE(ResultsFromJson(j, &doc, &err));
  EXPECT_EQ(err, "schema_version: expected an integer");
  j = ResultsToJson(SmallTiobenchDocument());
  j["cells"][0]["repetition"] = 1e56;
  EXPECT_FALSE(ResultsFromJson(j, &doc, &err));
  EXPECT_EQ(err, "cells: repetition: expected a non-negative integer");
  for (const char* field : {"repetition", "threads", "runs", "bytes", "ios"}) {
    j = ResultsToJson(SmallTiobenchDocument());
    j["records"][0][field] = -2.5e300;
    ASSERT_TRUE(ResultsFromJson(j, &doc, &err)) << err;
    std::vector<TioRecord> records;
    EXPECT_FALSE(TioRecordsFromDocument(doc, &records, &err)) << field;
    EXPECT_NE(err.find(std::string(field) + ": expected a non-negative integer"), std::string::npos)
        << err;
  }
}

// The text a run streams into its results file after every cell is byte for byte the dump of
// ResultsToJson, for a full document, one with empty arrays, labels and set-up facts, and
// strings that the dump must escape (a newline in a string is not layout).
TEST(ResultsTest, StreamedTextIsTheDumpOfTheJson) {
  auto streamed = [](const ResultsDocument& doc) {
    std::string text;
    WriteResultsText(doc, [&text](std::string_view piece) { text.append(piece); });
    return text;
  };
  ResultsDocument doc = SmallTiobenchDocument();
  EXPECT_EQ(streamed(doc), ResultsToJson(doc).dump(2) + "\n");
  doc.labels = {"DL", "BFQ-LL0"};
  doc.setup = {{"files", nlohmann::json::array()}, {"digest", "a\nb\t\"c\" \u00e9"}};
  doc.cells[0].label = "DL";
  doc.cells[0].error = "line one\nline two";
  RequestTraceRecord untraced;
  untraced.summarised = false;
  untraced.complete = false;
  untraced.problem = "not traced";
  doc.cells[1].request_trace = untraced;
  doc.records[0]["empty"] = nlohmann::json::object();
  doc.records[0]["nested"] = {{"list", {1, 2.5, nullptr}}, {"none", nlohmann::json::array()}};
  EXPECT_EQ(streamed(doc), ResultsToJson(doc).dump(2) + "\n");
  ResultsDocument empty;
  empty.suite = "tiobench";
  EXPECT_EQ(streamed(empty), ResultsToJson(empty).dump(2) + "\n");
  empty.summary = nlohmann::json::object();
  empty.context = nlohmann::json::object();
  EXPECT_EQ(streamed(empty), ResultsToJson(empty).dump(2) + "\n");

  testing::ScopedTempDir dir;
  const std::string path = dir.path() + "/results.json";
  std::string err;
  ASSERT_TRUE(SaveResultsFile(path, doc, &err)) << err;
  EXPECT_EQ(testing::ReadTestFile(path), ResultsToJson(doc).dump(2) + "\n");
}

// Files written before the suites became plug-ins (cells with "threads" beside the generic
// fields, no labels) still load, and the cell's variant is its thread count.
TEST(ResultsTest, ReadsCellsOfEarlierFiles) {
  nlohmann::json j = ResultsToJson(SmallTiobenchDocument());
  ASSERT_FALSE(j["cells"][0].contains("label"));
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(j, &doc, &err)) << err;
  EXPECT_EQ(doc.cells[0].variant["threads"], 1);
  EXPECT_TRUE(doc.labels.empty());
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// A record's header keeps its --controls control beside the scheduler (#46), and a record of a
// run without one is written as before.
TEST(RecordHeaderTest, TheControlIsReadAndWrittenBesideTheScheduler) {
  RecordHeader header{"mq-deadline", "6.18.44-dl-idle", "DL+idle", 2, ""};
  header.control = "ionice:load=idle";
  nlohmann::json j = nlohmann::json::object();
  WriteRecordHeader(header, &j);
  EXPECT_EQ(j["control"], "ionice:load=idle");
  RecordHeader read;
  std::string err;
  ASSERT_TRUE(ReadRecordHeader(j, &read, &err)) << err;
  EXPECT_EQ(read.control, "ionice:load=idle");
  EXPECT_EQ(read.label, "DL+idle");
  j["control"] = 3;
  EXPECT_FALSE(ReadRecordHeader(j, &read, &err));
  EXPECT_EQ(err, "control: expected a string");
  nlohmann::json plain = nlohmann::json::object();
  WriteRecordHeader({"mq-deadline", "6.18.44-dl", "DL", 0, ""}, &plain);
  EXPECT_FALSE(plain.contains("control"));
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// `run --kernels` (issue 57 §3): a record's and a cell's kernel is a field of its own, read and
// written whole; a record or cell of a host run has none, and is written as before.
TEST(RecordHeaderTest, TheKernelIsAFieldOfItsOwn) {
  RecordHeader header;
  header.scheduler = "mq-deadline";
  header.identifier = "61-dl";
  header.label = "61-DL";
  header.kernel = {"61", "6.1.0-50-cloud-amd64", "debian"};
  nlohmann::json j = nlohmann::json::object();
  WriteRecordHeader(header, &j);
  EXPECT_EQ(
      j["kernel"],
      (nlohmann::json{{"label", "61"}, {"release", "6.1.0-50-cloud-amd64"}, {"source", "debian"}}));
  RecordHeader read;
  std::string err;
  ASSERT_TRUE(ReadRecordHeader(j, &read, &err)) << err;
  EXPECT_EQ(read.kernel, header.kernel);
  j["kernel"] = "61";
  EXPECT_FALSE(ReadRecordHeader(j, &read, &err));
  EXPECT_EQ(err, "kernel: expected an object");
  j["kernel"] = {{"label", "61"}, {"release", "x"}};
  EXPECT_FALSE(ReadRecordHeader(j, &read, &err));
  EXPECT_EQ(err.rfind("kernel: source", 0), 0u) << err;
  header.kernel = {};
  nlohmann::json plain = nlohmann::json::object();
  WriteRecordHeader(header, &plain);
  EXPECT_FALSE(plain.contains("kernel"));
}

TEST(ResultsDocumentTest, ACellsKernelRoundTripsAndIsNoVariantMember) {
  ResultsDocument doc = SmallTiobenchDocument();
  doc.cells[0].kernel = {"6.12.118-cloud", "6.12.118+deb12-cloud-amd64", "debian"};
  const nlohmann::json j = ResultsToJson(doc);
  EXPECT_EQ(j["cells"][0]["kernel"]["label"], "6.12.118-cloud");
  EXPECT_FALSE(j["cells"][1].contains("kernel"));
  ResultsDocument read;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(j, &read, &err)) << err;
  EXPECT_EQ(read.cells[0].kernel, doc.cells[0].kernel);
  EXPECT_FALSE(read.cells[0].variant.contains("kernel"));
  EXPECT_TRUE(read.cells[1].kernel.empty());
  std::string text;
  WriteResultsText(doc, [&](std::string_view piece) { text.append(piece); });
  EXPECT_EQ(text, j.dump(2) + "\n");
}

// Issue 60: a --kernels row's configuration label ("AS" of "61-AS") is a field of its own in its
// records and cells, read back as written; a row of any other run has none and is written as
// before (no "configuration_label" member), and a file without it reads as "".
TEST(RecordHeaderTest, TheConfigurationLabelIsAFieldOfItsOwn) {
  RecordHeader header;
  header.scheduler = "bfq";
  header.identifier = "61-AS";
  header.label = "61-AS";
  header.kernel = {"61", "6.1.0-50-cloud-amd64", "debian"};
  header.configuration_label = "AS";
  nlohmann::json j = nlohmann::json::object();
  WriteRecordHeader(header, &j);
  EXPECT_EQ(j["configuration_label"], "AS");
  RecordHeader read;
  std::string err;
  ASSERT_TRUE(ReadRecordHeader(j, &read, &err)) << err;
  EXPECT_EQ(read.configuration_label, "AS");
  j["configuration_label"] = 1;
  EXPECT_FALSE(ReadRecordHeader(j, &read, &err));
  EXPECT_EQ(err, "configuration_label: expected a string");
  j.erase("configuration_label");
  ASSERT_TRUE(ReadRecordHeader(j, &read, &err)) << err;
  EXPECT_EQ(read.configuration_label, "");
  header.kernel = {};
  header.configuration_label.clear();
  nlohmann::json plain = nlohmann::json::object();
  WriteRecordHeader(header, &plain);
  EXPECT_FALSE(plain.contains("configuration_label"));
}

TEST(ResultsDocumentTest, ACellsConfigurationLabelRoundTripsAndIsNoVariantMember) {
  ResultsDocument doc = SmallTiobenchDocument();
  doc.cells[0].kernel = {"new", "6.18.0-rc3-00012-gabcdef", "build"};
  doc.cells[0].configuration_label = "AS";
  const nlohmann::json j = ResultsToJson(doc);
  EXPECT_EQ(j["cells"][0]["configuration_label"], "AS");
  EXPECT_FALSE(j["cells"][1].contains("configuration_label"));
  ResultsDocument read;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(j, &read, &err)) << err;
  EXPECT_EQ(read.cells[0].configuration_label, "AS");
  EXPECT_FALSE(read.cells[0].variant.contains("configuration_label"));
  EXPECT_EQ(read.cells[1].configuration_label, "");
}

}  // namespace
}  // namespace elevbench
