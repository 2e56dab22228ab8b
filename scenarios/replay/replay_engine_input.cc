#include "scenarios/replay/replay_engine_input.h"

#include <algorithm>

#include "harness/core/error.h"
#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

using nlohmann::json;

// fio's iolog words, but a flush is "flush" here (ReplayEngineInputToJson's OP).
const char* StepOpName(BlockTraceOp op) {
  return op == BlockTraceOp::kFlush ? "flush" : IologAction(op);
}

bool StepOpOf(const std::string& name, BlockTraceOp* op) {
  for (BlockTraceOp o :
       {BlockTraceOp::kRead, BlockTraceOp::kWrite, BlockTraceOp::kDiscard, BlockTraceOp::kFlush}) {
    if (name == StepOpName(o)) {
      *op = o;
      return true;
    }
  }
  return false;
}

bool StepFromJson(const json& j, ReplayStep* step, std::string* err) {
  const bool shape = j.is_array() && (j.size() == 5 || j.size() == 7) && j[0].is_string();
  bool numbers = shape;
  // Parsed text holds them as unsigned, a document built in memory may hold them as signed.
  for (size_t i = 1; numbers && i < j.size(); ++i) {
    numbers = j[i].is_number_integer() && j[i].get<int64_t>() >= 0;
  }
  if (!numbers || !StepOpOf(j[0].get<std::string>(), &step->op) || j[3].get<uint64_t>() > 1 ||
      (j.size() == 7 && (j[3].get<uint64_t>() == 1 || j[5].get<uint64_t>() > INT32_MAX ||
                         j[6].get<uint64_t>() > UINT32_MAX))) {
    *err = "expected [read|write|trim|flush, offset, bytes, 0|1, us] or [..., 0, us, job, step]";
    return false;
  }
  step->offset = j[1].get<uint64_t>();
  step->bytes = j[2].get<uint64_t>();
  step->after_previous = j[3].get<uint64_t>() == 1;
  step->us = j[4].get<uint64_t>();
  if (j.size() == 7) {
    step->after_job = static_cast<int32_t>(j[5].get<uint64_t>());
    step->after_step = static_cast<uint32_t>(j[6].get<uint64_t>());
  }
  return true;
}

// Whether every step's awaited completion exists and, in its own job, comes before it.
bool AwaitedStepsExist(const ReplayEngineInput& input, std::string* err) {
  for (size_t j = 0; j < input.jobs.size(); ++j) {
    const std::vector<ReplayStep>& steps = input.jobs[j].steps;
    for (size_t i = 0; i < steps.size(); ++i) {
      const ReplayStep& s = steps[i];
      if (s.after_job < 0) continue;
      const auto job = static_cast<size_t>(s.after_job);
      if (job >= input.jobs.size() || s.after_step >= input.jobs[job].steps.size() ||
          (job == j && s.after_step >= i)) {
        *err = "jobs[" + std::to_string(j) + "].steps[" + std::to_string(i) +
               "]: waits for a step that is not there or not before it";
        return false;
      }
    }
  }
  return true;
}

json BufferedToJson(const ReplayBufferedWriter& w) {
  json extents = json::array();
  for (const auto& [offset, bytes] : w.extents) extents.push_back(json::array({offset, bytes}));
  return {{"start_us", w.start_us},
          {"bytes", w.bytes},
          {"until_readers_end", w.until_readers_end},
          {"extents", std::move(extents)}};
}

bool BufferedFromJson(const json& j, ReplayBufferedWriter* w, std::string* err) {
  if (!j.is_object() || !GetJsonField(j, "start_us", &w->start_us, err) ||
      !GetJsonField(j, "bytes", &w->bytes, err) ||
      !GetJsonField(j, "until_readers_end", &w->until_readers_end, err)) {
    if (!j.is_object()) *err = "expected an object";
    *err = "buffered: " + *err;
    return false;
  }
  const auto extents = j.find("extents");
  bool ok = extents != j.end() && extents->is_array() && !extents->empty();
  for (size_t i = 0; ok && i < extents->size(); ++i) {
    const json& e = (*extents)[i];
    ok = e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_number_integer() &&
         e[0].get<int64_t>() >= 0 && e[1].get<int64_t>() > 0;
    if (ok) w->extents.emplace_back(e[0].get<uint64_t>(), e[1].get<uint64_t>());
  }
  if (!ok) *err = "buffered.extents: expected [[offset, bytes > 0], ...], at least one";
  return ok;
}

// The job's step indexes under `key` (absent: none) into *out: ascending, each a step of the
// job, and a write where `writes` says so.
bool StepListFromJson(const json& j, const char* key, bool writes, const ReplayEngineJob& job,
                      std::vector<uint32_t>* out, std::string* err) {
  const auto list = j.find(key);
  if (list == j.end()) return true;
  const std::string expected = std::string(key) + ": expected ascending indexes of the job's " +
                               (writes ? "writes" : "steps");
  if (!list->is_array()) return Fail(err, expected);
  for (const json& step : *list) {
    if (!step.is_number_unsigned() || step.get<uint64_t>() >= job.steps.size() ||
        (writes && job.steps[step.get<size_t>()].op != BlockTraceOp::kWrite) ||
        (!out->empty() && step.get<uint64_t>() <= out->back())) {
      return Fail(err, expected);
    }
    out->push_back(step.get<uint32_t>());
  }
  return true;
}
// The optional "journal_wait_buffers": one list of [OFFSET, BYTES] a journal_wait_steps entry.
bool BuffersFromJson(const json& j, ReplayEngineJob* job, std::string* err) {
  const auto list = j.find("journal_wait_buffers");
  if (list == j.end()) return true;
  const char* expected =
      "journal_wait_buffers: expected one list of [OFFSET, BYTES] a journal_wait_steps entry";
  if (!list->is_array() || list->size() != job->journal_wait_steps.size()) {
    return Fail(err, expected);
  }
  for (const json& buffers : *list) {
    auto& out = job->journal_wait_buffers.emplace_back();
    if (!buffers.is_array()) return Fail(err, expected);
    for (const json& b : buffers) {
      if (!b.is_array() || b.size() != 2 || !b[0].is_number_unsigned() ||
          !b[1].is_number_unsigned() || b[1].get<uint64_t>() == 0) {
        return Fail(err, expected);
      }
      out.emplace_back(b[0].get<uint64_t>(), b[1].get<uint64_t>());
    }
  }
  return true;
}

// The optional boolean `key` (absent: false).
bool FlagFromJson(const json& j, const char* key, bool* out, std::string* err) {
  const auto flag = j.find(key);
  if (flag == j.end()) return true;
  if (!flag->is_boolean()) return Fail(err, std::string(key) + ": expected true or false");
  *out = flag->get<bool>();
  return true;
}

bool EngineJobFromJson(const json& j, ReplayEngineJob* job, std::string* err) {
  if (!j.is_object() || !GetJsonField(j, "name", &job->name, err) ||
      !GetJsonField(j, "depth", &job->depth, err)) {
    if (!j.is_object()) *err = "expected an object";
    return false;
  }
  if (job->depth < 1 || job->depth > 4096) {
    *err = "depth: expected 1 to 4096";
    return false;
  }
  const auto steps = j.find("steps");
  if (steps == j.end() || !steps->is_array()) {
    *err = "steps: expected an array";
    return false;
  }
  job->steps.resize(steps->size());
  for (size_t i = 0; i < steps->size(); ++i) {
    if (!StepFromJson((*steps)[i], &job->steps[i], err)) {
      *err = "steps[" + std::to_string(i) + "]: " + *err;
      return false;
    }
  }
  const auto buffered = j.find("buffered");
  if (buffered != j.end()) {
    job->buffered.emplace();
    if (!BufferedFromJson(*buffered, &*job->buffered, err)) return false;
    if (!job->steps.empty()) {
      *err = "a buffered writer has no steps";
      return false;
    }
  }
  return FlagFromJson(j, "writer_writeback", &job->writer_writeback, err) &&
         StepListFromJson(j, "journal_log_steps", true, *job, &job->journal_log_steps, err) &&
         StepListFromJson(j, "journal_wait_steps", false, *job, &job->journal_wait_steps, err) &&
         StepListFromJson(j, "metadata_write_steps", true, *job, &job->metadata_write_steps, err) &&
         BuffersFromJson(j, job, err) && FlagFromJson(j, "journal", &job->journal, err);
}

}  // namespace

ReplayEngineInput ReplayEngineInputOf(const ReplayPlan& plan, const std::string& device,
                                      bool writes) {
  ReplayEngineInput input;
  input.device = device;
  input.writes = writes;
  for (const ReplayJob& job : plan.jobs) {
    input.jobs.push_back({job.name, job.iodepth, job.steps, job.buffered, job.writer_writeback,
                          job.journal_log_steps, job.journal_wait_steps, job.metadata_write_steps,
                          job.journal_wait_buffers, job.journal});
  }
  return input;
}

json ReplayEngineInputToJson(const ReplayEngineInput& input) {
  json jobs = json::array();
  for (const ReplayEngineJob& job : input.jobs) {
    json steps = json::array();
    for (const ReplayStep& s : job.steps) {
      json step =
          json::array({StepOpName(s.op), s.offset, s.bytes, s.after_previous ? 1u : 0u, s.us});
      if (s.after_job >= 0) {
        step.push_back(s.after_job);
        step.push_back(s.after_step);
      }
      steps.push_back(std::move(step));
    }
    jobs.push_back({{"name", job.name}, {"depth", job.depth}, {"steps", std::move(steps)}});
    if (job.buffered) jobs.back()["buffered"] = BufferedToJson(*job.buffered);
    if (job.writer_writeback) jobs.back()["writer_writeback"] = true;
    if (!job.journal_log_steps.empty()) jobs.back()["journal_log_steps"] = job.journal_log_steps;
    if (!job.journal_wait_steps.empty()) {
      jobs.back()["journal_wait_steps"] = job.journal_wait_steps;
    }
    if (!job.metadata_write_steps.empty()) {
      jobs.back()["metadata_write_steps"] = job.metadata_write_steps;
    }
    const auto known = [](const auto& buffers) { return !buffers.empty(); };
    if (std::any_of(job.journal_wait_buffers.begin(), job.journal_wait_buffers.end(), known)) {
      jobs.back()["journal_wait_buffers"] = job.journal_wait_buffers;
    }
    if (job.journal) jobs.back()["journal"] = true;
  }
  return {{"device", input.device}, {"writes", input.writes}, {"jobs", std::move(jobs)}};
}

bool ReplayEngineInputFromJson(const json& j, ReplayEngineInput* out, std::string* err) {
  ReplayEngineInput input;
  if (!j.is_object() || !GetJsonField(j, "device", &input.device, err) ||
      !GetJsonField(j, "writes", &input.writes, err)) {
    if (!j.is_object()) *err = "expected an object";
    return false;
  }
  const auto jobs = j.find("jobs");
  if (jobs == j.end() || !jobs->is_array()) {
    *err = "jobs: expected an array";
    return false;
  }
  input.jobs.resize(jobs->size());
  for (size_t i = 0; i < jobs->size(); ++i) {
    if (!EngineJobFromJson((*jobs)[i], &input.jobs[i], err)) {
      *err = "jobs[" + std::to_string(i) + "]." + *err;
      return false;
    }
  }
  if (!AwaitedStepsExist(input, err)) return false;
  *out = std::move(input);
  return true;
}

json ReplayEngineResultToJson(const ReplayEngineResult& result) {
  json jobs = json::array();
  for (const JobResult& job : result.jobs) jobs.push_back(JobResultToJson(job));
  json waits = json::array();
  for (const ReplayWaitCount& w : result.waits) {
    waits.push_back({{"rule", w.rule}, {"held", w.held}, {"seconds", w.seconds}});
  }
  return {{"seconds", result.seconds},
          {"jobs", std::move(jobs)},
          {"journal_wait_seconds", result.journal_wait_seconds},
          {"waits", std::move(waits)}};
}

namespace {

// The optional "waits": [{"rule", "held", "seconds"}].
bool WaitCountsFromJson(const json& j, std::vector<ReplayWaitCount>* out, std::string* err) {
  const auto it = j.find("waits");
  if (it == j.end()) return true;
  if (!it->is_array()) return Fail(err, "waits: expected an array");
  for (size_t i = 0; i < it->size(); ++i) {
    ReplayWaitCount w;
    const json& e = (*it)[i];
    if (!e.is_object() || !GetJsonField(e, "rule", &w.rule, err) ||
        !GetJsonField(e, "held", &w.held, err) || !GetJsonField(e, "seconds", &w.seconds, err)) {
      if (!e.is_object()) *err = "expected an object";
      *err = "waits[" + std::to_string(i) + "]: " + *err;
      return false;
    }
    out->push_back(std::move(w));
  }
  return true;
}

}  // namespace

bool ReplayEngineResultFromJson(const json& j, ReplayEngineResult* out, std::string* err) {
  ReplayEngineResult result;
  if (!j.is_object() || !GetJsonField(j, "seconds", &result.seconds, err) ||
      !JobResultsFromJson(j, "jobs", &result.jobs, err) ||
      (j.contains("journal_wait_seconds") &&
       !GetJsonField(j, "journal_wait_seconds", &result.journal_wait_seconds, err)) ||
      !WaitCountsFromJson(j, &result.waits, err)) {
    if (!j.is_object()) *err = "expected an object";
    return false;
  }
  *out = std::move(result);
  return true;
}

}  // namespace elevbench
