#pragma once
// The header of an elevbench block trace file (block_trace_file.h) as its JSON line: the
// traced disk, the capture's facts and, in version 2, the buffered writers and the journal
// handles. Apart from the records' text so that each reads on its own.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// The header line's JSON object for `h`, with `records` records.
nlohmann::json BlockTraceHeaderToJson(const BlockTraceHeader& h, size_t records);

/// Reads BlockTraceHeaderToJson's form into *h (whose version the file's first line set), the
/// records it announces into *records. False with one line naming the field ("header
/// journal_handles: …"): a version 2 header needs its dirtiers; a device's size a positive
/// multiple of 512.
[[nodiscard]] bool BlockTraceHeaderFromJson(const nlohmann::json& j, BlockTraceHeader* h,
                                            uint64_t* records, std::string* err);

}  // namespace elevbench
