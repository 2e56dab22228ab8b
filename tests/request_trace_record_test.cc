// The request trace's record (harness/results/request_trace_record.h): its JSON is the tracer's
// object member for member, traced files read back to the same JSON, members older files left
// out read as 0 or empty, a member of the wrong type is an error naming it, and a results file
// with such a trace names the cell.

#include "harness/results/request_trace_record.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fakes.h"
#include "harness/results/results_document.h"
#include "test_util.h"

namespace elevbench {
namespace {

nlohmann::json TraceRoundTrip(const nlohmann::json& j) {
  RequestTraceRecord t;
  std::string err;
  EXPECT_TRUE(RequestTraceRecordFromJson(j, &t, &err)) << err;
  return RequestTraceRecordToJson(t);
}

// Every trace of the traced fixture, and the tracer's full object, come back member for member.
TEST(RequestTraceRecordTest, TracesReadBackToTheSameJson) {
  const std::string text = testing::ReadTestFile(std::string(ELEVBENCH_TEST_DATA_DIR) +
                                                 "/fixtures/report_nickbench_traced.json");
  const nlohmann::json file = nlohmann::json::parse(text);
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(file, &doc, &err)) << err;
  ASSERT_EQ(doc.cells.size(), file.at("cells").size());
  for (size_t i = 0; i < doc.cells.size(); ++i) {
    ASSERT_TRUE(doc.cells[i].request_trace.has_value()) << i;
    // The fixture predates other_processes, flushes, parse_errors, duration_s and unmatched:
    // written as 0.
    nlohmann::json expected = file["cells"][i]["request_trace"];
    for (const char* zero : {"other_processes", "flushes", "parse_errors"}) expected[zero] = 0;
    expected["duration_s"] = 0.0;
    const auto unmatched = [](nlohmann::json& account) {
      for (const char* dir : {"read", "write"}) account[dir]["unmatched"] = 0;
    };
    unmatched(expected);
    for (nlohmann::json& p : expected["processes"]) unmatched(p);
    EXPECT_EQ(RequestTraceRecordToJson(*doc.cells[i].request_trace), expected) << i;
  }
  nlohmann::json full = testing::FakeRequestTrace(testing::FakeTraceDirection(100, 4, 0.25),
                                                  testing::FakeTraceDirection(8, 1, 1.0));
  full["read"]["unmatched"] = 1;
  full["write"]["unmatched"] = 0;
  full.update({{"mode", "full"},
               {"complete", false},
               {"problem", "3 events lost"},
               {"parse_errors", 2},
               {"first_parse_error", "line 7: no colon"},
               {"flushes", 4},
               {"duration_s", 12.5},
               {"other_processes", 3},
               {"raw_scheduler_messages", "cell000-scheduler.trace.gz"},
               {"phases", {{"seq_read", {{"read", full["read"]}, {"write", full["write"]}}}}},
               {"scheduler_messages", {{"queue_merge", 2}, {"idle_armed", 40}}},
               {"scheduler_queues", {{"6601S", {{"queue_merge", 1}}}}},
               {"scheduler_events", {{"kyber_adjust", 7}}},
               {"scheduler_first_s", {{"queue_merge", 0.25}}}});
  full["processes"] = {
      {{"pid", 4100}, {"comm", "fio"}, {"read", full["read"]}, {"write", full["write"]}}};
  EXPECT_EQ(TraceRoundTrip(full), full);
  const nlohmann::json untraced = {{"complete", false}, {"problem", "not traced: no tracefs"}};
  EXPECT_EQ(TraceRoundTrip(untraced), untraced);
}

TEST(RequestTraceRecordTest, AbsentAndNullMembersReadAsZeroOrEmpty) {
  RequestTraceRecord t;
  std::string err;
  ASSERT_TRUE(RequestTraceRecordFromJson(
      {{"events", nullptr}, {"read", {{"requests", 5}, {"q2c", nullptr}}}, {"write", nullptr}}, &t,
      &err))
      << err;
  EXPECT_TRUE(t.summarised);
  EXPECT_TRUE(t.Complete());
  EXPECT_EQ(t.mode, TraceMode::kOff);
  EXPECT_EQ(t.events, 0u);
  EXPECT_EQ(t.total.read.requests, 5u);
  EXPECT_EQ(t.total.read.bytes, 0u);
  EXPECT_EQ(t.total.read.q2c.count(), 0u);
  EXPECT_EQ(t.total.write.requests, 0u);
  EXPECT_TRUE(t.phases.empty());
  EXPECT_FALSE(t.queued.has_value());
  ASSERT_TRUE(RequestTraceRecordFromJson(nlohmann::json::object(), &t, &err)) << err;
  EXPECT_FALSE(t.summarised);
  EXPECT_EQ(RequestTraceRecordToJson(t), nlohmann::json::object());
}

TEST(RequestTraceRecordTest, AMemberOfTheWrongTypeIsNamed) {
  for (const auto& [bad, message] : std::map<std::string, std::string>{
           {R"({"read": {"q2c": {"bins": 3}}})",
            "request_trace.read: q2c: histogram: \"bins\" missing or not an object"},
           {R"({"read": {"requests": "many"}})",
            "request_trace.read: requests: expected a non-negative integer"},
           {R"({"phases": {"seq_read": 1}})", "request_trace.phases.seq_read: not an object"},
           {R"({"read": {"dispatch_run_lengths": {"x": 1}}})",
            "request_trace.read: dispatch_run_lengths: expected decimal run lengths with "
            "non-negative counts"},
           {R"({"processes": [{"pid": "x"}]})",
            "request_trace.processes[0]: pid: expected an integer"},
           {R"({"queued": {"series": [[1]]}})",
            "request_trace.queued: series: expected [seconds, requests] pairs"},
           {R"({"scheduler_messages": {"merge": -1}})",
            "request_trace.scheduler_messages.merge: expected a non-negative integer"},
           {R"({"problem": 3})", "request_trace.problem: expected a string"},
           {R"([1])", "request_trace: expected an object"}}) {
    RequestTraceRecord t;
    std::string err;
    EXPECT_FALSE(RequestTraceRecordFromJson(nlohmann::json::parse(bad), &t, &err)) << bad;
    EXPECT_EQ(err, message);
  }
}

// A results file whose trace cannot be read is refused when it is loaded, naming the cell.
TEST(RequestTraceRecordTest, AnUnreadableTraceRefusesTheDocument) {
  ResultsDocument doc;
  doc.suite = "nickbench";
  doc.cells.resize(2);
  doc.cells[0].status = doc.cells[1].status = "ok";
  nlohmann::json j = ResultsToJson(doc);
  j["cells"][1]["request_trace"] = {{"read", {{"requests", "many"}}}};
  j["cells"][0]["request_trace"] = nullptr;  // null is no trace
  ResultsDocument back;
  std::string err;
  EXPECT_FALSE(ResultsFromJson(j, &back, &err));
  EXPECT_EQ(err, "cells[1]: request_trace.read: requests: expected a non-negative integer");
  j["cells"][1].erase("request_trace");
  ASSERT_TRUE(ResultsFromJson(j, &back, &err)) << err;
  EXPECT_FALSE(back.cells[0].request_trace.has_value());
  EXPECT_FALSE(ResultsToJson(back)["cells"][0].contains("request_trace"));
}

}  // namespace
}  // namespace elevbench
