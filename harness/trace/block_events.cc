#include "harness/trace/block_events.h"

#include <charconv>
#include <cstring>

namespace elevbench {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Text of the line kept as printable ASCII: a comm or a message may hold any byte, and the
// results file is JSON, whose strings must be valid UTF-8 (fuzz/trace_events_fuzz found it).
std::string PrintableText(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) c = '?';
  }
  return out;
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// The next space-separated token of *s, which loses it and the spaces before it.
std::string_view NextToken(std::string_view* s) {
  *s = TrimLeft(*s);
  size_t end = 0;
  while (end < s->size() && (*s)[end] != ' ' && (*s)[end] != '\t') ++end;
  std::string_view token = s->substr(0, end);
  s->remove_prefix(end);
  return token;
}

template <typename T>
bool ParseNumber(std::string_view s, T* out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// "832.775706:" as nanoseconds (the fraction may have 1..9 digits).
bool ParseTimestamp(std::string_view s, uint64_t* ns) {
  if (s.empty() || s.back() != ':') return false;
  s.remove_suffix(1);
  const size_t dot = s.find('.');
  uint64_t whole = 0;
  if (dot == std::string_view::npos || !ParseNumber(s.substr(0, dot), &whole)) return false;
  std::string_view frac = s.substr(dot + 1);
  if (frac.empty() || frac.size() > 9 || whole > 18'000'000'000ull) return false;
  uint64_t f = 0;
  if (!ParseNumber(frac, &f)) return false;
  for (size_t i = frac.size(); i < 9; ++i) f *= 10;
  *ns = whole * 1'000'000'000ull + f;
  return true;
}

// The position of the " [NNN] " CPU field that ends "TASK-PID", or npos. A comm may hold
// spaces, dashes and brackets, so the first " [digits]" preceded by "-digits" is taken.
size_t FindCpuField(std::string_view line) {
  for (size_t at = line.find(" ["); at != std::string_view::npos; at = line.find(" [", at + 1)) {
    size_t close = at + 2;
    while (close < line.size() && IsDigit(line[close])) ++close;
    if (close == at + 2 || close >= line.size() || line[close] != ']') continue;
    size_t before = at;
    while (before > 0 && line[before - 1] == ' ') --before;
    size_t digits = before;
    while (digits > 0 && IsDigit(line[digits - 1])) --digits;
    if (digits < before && digits > 0 && line[digits - 1] == '-') return at;
  }
  return std::string_view::npos;
}

// "7,0" into major and minor.
bool ParseDev(std::string_view s, uint32_t* major, uint32_t* minor) {
  const size_t comma = s.find(',');
  return comma != std::string_view::npos && ParseNumber(s.substr(0, comma), major) &&
         ParseNumber(s.substr(comma + 1), minor);
}

// "SECTOR + N" at the front of *rest.
bool ParseExtent(std::string_view* rest, TraceEvent* e) {
  return ParseNumber(NextToken(rest), &e->sector) && NextToken(rest) == "+" &&
         ParseNumber(NextToken(rest), &e->sectors);
}

// "[comm]" (which may contain spaces) at the end of rest, or nothing.
std::string BracketedTail(std::string_view rest) {
  rest = TrimRight(rest);
  const size_t open = rest.find('[');
  if (open == std::string_view::npos || rest.back() != ']') return "";
  return PrintableText(rest.substr(open + 1, rest.size() - open - 2));
}

struct EventName {
  const char* name;
  TraceEventKind kind;
  bool has_bytes;  // rq_insert/issue/merge print a byte count and "(cmd)" before the sector
  bool has_cmd;    // rq_complete/requeue print "(cmd)" without bytes
};

constexpr EventName kBlockEvents[] = {
    {"block_bio_queue", TraceEventKind::kBioQueue, false, false},
    {"block_bio_backmerge", TraceEventKind::kBioBackmerge, false, false},
    {"block_bio_frontmerge", TraceEventKind::kBioFrontmerge, false, false},
    {"block_rq_insert", TraceEventKind::kRqInsert, true, true},
    {"block_rq_issue", TraceEventKind::kRqIssue, true, true},
    {"block_rq_merge", TraceEventKind::kRqMerge, true, true},
    {"block_rq_requeue", TraceEventKind::kRqRequeue, false, true},
    {"block_rq_complete", TraceEventKind::kRqComplete, false, true},
};

// The payload of a block event: "7,0 RS [4096] [()] 0 + 8 [be,0,4] [comm]".
bool ParseBlockPayload(const EventName& ev, std::string_view rest, TraceEvent* e,
                       std::string* err) {
  e->kind = ev.kind;
  if (!ParseDev(NextToken(&rest), &e->dev_major, &e->dev_minor)) {
    *err = std::string(ev.name) + ": no device major,minor";
    return false;
  }
  e->rwbs = PrintableText(NextToken(&rest));
  ClassifyRwbs(e->rwbs, &e->op, &e->flush);
  uint64_t bytes = 0;
  if (ev.has_bytes && !ParseNumber(NextToken(&rest), &bytes)) {
    *err = std::string(ev.name) + ": no byte count";
    return false;
  }
  if (ev.has_cmd) {
    rest = TrimLeft(rest);
    const size_t close = rest.find(") ");
    if (rest.empty() || rest.front() != '(' || close == std::string_view::npos) {
      *err = std::string(ev.name) + ": no (cmd) field";
      return false;
    }
    rest.remove_prefix(close + 1);
  }
  if (!ParseExtent(&rest, e)) {
    *err = std::string(ev.name) + ": no 'SECTOR + COUNT'";
    return false;
  }
  e->comm = BracketedTail(rest);
  return true;
}

// After "TS:" of a `blk` tracer line: "  7,0   1,0  m   N bfq6601S allocated". Only message
// lines ("m") are kept; the tracer's own Q/G/I/D/C lines duplicate the instance's events.
bool ParseBlkTracerLine(std::string_view rest, TraceEvent* e) {
  if (!ParseDev(NextToken(&rest), &e->dev_major, &e->dev_minor)) return true;  // not ours
  std::string_view token = NextToken(&rest);
  if (token.find(',') != std::string_view::npos) token = NextToken(&rest);  // the cgroup id
  if (token != "m") return true;
  NextToken(&rest);  // "N"
  e->kind = TraceEventKind::kSchedulerMessage;
  e->text = PrintableText(TrimRight(TrimLeft(rest)));
  return true;
}

struct WritebackEventName {
  const char* name;
  TraceEventKind kind;
};

constexpr WritebackEventName kWritebackEvents[] = {
    {"writeback_dirty_folio", TraceEventKind::kWritebackDirty},
    {"writeback_dirty_page", TraceEventKind::kWritebackDirty},
    {"writeback_single_inode_start", TraceEventKind::kWritebackInodeStart},
    {"writeback_single_inode", TraceEventKind::kWritebackInodeDone},
};

// The payload of a writeback event: "bdi 7:9: ino=12 ...". A bdi that is not a disk's
// ("(unknown)", a name) leaves the device 0:0.
bool ParseWritebackPayload(const WritebackEventName& ev, std::string_view rest, TraceEvent* e,
                           std::string* err) {
  e->kind = ev.kind;
  std::string_view bdi = NextToken(&rest);
  std::string_view dev = NextToken(&rest);
  const std::string_view ino = NextToken(&rest);
  if (bdi != "bdi" || dev.empty() || dev.back() != ':' || ino.rfind("ino=", 0) != 0 ||
      !ParseNumber(ino.substr(4), &e->ino)) {
    *err = std::string(ev.name) + ": expected 'bdi MAJOR:MINOR: ino=N'";
    return false;
  }
  dev.remove_suffix(1);
  const size_t colon = dev.find(':');
  if (colon == std::string_view::npos || !ParseNumber(dev.substr(0, colon), &e->dev_major) ||
      !ParseNumber(dev.substr(colon + 1), &e->dev_minor)) {
    e->dev_major = e->dev_minor = 0;
  }
  return true;
}

// "filename=/usr/bin/dd pid=28653 old_pid=28653": the new comm is the file's base name, cut
// to TASK_COMM_LEN - 1 bytes as the kernel's __set_task_comm does.
bool ParseExecPayload(std::string_view rest, TraceEvent* e, std::string* err) {
  const std::string_view file = NextToken(&rest);
  if (file.rfind("filename=", 0) != 0 || file.size() == 9) {
    *err = "sched_process_exec: expected 'filename=PATH'";
    return false;
  }
  std::string_view base = file.substr(9);
  const size_t slash = base.rfind('/');
  if (slash != std::string_view::npos) base.remove_prefix(slash + 1);
  e->kind = TraceEventKind::kProcessExec;
  e->text = PrintableText(base.substr(0, 15));
  return true;
}

}  // namespace

void ClassifyRwbs(std::string_view rwbs, TraceOp* op, bool* flush) {
  *op = TraceOp::kOther;
  *flush = false;
  if (rwbs.rfind("FF", 0) == 0) {  // a flush request: no data
    *flush = true;
    return;
  }
  if (!rwbs.empty() && rwbs.front() == 'F') {
    *flush = true;
    rwbs.remove_prefix(1);
  }
  if (rwbs.empty()) return;
  if (rwbs.front() == 'R') *op = TraceOp::kRead;
  if (rwbs.front() == 'W') *op = TraceOp::kWrite;
  if (rwbs.front() == 'D') *op = TraceOp::kDiscard;
}

const char* TraceOpName(TraceOp op) {
  switch (op) {
    case TraceOp::kRead:
      return "read";
    case TraceOp::kWrite:
      return "write";
    case TraceOp::kDiscard:
      return "discard";
    default:
      return "other";
  }
}

bool ParseTraceLine(std::string_view line, TraceEvent* out, std::string* err) {
  *out = TraceEvent();
  line = TrimRight(line);
  if (TrimLeft(line).empty() || TrimLeft(line).front() == '#') return true;
  const size_t cpu = FindCpuField(line);
  if (cpu == std::string_view::npos) {
    *err = "not a trace line (no TASK-PID [CPU])";
    return false;
  }
  std::string_view head = TrimLeft(line.substr(0, cpu));
  const size_t dash = head.rfind('-');
  out->task = PrintableText(head.substr(0, dash));
  if (!ParseNumber(TrimRight(head.substr(dash + 1)), &out->pid)) {
    *err = "bad pid";
    return false;
  }
  std::string_view rest = line.substr(line.find(']', cpu) + 1);
  std::string_view token = NextToken(&rest);
  if (!token.empty() && !IsDigit(token.front())) token = NextToken(&rest);  // irq flags
  if (!ParseTimestamp(token, &out->time_ns)) {
    *err = "bad timestamp '" + PrintableText(token.substr(0, 32)) + "'";
    return false;
  }
  std::string_view after_time = rest;
  token = NextToken(&rest);
  if (token.empty() || token.back() != ':') return ParseBlkTracerLine(after_time, out);
  token.remove_suffix(1);
  for (const EventName& ev : kBlockEvents) {
    if (token == ev.name) return ParseBlockPayload(ev, rest, out, err);
  }
  for (const WritebackEventName& ev : kWritebackEvents) {
    if (token == ev.name) return ParseWritebackPayload(ev, rest, out, err);
  }
  out->name = PrintableText(token);
  if (token == "sched_process_exec") return ParseExecPayload(rest, out, err);
  if (token == "jbd2_handle_start") {  // "dev 7,8 tid 5 type 1 line_no 6666 requested_blocks 3"
    if (NextToken(&rest) != "dev" ||
        !ParseDev(NextToken(&rest), &out->dev_major, &out->dev_minor)) {
      *err = "jbd2_handle_start: expected 'dev MAJOR,MINOR'";
      return false;
    }
    out->kind = TraceEventKind::kJournalHandleStart;
    return true;
  }
  if (token == "ext4_mark_inode_dirty") {  // "dev 7,8 ino 12 caller ext4_dirty_inode+0x49/0x70"
    if (NextToken(&rest) != "dev" ||
        !ParseDev(NextToken(&rest), &out->dev_major, &out->dev_minor) ||
        NextToken(&rest) != "ino" || !ParseNumber(NextToken(&rest), &out->ino)) {
      *err = "ext4_mark_inode_dirty: expected 'dev MAJOR,MINOR ino N'";
      return false;
    }
    out->kind = TraceEventKind::kInodeDirty;
    return true;
  }
  if (token == "tracing_mark_write") {
    out->kind = TraceEventKind::kMarker;
    out->text = PrintableText(TrimLeft(rest));
  } else if (token.rfind("kyber_", 0) == 0) {
    out->kind = TraceEventKind::kSchedulerEvent;
    std::string_view payload = rest;
    ParseDev(NextToken(&payload), &out->dev_major, &out->dev_minor);
    out->text = PrintableText(TrimLeft(payload));
  }
  return true;
}

}  // namespace elevbench
