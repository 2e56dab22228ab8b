#include "harness/trace/block_capture.h"

#include <time.h>

#include <algorithm>
#include <filesystem>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/trace/bio_timing.h"
#include "harness/trace/writeback_owners.h"

namespace elevbench {
namespace {

// 8 MiB per CPU: the notes' 28,127-event copy of /usr/share/man fitted with 0 overruns, and the
// reader thread drains the ring while the capture runs.
constexpr uint32_t kCaptureBufferKb = 8192;

}  // namespace

uint64_t MonotonicNanoseconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void BioRecordsFromTraceText(std::string_view text, uint32_t major, uint32_t minor,
                             uint64_t start_ns, std::vector<BlockTraceRecord>* records,
                             uint64_t* unreadable) {
  for (const TimedBio& t : TimeBiosFromTrace(text, major, minor, unreadable)) {
    const TraceEvent& e = t.bio;
    BlockTraceRecord r;
    if (!BlockTraceOpFromRwbs(e.rwbs, e.sectors, &r.op, &r.flags)) continue;
    r.time_ns = e.time_ns > start_ns ? e.time_ns - start_ns : 0;
    r.pid = e.pid;
    r.comm = !e.comm.empty() ? e.comm : e.task;
    r.sector = e.sector;
    r.sectors = e.sectors;
    if (t.done_ns >= e.time_ns && t.done_ns > 0) {
      r.latency_ns = static_cast<int64_t>(t.done_ns - e.time_ns);
    }
    records->push_back(std::move(r));
  }
}

BlockCapture::~BlockCapture() {
  std::string ignored;
  if (running_) {
    (void)instance_.SetTracing(false, &ignored);
    (void)reader_.Stop(&ignored);
  }
  (void)instance_.Remove(&ignored);
}

bool BlockCapture::Start(RestoreJournal* journal, uint32_t major, uint32_t minor,
                         const std::string& given_raw_path, std::string* err,
                         const std::vector<std::string>& events) {
  // The journal takes absolute paths only: a relative one (from a relative --out) refused the
  // capture, and its callers, which may go on untraced, said nothing.
  std::error_code ec;
  const std::string raw_path = std::filesystem::absolute(given_raw_path, ec).string();
  if (ec) return Fail(err, "capture: " + given_raw_path + ": " + ec.message());
  std::string tracefs;
  if (!journal->Record(JournalEntry::File(raw_path), err) ||
      !LocateTracefs(journal, &tracefs, err)) {
    return false;
  }
  std::vector<std::string> traced = events;
  const std::vector<std::string> writeback = WritebackEventsToTrace(tracefs);
  traced.insert(traced.end(), writeback.begin(), writeback.end());
  writeback_traced_ = !writeback.empty();
  if (!instance_.Create(journal, tracefs, major, minor, traced, kCaptureBufferKb, err, -1,
                        /*bios=*/true) ||
      !reader_.Start(instance_.PipePath(), raw_path, err)) {
    return false;
  }
  raw_path_ = raw_path;
  major_ = major;
  minor_ = minor;
  start_ns_ = MonotonicNanoseconds();
  if (!instance_.SetTracing(true, err)) {
    std::string ignored;
    (void)reader_.Stop(&ignored);
    return false;
  }
  running_ = true;
  return true;
}

bool BlockCapture::Stop(BlockTrace* trace, std::string* err) {
  if (!running_) {
    *err = "the capture was not started";
    return false;
  }
  running_ = false;
  const uint64_t end_ns = MonotonicNanoseconds();
  std::string off_err;
  const bool switched_off = instance_.SetTracing(false, &off_err);
  uint64_t lost = 0;
  std::string lost_err;
  const bool counted = instance_.LostEvents(&lost, &lost_err);
  const bool drained = reader_.Stop(err);
  std::string remove_err;
  (void)instance_.Remove(&remove_err);
  if (!drained) {
    *err = "reading the trace: " + *err;
    return false;
  }
  if (!switched_off && !counted) {
    *err = "the tracefs instance disappeared during the capture (" + off_err + ")";
    return false;
  }
  std::string text;
  if (!ReadWholeFile(raw_path_, &text, err)) return false;
  uint64_t unreadable = 0;
  BioRecordsFromTraceText(text, major_, minor_, start_ns_, &trace->records, &unreadable);
  trace->header.writeback_traced = writeback_traced_;
  trace->header.version = writeback_traced_ ? 2 : 1;
  if (writeback_traced_) {
    AttributeWriteback(text, major_, minor_, start_ns_, &trace->records, &trace->header.dirtiers);
    trace->header.journal_handles =
        JournalHandleStarts(text, major_, minor_, start_ns_, trace->records);
  }
  // trace_pipe merges the CPUs' rings in time order; sort anyway, the file format requires it.
  std::stable_sort(
      trace->records.begin(), trace->records.end(),
      [](const BlockTraceRecord& a, const BlockTraceRecord& b) { return a.time_ns < b.time_ns; });
  trace->header.duration_ns = end_ns - start_ns_;
  trace->header.lost_events = lost;
  return true;
}

}  // namespace elevbench
