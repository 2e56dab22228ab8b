#pragma once
// `elevbench disk profiles` as a person reads it: one row per emulated-disk profile, every
// column with its unit, decimal units as the model uses them (MB/s = 10^6 bytes a second, GB =
// 10^9 bytes; the stream cache, a buffer size, in KiB). `--json` prints the profiles' own JSON.
//
//   Profile    Capacity  RPM   Track-to-track  Avg seek  Full stroke  Read      Write    ...
//   ide-2003   40 GB     7200  0.80 ms         9.00 ms   20.00 ms     52 MB/s   49 MB/s  ...

#include <string>
#include <vector>

#include "harness/disk/disk_model.h"

namespace elevbench {

/// The table of `profiles`, a heading line, then one line per profile in the given order, columns
/// padded to their widest cell; each line ends in a newline. A value of 0 that means "none" (rpm
/// of a solid-state disk, aging, driver tags, stream cache) prints as "-". Below it, after a
/// blank line, a second table of the same profiles with today's drives' parameters (rotational
/// position, reorder window, write cache, link, dies, page read and program times in us, power-
/// loss protection), "-" where a profile has none of it, then the line about the units.
std::string RenderDiskProfilesTable(const std::vector<DiskProfile>& profiles);

}  // namespace elevbench
