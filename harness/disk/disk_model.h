#pragma once
// Pure timing model of a rotating (or solid-state) disk, used by the emulated
// disk daemon (`elevbench disk`). No I/O, no clocks: callers pass arrival
// times in and get service times back, so the model is deterministic and
// unit-testable. See docs/emulated-disk.md for the formulas and the
// sources of each profile's parameters.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// Every parameter of the disk model. Times are milliseconds, rates are
/// decimal megabytes (1e6 bytes) per second, sizes are bytes. Plain data so
/// that profiles can be named, overridden key by key and written to JSON.
struct DiskProfile {
  /// Profile name as reported in stats and results ("ide-2003", ...).
  std::string name;
  /// Capacity of the emulated disk. Seek distances are normalised to it, not
  /// to the (usually much smaller) image, so a 1 GiB image behaves like the
  /// first GiB of the real disk.
  uint64_t capacity_bytes = 0;
  /// Seek time for the shortest non-zero distance (includes head settle).
  double track_to_track_ms = 0;
  /// Seek time over one third of the full stroke: the datasheet "average
  /// seek" (the mean of all uniformly random seeks is close to it).
  double avg_seek_ms = 0;
  /// Seek time over the whole capacity.
  double full_stroke_ms = 0;
  /// Spindle speed; 0 means no rotational latency (solid state).
  double rpm = 0;
  /// Media transfer rate for reads.
  double read_mbps = 0;
  /// Media transfer rate for writes.
  double write_mbps = 0;
  /// Fixed controller/command cost charged to every request, sequential or
  /// not.
  double overhead_ms = 0;
  /// Commands the disk holds and reorders itself: 1 = no command queueing
  /// (served strictly in arrival order), N > 1 = NCQ-style reordering among
  /// the N oldest waiting requests.
  int queue_depth = 1;
  /// Driver tags the emulated stack gives its loop device: how many requests
  /// may leave the kernel's I/O scheduler for the disk at once (set through
  /// queue/nr_requests under scheduler none; harness/device/driver_tags.h).
  /// The loop driver's own 128 let every request through, so the schedulers
  /// cannot differ. 0 leaves the loop driver's; otherwise at least 4, the
  /// kernel's minimum (a 2003 IDE disk took 1). Not used by the model.
  int driver_tags = 0;
  /// NCQ starvation bound: a request that has waited at least this long is
  /// served next regardless of position. 0 disables aging (pure shortest
  /// positioning time first). Ignored when queue_depth == 1.
  double aging_ms = 0;
  /// Stream cache: while the disk sits idle after a request, it keeps
  /// streaming (read-ahead for reads, write-back for writes) up to this many
  /// bytes, so a following sequential request in the same direction has that
  /// part of its transfer already done. 0 disables it.
  uint64_t stream_cache_bytes = 0;
  /// Fault injection (docs/reliability.md): every request after the disk has moved this many
  /// MB (1e6 bytes, counted from the daemon's start, mkfs included) fails with EIO. 0 = never.
  uint64_t fail_after_mb = 0;
  /// Fault injection: each request fails with EIO with this probability, drawn from a
  /// generator seeded with fail_seed, so a failing run can be repeated. 0 = never.
  double fail_rate = 0;
  /// Seed of fail_rate's draws.
  uint64_t fail_seed = 1;

  // Today's drives (issue 59). Each is off at its default, which is the behaviour of the
  // profiles calibrated before them (ide-2003): docs/emulated-disk.md has the formulas.

  /// Rotational position (hard disks, rpm > 0): a byte's angle on its track and the platter's
  /// phase from the clock (DiskGeometry), so positioning = seek + the wait for the target sector
  /// after the seek, and NCQ ordering counts both. false: half a revolution on average.
  bool rotational_position = false;
  /// How many of the queued commands the drive's firmware reorders over (the oldest ones): a
  /// consumer drive reorders over few. 0 = all queue_depth of them. Also the window a write
  /// cache's destaging orders over.
  int reorder_window = 0;
  /// Volatile write cache (a hard disk's) or write buffer (an SSD's), bytes: a write completes
  /// after the host transfer at link_mbps and is written to the media later (destaged /
  /// programmed). 0 = none: writes go to the media before they complete.
  uint64_t write_cache_bytes = 0;
  /// Host link rate, MB/s (1e6 bytes): the transfer of a cached write, and of an SSD's reads.
  /// Needed (> 0) with a write cache or dies; 0 otherwise.
  double link_mbps = 0;
  /// Solid state as dies: the number of flash dies, pages striped across them. 0 = no dies (the
  /// transfer-rate-only model of `ssd`).
  int ssd_dies = 0;
  /// One page read on a die, microseconds.
  double page_read_us = 0;
  /// One page program on a die, microseconds (a die programs one page at a time).
  double page_program_us = 0;
  /// An SSD with power-loss protection acknowledges a flush at once: its buffer is safe.
  bool power_loss_protection = false;
};

/// Names of the built-in profiles, in a stable order, for `list` output and
/// error messages.
std::vector<std::string> DiskProfileNames();

/// Fills `*profile` with the built-in profile `name`. Unknown name: returns
/// false with a message listing the known names.
[[nodiscard]] bool LookupDiskProfile(std::string_view name, DiskProfile* profile, std::string* err);

/// Applies one `key=value` override (keys are the DiskProfile field names,
/// e.g. `avg_seek_ms=8.5`, `queue_depth=32`). Checks the key and the value's
/// syntax and range only; call ValidateDiskProfile once all overrides are
/// applied, so that related fields can be changed in any order.
[[nodiscard]] bool ApplyDiskOverride(std::string_view assignment, DiskProfile* profile,
                                     std::string* err);

/// Checks cross-field consistency (seek times ordered, rates positive, ...).
/// The daemon refuses to start on an invalid profile.
[[nodiscard]] bool ValidateDiskProfile(const DiskProfile& profile, std::string* err);

/// All parameters plus the derived average rotational latency, for stats.json
/// and result context blocks.
nlohmann::json DiskProfileToJson(const DiskProfile& profile);

/// One request as the disk sees it.
struct DiskRequest {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool is_write = false;
  /// When the request reached the disk (any monotonic ns clock).
  int64_t arrival_ns = 0;
  /// SATA FLUSH CACHE (offset and length ignored): not queued, it completes once the requests
  /// before it have and the write cache is on the media; what arrives meanwhile waits.
  bool flush = false;
  /// A write with Force Unit Access: it goes to the media (no write cache) before it completes.
  bool fua = false;
};

/// A read or write of `length` bytes at `offset` that reached the disk at `arrival_ns`: what the
/// model's own checks and its tests build on a virtual clock.
inline DiskRequest DiskIo(uint64_t offset, uint64_t length, bool is_write, int64_t arrival_ns) {
  return {.offset = offset, .length = length, .is_write = is_write, .arrival_ns = arrival_ns};
}

/// A FLUSH CACHE that reached the disk at `arrival_ns`.
inline DiskRequest DiskFlush(int64_t arrival_ns) {
  return {.arrival_ns = arrival_ns, .flush = true};
}

/// How the model charged one request. All *_ns parts sum to service_ns.
struct DiskService {
  /// When the disk started on it: max(arrival, end of previous request).
  int64_t start_ns = 0;
  /// Time from start_ns waiting for the media: a destage under way or needed to make room in
  /// the write cache, a flush's destage, a program on the die. 0 without a write cache or dies.
  int64_t wait_ns = 0;
  /// Modelled completion: start_ns + service_ns.
  int64_t end_ns = 0;
  int64_t service_ns = 0;
  int64_t overhead_ns = 0;
  int64_t seek_ns = 0;
  int64_t rotation_ns = 0;
  int64_t transfer_ns = 0;
  /// |offset - head position|; 0 exactly when the request was sequential. 0 too for what pays
  /// no positioning: a write into the write cache, an SSD's requests.
  uint64_t seek_distance = 0;
  /// No positioning was charged: the request continued the last one (or went into the write
  /// cache, or to an SSD's dies).
  bool sequential = false;
  /// Bytes already moved by the stream cache while the disk was idle.
  uint64_t cached_bytes = 0;
};

/// Stateful disk: head position, time the disk becomes free, direction of the
/// last request, and, when the profile has them, the platter's rotational position, the write
/// cache's dirty extents and the SSD's dies. Serve() is the whole model; PickNext() is the NCQ
/// policy. Not thread-safe: the daemon serialises access (one disk, one head).
class DiskModel {
 public:
  /// `profile` should have passed ValidateDiskProfile.
  explicit DiskModel(const DiskProfile& profile);
  ~DiskModel();
  DiskModel(const DiskModel& other);
  DiskModel& operator=(const DiskModel&) = delete;

  /// Seek time in ms for a head movement of `distance` bytes: 0 for 0, else
  /// track_to_track + (avg - track_to_track) * sqrt(f / (1/3)) for a fraction
  /// f = distance / capacity up to 1/3, then linear from avg_seek at 1/3 to
  /// full_stroke at 1 (the short-seek sqrt / long-seek linear shape of real
  /// actuators). Distances beyond capacity are clamped to a full stroke.
  double SeekMs(uint64_t distance) const;

  /// Average rotational latency in ms: half a revolution, 0 when rpm == 0.
  double AvgRotationMs() const;

  /// Time to reach the first byte of `req` from the current head position:
  /// 0 when sequential, else seek + average rotation (whatever rotational_position says: the
  /// estimate without a clock).
  int64_t PositioningNs(const DiskRequest& req) const;

  /// Time to reach the first byte at `offset` for a head movement that starts at `at_ns`: 0
  /// when sequential, else seek + rotation, the rotation being the wait for the sector after
  /// the seek with rotational_position, half a revolution without it. Sets *seek_ns if given.
  int64_t PositioningAtNs(uint64_t offset, int64_t at_ns, int64_t* seek_ns = nullptr) const;

  /// Charges `req`: start = max(arrival, busy_until); for a media request service = wait for
  /// the media (a destage under way) + overhead + positioning + transfer of the bytes not
  /// already moved by the stream cache; a cached write, a flush and an SSD's requests as
  /// docs/emulated-disk.md says. Advances the head, the caches and busy_until to end_ns.
  DiskService Serve(const DiskRequest& req);

  /// Lets the drive use its idle time up to `now_ns`: with a write cache, every destage that
  /// starts before `now_ns` (each may run past it). A drive defers its destaging: it starts one
  /// once the host has left it idle (no command) for kDestageIdleNs, or as soon as the actuator
  /// is free while the cache is over half full, and, once destaging, keeps a run going while the
  /// bytes that continue it are in the cache; a full cache and a flush destage at once (Serve).
  /// Serve() calls it; a caller about to PickNext calls it so that the head is where the destaging
  /// left it.
  void AdvanceTo(int64_t now_ns);

  /// NCQ choice among `waiting` (in arrival order) at time `now_ns`: only the
  /// first queue_depth entries are candidates (the host holds the rest), of them the oldest
  /// reorder_window (when set), and none past a flush (a flush is not queued: at the front it
  /// is taken, else what came before it goes first). Returns the index of the oldest candidate
  /// if it has waited aging_ms or more, else the candidate with the smallest positioning time
  /// (PositioningAtNs from when the drive is free, with rotational_position; else
  /// PositioningNs) (ties: oldest). A write the write cache takes has no positioning of its own:
  /// 0 when the cache has room for it, else the positioning of the destage that makes room, the
  /// same for every such write, so the cache takes writes in arrival order. With queue_depth == 1
  /// this is always 0 (FIFO). `waiting` must not be empty.
  size_t PickNext(std::span<const DiskRequest> waiting, int64_t now_ns) const;

  /// Byte offset just past the last request served (where a sequential
  /// request would start).
  uint64_t head() const { return head_; }
  /// Modelled completion time of the last request served.
  int64_t busy_until_ns() const { return busy_until_ns_; }
  /// When the actuator finishes what it is doing (a request or a destage); busy_until_ns()
  /// without a write cache.
  int64_t media_free_ns() const { return media_free_ns_; }
  /// Bytes in the write cache not yet on the media (0 without one).
  uint64_t dirty_bytes() const;
  /// How long the host must leave a drive with a write cache idle (no command) before it starts
  /// destaging on its own: far above the gaps between the pieces of a write stream (the FUSE
  /// round trip's floor is about 45 µs), so that a stream is in the cache as one run before its
  /// destage starts.
  static constexpr int64_t kDestageIdleNs = 5'000'000;
  const DiskProfile& profile() const { return profile_; }

 private:
  struct Parts;  // The optional geometry, write cache and dies.
  // A write the write cache takes (not FUA, not larger than the cache): no positioning of its own.
  bool GoesToCache(const DiskRequest& req) const;
  // PickNext's cost of `req` for an actuator free at `at_ns`: its positioning time, or for a
  // write into the cache 0 (room) or the positioning of the destage that makes room.
  int64_t PickCostNs(const DiskRequest& req, int64_t at_ns) const;
  DiskService ServeMedia(const DiskRequest& req, int64_t t);
  DiskService ServeCachedWrite(const DiskRequest& req, int64_t t);
  DiskService ServeFlush(const DiskRequest& req, int64_t t);
  DiskService ServeSsd(const DiskRequest& req, int64_t t);
  // The next destage: which dirty extent, when the actuator starts on it, its positioning.
  struct DestageStep {
    size_t index = 0;
    int64_t start_ns = 0;
    int64_t positioning_ns = 0;
  };
  // The destage that continues the run under way: an extent starting at the head whose front
  // was in the cache when the head got there (no positioning, at media_free_ns_), if any.
  bool ContinuingDestage(DestageStep* step) const;
  // The next destage, starting no sooner than `not_before`: the run under way if it can go on,
  // else the extent of the oldest reorder_window with the shortest positioning.
  DestageStep NextDestage(int64_t not_before) const;
  // Positioning of a destage to `offset` starting at `at_ns`: a write continuing where the head
  // stopped at media_free_ns_ waits for the platter to bring that sector round again (with
  // rotational_position), unless it goes on at once.
  int64_t DestagePositioningNs(uint64_t offset, int64_t at_ns) const;
  // Writes up to kDestageChunkBytes of `step`'s extent to the media.
  void Destage(const DestageStep& step);
  // Destages what NextDestage(not_before) gives: the cache needs room, or a flush.
  void DestageOne(int64_t not_before);
  size_t CandidateCount(std::span<const DiskRequest> waiting) const;

  DiskProfile profile_;
  std::unique_ptr<Parts> parts_;
  uint64_t head_ = 0;
  int64_t busy_until_ns_ = 0;
  int64_t media_free_ns_ = 0;
  uint64_t destaging_bytes_ = 0;  // Of the last destage, in the cache until media_free_ns_.
  bool last_was_write_ = false;
  bool served_any_ = false;
};

}  // namespace elevbench
