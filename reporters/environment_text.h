#pragma once
// The environment lines every text report starts with, in the style of the seed posts:
// "Machine is …", one line per device, "Target fs for tests was …", and how caches were handled.

#include <nlohmann/json.hpp>
#include <string>

namespace elevbench {

/// The seeds' environment lines from a results context block. Ends with a blank line; empty when
/// the context says nothing.
std::string RenderEnvironmentHeader(const nlohmann::json& context);

/// The units line of a report that prints MB: "Units: MB = 2^20 bytes (MiB)", as the 2003 tools
/// counted and as every `_mb` and `_mb_s` field is (docs/output-format.md), then `more` (a
/// quantity of the layout in another unit) (issue #45 §5: say the unit in every header).
inline constexpr const char* kUnitsMebibytes = "Units: MB = 2^20 bytes (MiB)";

/// RenderEnvironmentHeader with `units` as its last line (before the blank line that ends it);
/// empty when the context says nothing (a seed's rows rendered alone, byte for byte the seed's).
std::string RenderEnvironmentHeader(const nlohmann::json& context, const std::string& units);

/// The emulated disk's media rate in MB/s for reads or writes (context.target.profile's
/// read_mbps / write_mbps), or 0 when the target was not an emulated disk.
double EmulatedMediaRateMbS(const nlohmann::json& context, bool write);

/// " (page cache)" when a load's rate `mb_s` is above what the disk can do (`disk_mb_s` × 1.1:
/// the model's media rate and some slack for its stream cache), so it came from buffered writes
/// or cached reads and is not the disk's; empty otherwise or when `disk_mb_s` is 0 (unknown).
/// Why: a buffered stream smaller than the dirty limit never leaves the page cache, and its
/// rate printed beside a 48 MB/s disk would read as the disk's.
std::string PageCacheMark(double mb_s, double disk_mb_s);

}  // namespace elevbench
