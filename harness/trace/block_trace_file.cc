#include "harness/trace/block_trace_file.h"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/json_fields.h"
#include "harness/trace/block_trace_header.h"

namespace elevbench {
namespace {

constexpr std::string_view kMagic = "elevbench block trace ";
constexpr std::string_view kColumns = "# time_ns pid comm op flags sector sectors latency_ns";
constexpr std::string_view kOwnerColumn = " owner";  // version 2
constexpr uint64_t kSectorBytes = 512;

struct FlagLetter {
  uint8_t flag;
  char letter;
};
// The order letters are written in; the reader takes any order.
constexpr FlagLetter kFlagLetters[] = {{kTracePreflush, 'P'},
                                       {kTraceSync, 'S'},
                                       {kTraceMeta, 'M'},
                                       {kTraceFua, 'F'},
                                       {kTraceAhead, 'A'}};

// Splits off the next blank-separated field of *rest.
std::string_view NextField(std::string_view* rest) {
  const size_t start = rest->find_first_not_of(' ');
  if (start == std::string_view::npos) {
    *rest = {};
    return {};
  }
  rest->remove_prefix(start);
  const size_t end = rest->find(' ');
  const std::string_view field = rest->substr(0, end);
  rest->remove_prefix(end == std::string_view::npos ? rest->size() : end);
  return field;
}

template <typename T>
bool ParseUnsigned(std::string_view s, T* out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool UnescapeComm(std::string_view s, std::string* out) {
  out->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c <= 0x20 || c >= 0x7f) return false;
    if (c != '%') {
      out->push_back(static_cast<char>(c));
      continue;
    }
    if (i + 2 >= s.size()) return false;
    const int hi = HexValue(s[i + 1]), lo = HexValue(s[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return !out->empty();
}

bool ParseOpCode(std::string_view s, BlockTraceOp* op) {
  if (s == "R")
    *op = BlockTraceOp::kRead;
  else if (s == "W")
    *op = BlockTraceOp::kWrite;
  else if (s == "D")
    *op = BlockTraceOp::kDiscard;
  else if (s == "F")
    *op = BlockTraceOp::kFlush;
  else
    return false;
  return true;
}

bool ParseFlagLetters(std::string_view s, uint8_t* flags) {
  *flags = 0;
  if (s == "-") return true;
  if (s.empty()) return false;
  for (char c : s) {
    bool known = false;
    for (const FlagLetter& f : kFlagLetters) {
      if (f.letter == c && !(*flags & f.flag)) {
        *flags |= f.flag;
        known = true;
      }
    }
    if (!known) return false;
  }
  return true;
}

// One record line; `previous_ns` enforces time order.
bool ParseRecordLine(std::string_view line, const BlockTraceHeader& h, uint64_t previous_ns,
                     BlockTraceRecord* r, std::string* err) {
  std::string_view rest = line;
  const std::string_view time = NextField(&rest), pid = NextField(&rest), comm = NextField(&rest),
                         op = NextField(&rest), flags = NextField(&rest), sector = NextField(&rest),
                         sectors = NextField(&rest), latency = NextField(&rest);
  const std::string_view owner = h.version >= 2 ? NextField(&rest) : std::string_view("-");
  uint64_t latency_value = 0;
  uint32_t pid_value = 0, owner_value = 0;
  if (!ParseUnsigned(time, &r->time_ns))
    *err = "time_ns: expected a non-negative integer";
  else if (!ParseUnsigned(pid, &pid_value) || pid_value > 0x7fffffff)
    *err = "pid: expected a pid";
  else if (!UnescapeComm(comm, &r->comm))
    *err = "comm: expected an escaped name";
  else if (!ParseOpCode(op, &r->op))
    *err = "op: expected R, W, D or F";
  else if (!ParseFlagLetters(flags, &r->flags))
    *err = "flags: expected - or letters of PSMFA";
  else if (!ParseUnsigned(sector, &r->sector))
    *err = "sector: expected a non-negative integer";
  else if (!ParseUnsigned(sectors, &r->sectors))
    *err = "sectors: expected a non-negative integer";
  else if (latency != "-" && (!ParseUnsigned(latency, &latency_value) ||
                              latency_value > static_cast<uint64_t>(INT64_MAX))) {
    *err = "latency_ns: expected - or a non-negative integer";
  } else if (owner != "-" && (!ParseUnsigned(owner, &owner_value) || owner_value == 0 ||
                              owner_value > 0x7fffffff)) {
    *err = "owner: expected - or a pid";
  } else if (!NextField(&rest).empty())
    *err = h.version >= 2 ? "more than 9 fields" : "more than 8 fields";
  else if (r->time_ns < previous_ns)
    *err = "time goes backwards";
  else if ((r->sectors == 0) != (r->op == BlockTraceOp::kFlush)) {
    *err = "sectors: 0 exactly for a flush (op F)";
  } else if (r->sector > h.device_bytes / kSectorBytes ||
             r->sectors > h.device_bytes / kSectorBytes - r->sector) {
    *err = "extent past the end of the device (" + std::to_string(h.device_bytes) + " bytes)";
  } else {
    r->pid = static_cast<int32_t>(pid_value);
    r->latency_ns = latency == "-" ? -1 : static_cast<int64_t>(latency_value);
    r->owner = static_cast<int32_t>(owner_value);
    return true;
  }
  return false;
}

// Takes the next line of *text (without its newline); false at the end.
bool NextLine(std::string_view* text, std::string_view* line) {
  if (text->empty()) return false;
  const size_t nl = text->find('\n');
  *line = text->substr(0, nl);
  text->remove_prefix(nl == std::string_view::npos ? text->size() : nl + 1);
  return true;
}

bool ParseMagic(std::string_view line, int* version, std::string* err) {
  if (line.substr(0, kMagic.size()) != kMagic) {
    *err = "line 1: not an elevbench block trace (no 'elevbench block trace' line)";
    return false;
  }
  if (!ParseUnsigned(line.substr(kMagic.size()), version)) {
    *err = "line 1: no format version";
    return false;
  }
  if (*version < 1 || *version > kBlockTraceVersion) {
    *err = "line 1: format version " + std::to_string(*version) + " is not supported (this " +
           "elevbench reads versions 1 to " + std::to_string(kBlockTraceVersion) + ")";
    return false;
  }
  return true;
}

bool ParseTrailer(std::string_view line, uint64_t line_no, uint64_t header_records,
                  uint64_t records, std::string* err) {
  uint64_t count = 0;
  if (!ParseUnsigned(line.substr(4), &count) || count != records || count != header_records) {
    *err = "line " + std::to_string(line_no) + ": 'end' count disagrees with the " +
           std::to_string(records) + " records read (header: " + std::to_string(header_records) +
           ")";
    return false;
  }
  return true;
}

}  // namespace

const char* BlockTraceOpCode(BlockTraceOp op) {
  switch (op) {
    case BlockTraceOp::kRead:
      return "R";
    case BlockTraceOp::kWrite:
      return "W";
    case BlockTraceOp::kDiscard:
      return "D";
    case BlockTraceOp::kFlush:
      return "F";
  }
  return "?";
}

std::string BlockTraceFlagLetters(uint8_t flags) {
  std::string letters;
  for (const FlagLetter& f : kFlagLetters) {
    if (flags & f.flag) letters += f.letter;
  }
  return letters.empty() ? "-" : letters;
}

bool BlockTraceOpFromRwbs(std::string_view rwbs, uint32_t sectors, BlockTraceOp* op,
                          uint8_t* flags) {
  *flags = 0;
  if (rwbs.rfind("FF", 0) == 0) return false;  // a flush request: never a bio of its own
  if (!rwbs.empty() && rwbs.front() == 'F') {
    *flags |= kTracePreflush;
    rwbs.remove_prefix(1);
  }
  if (rwbs.empty()) return false;
  const char code = rwbs.front();
  rwbs.remove_prefix(1);
  for (char c : rwbs) {
    if (c == 'F') *flags |= kTraceFua;
    if (c == 'A') *flags |= kTraceAhead;
    if (c == 'S') *flags |= kTraceSync;
    if (c == 'M') *flags |= kTraceMeta;
  }
  if (code == 'R' && sectors > 0)
    *op = BlockTraceOp::kRead;
  else if (code == 'D' && sectors > 0)
    *op = BlockTraceOp::kDiscard;
  else if (code == 'W' && sectors > 0)
    *op = BlockTraceOp::kWrite;
  else if (code == 'W' && (*flags & kTracePreflush))
    *op = BlockTraceOp::kFlush;
  else
    return false;
  if (*op == BlockTraceOp::kFlush) *flags &= static_cast<uint8_t>(~kTracePreflush);
  return true;
}

std::string EscapeTraceComm(std::string_view comm) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : comm) {
    const auto c = static_cast<unsigned char>(ch);
    if (c > 0x20 && c < 0x7f && c != '%') {
      out.push_back(ch);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    }
  }
  return out.empty() ? "%3F" : out;  // an empty comm is stored as "?"
}

std::string RenderBlockTrace(const BlockTrace& trace) {
  // The lowest version that holds the trace: 1 unless writeback was traced.
  const bool owners = trace.header.writeback_traced;
  std::string out(kMagic);
  out += std::string(owners ? "2" : "1") + "\n";
  out += BlockTraceHeaderToJson(trace.header, trace.records.size()).dump() + "\n";
  out += std::string(kColumns) + (owners ? std::string(kOwnerColumn) : "") + "\n";
  for (const BlockTraceRecord& r : trace.records) {
    out += std::to_string(r.time_ns) + ' ' + std::to_string(r.pid) + ' ' + EscapeTraceComm(r.comm) +
           ' ' + BlockTraceOpCode(r.op) + ' ' + BlockTraceFlagLetters(r.flags) + ' ' +
           std::to_string(r.sector) + ' ' + std::to_string(r.sectors) + ' ' +
           (r.latency_ns < 0 ? std::string("-") : std::to_string(r.latency_ns));
    if (owners) out += ' ' + (r.owner > 0 ? std::to_string(r.owner) : std::string("-"));
    out += '\n';
  }
  out += "end " + std::to_string(trace.records.size()) + "\n";
  return out;
}

bool ParseBlockTrace(std::string_view text, BlockTrace* out, std::string* err) {
  std::string_view line;
  BlockTrace trace;
  if (!NextLine(&text, &line) || !ParseMagic(line, &trace.header.version, err)) {
    if (err->empty()) *err = "line 1: empty file";
    return false;
  }
  uint64_t header_records = 0;
  if (!NextLine(&text, &line)) {
    *err = "line 2: no header (truncated file)";
    return false;
  }
  const nlohmann::json header = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() ||
      !BlockTraceHeaderFromJson(header, &trace.header, &header_records, err)) {
    *err = "line 2: " + (header.is_discarded() ? std::string("the header is not JSON") : *err);
    return false;
  }
  uint64_t line_no = 2, previous_ns = 0;
  while (NextLine(&text, &line)) {
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    if (line.rfind("end ", 0) == 0) {
      if (!ParseTrailer(line, line_no, header_records, trace.records.size(), err)) return false;
      if (!text.empty() && text.find_first_not_of('\n') != std::string_view::npos) {
        *err = "line " + std::to_string(line_no + 1) + ": text after the 'end' line";
        return false;
      }
      *out = std::move(trace);
      return true;
    }
    if (trace.records.size() >= header_records) {
      *err = "line " + std::to_string(line_no) + ": more records than the header's " +
             std::to_string(header_records);
      return false;
    }
    BlockTraceRecord r;
    if (!ParseRecordLine(line, trace.header, previous_ns, &r, err)) {
      *err = "line " + std::to_string(line_no) + ": " + *err;
      return false;
    }
    previous_ns = r.time_ns;
    trace.records.push_back(std::move(r));
  }
  *err =
      "no 'end' line after " + std::to_string(trace.records.size()) + " records (a truncated file)";
  return false;
}

bool ReadBlockTraceFile(const std::string& path, BlockTrace* out, std::string* err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {  // read as "", it was "line 1: empty file" (#45)
    *err = path + " is a directory, not a block trace (give the file `elevbench capture` wrote)";
    return false;
  }
  std::string text;
  if (!ReadWholeFile(path, &text, err)) return false;
  if (!ParseBlockTrace(text, out, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

}  // namespace elevbench
