#pragma once
// What a disk profile claims, measured on the model itself: the figures a drive's datasheet or
// a published measurement gives (4 KiB random reads at queue depth 1 and 32, sequential rates,
// a flush after N cached writes, write + fsync per second, a reader beside a writer that
// fsyncs), computed by driving a DiskModel on a virtual clock (the workloads below; no sleeping,
// no threads), and set beside the published figure. Deterministic: the same profile gives the
// same numbers everywhere. The real device's check (fio through the block layer on the emulated
// device) is separate: docs/emulated-disk.md, "Today's drives".

#include <cstdint>
#include <string>
#include <vector>

#include "harness/disk/disk_model.h"
#include "harness/disk/drive_figures.h"

namespace elevbench {

/// A closed-loop workload: `depth` requests always outstanding (each completion brings the next
/// request at once), `requests` completions in all, offsets 4 KiB-aligned and uniformly random
/// over the whole capacity (seeded, so repeatable), as fio's randread/randwrite over a whole
/// disk. Returns completions per second of virtual time; *mean_latency_ms (if not null) the
/// mean of end - arrival.
double ModelRandomIops(const DiskProfile& profile, int depth, bool is_write, int requests,
                       double* mean_latency_ms = nullptr);

/// Sequential `request_bytes` requests back to back at queue depth 1 over `total_bytes`: MB/s
/// (1e6 bytes a second) of virtual time, a write stream ending with a flush (so that a write
/// cache cannot claim what it has not written).
double ModelSequentialMBps(const DiskProfile& profile, bool is_write, uint64_t request_bytes,
                           uint64_t total_bytes);

/// How the block layer hands a sequential write stream to the drive: each `request_bytes` write
/// (fio's 1 MiB) as `piece_bytes` pieces (the emulated queue's max_sectors_kb, 128 KiB), in
/// offset order or, with `shuffled`, in a seeded random order within each request (the daemon's
/// threads take them as they come); `in_flight` pieces outstanding at once (fio's iodepth 4 of
/// 1 MiB: 32), the drive choosing among those that have arrived as the daemon's engine does
/// (DiskModel::PickNext); each completion brings the stream's next piece `gap_ns` later (the
/// FUSE round trip's floor is about 45 µs).
struct WritePieces {
  uint64_t request_bytes = 0;
  uint64_t piece_bytes = 0;
  int in_flight = 1;
  int64_t gap_ns = 0;
  bool shuffled = false;
};

/// `total_bytes` of sequential writes fed to the model as `pieces` says, then a flush: MB/s (1e6
/// bytes a second) of virtual time. With one piece a request, one in flight and no gap, what
/// ModelSequentialMBps gives.
double ModelSequentialPiecesMBps(const DiskProfile& profile, const WritePieces& pieces,
                                 uint64_t total_bytes);

/// Random 4 KiB writes at queue depth 1 for `seconds` of virtual time: writes per second (what a
/// write cache gives until it is full, then its destaging).
double ModelRandomWriteIops(const DiskProfile& profile, double seconds);

/// `writes` scattered 4 KiB writes back to back (QD1), then a flush: the flush's latency, ms.
double ModelFlushAfterMs(const DiskProfile& profile, int writes);

/// 4 KiB sequential writes each followed by a flush (write + fsync at QD1): cycles per second
/// over `cycles` cycles.
double ModelWriteFsyncPerSec(const DiskProfile& profile, int cycles);

/// A QD1 reader of random 4 KiB reads beside a QD1 writer of 4 KiB writes that flushes after
/// each, over `seconds` of virtual time, requests served in arrival order: the fraction of the
/// reads the reader loses against reading alone (1 - beside / alone).
double ModelReaderLossBesideFsyncWriter(const DiskProfile& profile, double seconds);

/// One figure of one profile: what the model gives and what was published.
struct ModelFigure {
  std::string figure;    ///< e.g. "4 KiB random read QD1".
  std::string unit;      ///< e.g. "ms", "IOPS", "MB/s", "/s", "% lost".
  double model = 0;      ///< The model's value (ModelRandomIops, ...).
  double published = 0;  ///< The published value (its centre, for a published range).
  std::string source;    ///< Where the published value comes from.
  /// Whether the profile claims it (the model within 10 % of it); if not, `note` says why.
  bool claimed = true;
  std::string note;
};

/// The published figures of the built-in profile `profile.name` (DriveFiguresOf, the one table
/// `disk calibrate` reads too; none for ide-2003's tiobench calibration, which
/// docs/emulated-disk.md tables, nor for the illustrative sata-7200 and ssd), each with the
/// model's value for `profile` on the virtual clock. The figures a profile claims within 10 %.
std::vector<ModelFigure> ModelFiguresOf(const DiskProfile& profile);

}  // namespace elevbench
