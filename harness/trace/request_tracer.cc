#include "harness/trace/request_tracer.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "harness/process/subprocess.h"
#include "harness/trace/request_analysis.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// Empties a trace buffer (writing to `trace` with O_TRUNC clears it), so a cell starts clean.
void ClearTraceBuffer(const std::string& trace_file) {
  const int fd = open(trace_file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd >= 0) close(fd);
}

void FeedTraceFile(const std::string& file, RequestAnalyzer* analyzer) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) analyzer->AddLine(line);
}

// Compresses `file` in place (gzip, an essential Debian package); returns the kept file's name.
std::string CompressTraceFile(const std::string& file) {
  std::string output;
  std::string err;
  if (!RunChecked({"gzip", "-f", "-1", file}, &output, &err)) return fs::path(file).filename();
  return fs::path(file + ".gz").filename();
}

}  // namespace

std::string TracePhaseName(const std::string& description) {
  const size_t run = description.rfind(" run ");
  if (run == std::string::npos || description.find('/', run) == std::string::npos) {
    return description;
  }
  return description.substr(0, run);
}

RequestTracer::~RequestTracer() {
  std::string ignored;
  (void)Close(&ignored);
}

bool RequestTracer::Open(RestoreJournal* journal, const RequestTracerOptions& options,
                         std::string* err) {
  journal_ = journal;
  options_ = options;
  if (!LocateTracefs(journal, &tracefs_, err)) return false;
  std::vector<std::string> events = RequestEvents();
  if (options.mode == TraceMode::kFull) {
    for (const std::string& e : KyberEvents(tracefs_)) events.push_back(e);
  }
  if (!instance_.Create(journal, tracefs_, options.major, options.minor, events, options.buffer_kb,
                        err, options.lane)) {
    *err = "--trace-requests: " + *err;
    return false;
  }
  if (options.mode == TraceMode::kFull && !blk_.Start(journal, tracefs_, options.disk, err)) {
    *err = "--trace-requests full: " + *err;
    return false;
  }
  return true;
}

bool RequestTracer::Close(std::string* err) {
  if (in_cell_) (void)EndCell();
  bool ok = blk_.Stop(err);
  std::string second;
  if (!instance_.Remove(&second)) {
    if (ok) *err = second;
    ok = false;
  }
  return ok;
}

bool RequestTracer::BeginCell(const std::string& label_prefix, std::string* err) {
  problem_.clear();
  requests_file_ = options_.work_dir + "/" + label_prefix + "requests.trace";
  messages_file_.clear();
  if (!instance_.LostEvents(&lost_before_, err)) return false;
  ClearTraceBuffer(instance_.path() + "/trace");
  if (!requests_reader_.Start(instance_.PipePath(), requests_file_, err)) return false;
  if (blk_.started()) {
    messages_file_ = options_.work_dir + "/" + label_prefix + "scheduler.trace";
    ClearTraceBuffer(tracefs_ + "/trace");
    if (!messages_reader_.Start(blk_.PipePath(), messages_file_, err)) return false;
  }
  in_cell_ = true;
  return instance_.SetTracing(true, err) && instance_.Mark("elevbench cell " + label_prefix, err);
}

void RequestTracer::Phase(const std::string& name) {
  std::string err;
  if (in_cell_ && !instance_.Mark(std::string(kPhaseMarkerPrefix) + TracePhaseName(name), &err) &&
      problem_.empty()) {
    problem_ = "phase marker: " + err;
  }
}

std::optional<RequestTraceRecord> RequestTracer::EndCell() {
  if (!in_cell_) return std::nullopt;
  in_cell_ = false;
  std::string err;
  if (!instance_.Exists()) problem_ = "the tracefs instance " + instance_.path() + " vanished";
  if (!instance_.SetTracing(false, &err) && problem_.empty()) problem_ = err;
  if (!requests_reader_.Stop(&err) && problem_.empty()) problem_ = err;
  if (!messages_file_.empty() && !messages_reader_.Stop(&err) && problem_.empty()) problem_ = err;
  uint64_t lost_after = lost_before_;
  if (!instance_.LostEvents(&lost_after, &err) && problem_.empty()) problem_ = err;
  const uint64_t lost = lost_after >= lost_before_ ? lost_after - lost_before_ : 0;
  return Analyse(requests_file_, messages_file_, lost, problem_);
}

RequestTraceRecord RequestTracer::Analyse(const std::string& requests_file,
                                          const std::string& messages_file, uint64_t lost,
                                          const std::string& problem) const {
  RequestAnalyzer analyzer(options_.major, options_.minor);
  FeedTraceFile(requests_file, &analyzer);
  if (!messages_file.empty()) FeedTraceFile(messages_file, &analyzer);
  RequestTraceSummary summary = analyzer.Finish();
  summary.record.dropped_events = lost;
  RequestTraceRecord trace = summary.ToRecord();
  trace.mode = options_.mode;
  trace.complete = lost == 0 && problem.empty() && summary.record.parse_errors == 0;
  trace.problem = problem;
  trace.raw_events = CompressTraceFile(requests_file);
  if (!messages_file.empty()) trace.raw_scheduler_messages = CompressTraceFile(messages_file);
  return trace;
}

}  // namespace elevbench
