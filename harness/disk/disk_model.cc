// The disk model's request path (DiskModel, disk_model.h); the profiles are in disk_profiles.cc.

#include "harness/disk/disk_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "harness/disk/disk_geometry.h"
#include "harness/disk/disk_ssd.h"
#include "harness/disk/disk_write_cache.h"

namespace elevbench {
namespace {

constexpr double kNsPerMs = 1e6;
// A destage writes at most this much of a dirty run at once, so that a long sequential run
// does not hold the actuator for seconds; the rest follows without a seek.
constexpr uint64_t kDestageChunkBytes = 1024 * 1024;

int64_t MsToNs(double ms) { return std::llround(ms * kNsPerMs); }

// Nanoseconds to move `bytes` at `mbps` (1e6 bytes/s): bytes * 1000 / mbps.
int64_t TransferNs(uint64_t bytes, double mbps) {
  return std::llround(static_cast<double>(bytes) * 1000.0 / mbps);
}

uint64_t Distance(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

}  // namespace

struct DiskModel::Parts {
  std::optional<DiskGeometry> geometry;
  std::optional<DiskWriteCache> cache;
  std::optional<SsdDies> ssd;
};

DiskModel::DiskModel(const DiskProfile& profile)
    : profile_(profile), parts_(std::make_unique<Parts>()) {
  if (profile.ssd_dies > 0) {
    parts_->ssd.emplace(profile.ssd_dies, std::llround(profile.page_read_us * 1e3),
                        std::llround(profile.page_program_us * 1e3), profile.write_cache_bytes);
    return;
  }
  if (profile.rotational_position && profile.rpm > 0) {
    parts_->geometry.emplace(profile.rpm, profile.read_mbps);
  }
  if (profile.write_cache_bytes > 0) parts_->cache.emplace(profile.write_cache_bytes);
}

DiskModel::~DiskModel() = default;

DiskModel::DiskModel(const DiskModel& other)
    : profile_(other.profile_),
      parts_(std::make_unique<Parts>(*other.parts_)),
      head_(other.head_),
      busy_until_ns_(other.busy_until_ns_),
      media_free_ns_(other.media_free_ns_),
      destaging_bytes_(other.destaging_bytes_),
      last_was_write_(other.last_was_write_),
      served_any_(other.served_any_) {}

uint64_t DiskModel::dirty_bytes() const { return parts_->cache ? parts_->cache->used() : 0; }

double DiskModel::SeekMs(uint64_t distance) const {
  if (distance == 0) return 0.0;
  const double f =
      std::min(1.0, static_cast<double>(distance) / static_cast<double>(profile_.capacity_bytes));
  const double t2t = profile_.track_to_track_ms;
  const double avg = profile_.avg_seek_ms;
  constexpr double kThird = 1.0 / 3.0;
  if (f <= kThird) return t2t + (avg - t2t) * std::sqrt(f / kThird);
  return avg + (profile_.full_stroke_ms - avg) * (f - kThird) / (1.0 - kThird);
}

double DiskModel::AvgRotationMs() const { return profile_.rpm > 0 ? 30000.0 / profile_.rpm : 0.0; }

int64_t DiskModel::PositioningNs(const DiskRequest& req) const {
  if (req.offset == head_) return 0;
  const uint64_t distance = req.offset > head_ ? req.offset - head_ : head_ - req.offset;
  return MsToNs(SeekMs(distance)) + MsToNs(AvgRotationMs());
}

int64_t DiskModel::PositioningAtNs(uint64_t offset, int64_t at_ns, int64_t* seek_ns) const {
  if (seek_ns != nullptr) *seek_ns = 0;
  if (offset == head_) return 0;
  const int64_t seek = MsToNs(SeekMs(Distance(offset, head_)));
  if (seek_ns != nullptr) *seek_ns = seek;
  const int64_t rotation = parts_->geometry ? parts_->geometry->RotationWaitNs(offset, at_ns + seek)
                                            : MsToNs(AvgRotationMs());
  return seek + rotation;
}

bool DiskModel::GoesToCache(const DiskRequest& req) const {
  return req.is_write && !req.flush && !req.fua && parts_->cache &&
         req.length <= parts_->cache->capacity();
}

DiskService DiskModel::Serve(const DiskRequest& req) {
  const int64_t t = std::max(req.arrival_ns, busy_until_ns_);
  if (parts_->ssd) return ServeSsd(req, t);
  AdvanceTo(t);
  if (req.flush) return ServeFlush(req, t);
  if (GoesToCache(req)) return ServeCachedWrite(req, t);
  return ServeMedia(req, t);
}

DiskService DiskModel::ServeMedia(const DiskRequest& req, int64_t t) {
  DiskService s;
  s.start_ns = t;
  // Without a write cache the actuator is free whenever the drive is: no wait.
  const int64_t media_start = std::max(t, media_free_ns_);
  s.wait_ns = media_start - t;
  s.sequential = req.offset == head_;
  s.seek_distance = Distance(req.offset, head_);
  s.overhead_ns = MsToNs(profile_.overhead_ms);
  if (!s.sequential) {
    const int64_t positioning =
        PositioningAtNs(req.offset, media_start + s.overhead_ns, &s.seek_ns);
    s.rotation_ns = positioning - s.seek_ns;
  }
  const double mbps = req.is_write ? profile_.write_mbps : profile_.read_mbps;
  // Stream cache: the disk kept streaming during the idle gap before this
  // request, so part of a same-direction sequential transfer is done.
  if (s.sequential && served_any_ && req.is_write == last_was_write_ &&
      media_start > media_free_ns_) {
    const double idle_s = static_cast<double>(media_start - media_free_ns_) / 1e9;
    const double streamed = idle_s * mbps * 1e6;
    const uint64_t cap = std::min(profile_.stream_cache_bytes, req.length);
    s.cached_bytes = streamed >= static_cast<double>(cap) ? cap : static_cast<uint64_t>(streamed);
  }
  s.transfer_ns = TransferNs(req.length - s.cached_bytes, mbps);
  s.service_ns = s.wait_ns + s.overhead_ns + s.seek_ns + s.rotation_ns + s.transfer_ns;
  s.end_ns = s.start_ns + s.service_ns;

  head_ = req.offset + req.length;
  busy_until_ns_ = s.end_ns;
  media_free_ns_ = s.end_ns;
  last_was_write_ = req.is_write;
  served_any_ = true;
  return s;
}

DiskService DiskModel::ServeCachedWrite(const DiskRequest& req, int64_t t) {
  DiskWriteCache& cache = *parts_->cache;
  DiskService s;
  s.start_ns = t;
  s.sequential = true;  // No positioning: the cache takes it (the destage pays, later).
  // A full cache: the write waits until destaging has made room for it. The bytes of a destage
  // under way leave the cache only when it ends.
  int64_t ready = t;
  for (;;) {
    const uint64_t under_way = media_free_ns_ > ready ? destaging_bytes_ : 0;
    if (cache.HasRoomFor(req.length + under_way)) break;
    if (under_way > 0 && cache.HasRoomFor(req.length)) {
      ready = media_free_ns_;
      break;
    }
    DestageOne(t);
  }
  s.wait_ns = ready - t;
  s.overhead_ns = MsToNs(profile_.overhead_ms);
  s.transfer_ns = TransferNs(req.length, profile_.link_mbps);
  s.service_ns = s.wait_ns + s.overhead_ns + s.transfer_ns;
  s.end_ns = s.start_ns + s.service_ns;
  cache.Insert(req.offset, req.length, s.end_ns);
  busy_until_ns_ = s.end_ns;
  return s;
}

DiskService DiskModel::ServeFlush(const DiskRequest& req, int64_t t) {
  (void)req;
  DiskService s;
  s.start_ns = t;
  // Without a write cache there is nothing to flush: a flush costs nothing (ide-2003 stays as
  // calibrated whether or not flushes reach the model).
  if (!parts_->cache) {
    s.end_ns = t;
    return s;
  }
  while (!parts_->cache->empty()) DestageOne(t);
  s.wait_ns = std::max(t, media_free_ns_) - t;
  s.overhead_ns = MsToNs(profile_.overhead_ms);
  s.service_ns = s.wait_ns + s.overhead_ns;
  s.end_ns = s.start_ns + s.service_ns;
  busy_until_ns_ = s.end_ns;
  return s;
}

DiskService DiskModel::ServeSsd(const DiskRequest& req, int64_t t) {
  SsdDies& ssd = *parts_->ssd;
  DiskService s;
  s.start_ns = t;
  s.overhead_ns = MsToNs(profile_.overhead_ms);
  const int64_t decoded = t + s.overhead_ns;
  int64_t media_done = decoded;  // When the flash part is done.
  if (req.flush) {
    if (!profile_.power_loss_protection) media_done = ssd.AllProgrammedAt(decoded);
  } else if (!req.is_write) {
    media_done = ssd.Read(req.offset, req.length, decoded);
    s.transfer_ns = TransferNs(req.length, profile_.link_mbps);
  } else {
    s.transfer_ns = TransferNs(req.length, profile_.link_mbps);
    const bool buffered = !req.fua && req.length <= ssd.buffer_bytes();
    if (buffered) {
      media_done = ssd.BufferRoomAt(req.length, decoded);
      (void)ssd.Program(req.offset, req.length, media_done + s.transfer_ns, true);
    } else {
      const int64_t programmed =
          ssd.Program(req.offset, req.length, decoded + s.transfer_ns, false);
      media_done = programmed - s.transfer_ns;
    }
  }
  s.wait_ns = media_done - decoded;
  s.service_ns = s.overhead_ns + s.wait_ns + s.transfer_ns;
  s.end_ns = s.start_ns + s.service_ns;
  s.sequential = true;  // Flash: no positioning, whatever the offset.
  if (!req.flush) head_ = req.offset + req.length;
  busy_until_ns_ = s.end_ns;
  media_free_ns_ = s.end_ns;
  return s;
}

void DiskModel::AdvanceTo(int64_t now_ns) {
  if (!parts_->cache) return;
  const DiskWriteCache& cache = *parts_->cache;
  while (!cache.empty()) {
    // Over half full the drive destages as soon as the actuator is free, else once the host has
    // left it idle; a run under way goes on either way (NextDestage).
    const bool pressed = cache.used() * 2 > cache.capacity();
    const DestageStep step =
        NextDestage(pressed ? media_free_ns_ : busy_until_ns_ + kDestageIdleNs);
    if (step.start_ns >= now_ns) break;
    Destage(step);
  }
}

bool DiskModel::ContinuingDestage(DestageStep* step) const {
  if (!served_any_) return false;
  const std::vector<DirtyExtent>& dirty = parts_->cache->extents();
  for (size_t i = 0; i < dirty.size(); ++i) {
    if (dirty[i].offset == head_ && dirty[i].front_ns <= media_free_ns_) {
      *step = {.index = i, .start_ns = media_free_ns_, .positioning_ns = 0};
      return true;
    }
  }
  return false;
}

int64_t DiskModel::DestagePositioningNs(uint64_t offset, int64_t at_ns) const {
  if (offset != head_) return PositioningAtNs(offset, at_ns);
  // The sector under the head when it stopped comes round once a revolution.
  if (!parts_->geometry || at_ns <= media_free_ns_) return 0;
  const int64_t revolution = parts_->geometry->revolution_ns();
  const int64_t past = (at_ns - media_free_ns_) % revolution;
  return past == 0 ? 0 : revolution - past;
}

DiskModel::DestageStep DiskModel::NextDestage(int64_t not_before) const {
  DestageStep step;
  if (ContinuingDestage(&step)) return step;
  const std::vector<DirtyExtent>& dirty = parts_->cache->extents();
  const size_t window =
      std::max<size_t>(1, std::min(dirty.size(), static_cast<size_t>(profile_.reorder_window > 0
                                                                         ? profile_.reorder_window
                                                                         : profile_.queue_depth)));
  // The actuator starts no sooner than the first extent of the window came in; what is in the
  // cache by then is ordered by positioning time.
  int64_t first_in = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < window; ++i) first_in = std::min(first_in, dirty[i].front_ns);
  step.start_ns = std::max({media_free_ns_, first_in, not_before});
  step.positioning_ns = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < window; ++i) {
    if (dirty[i].front_ns > step.start_ns) continue;
    const int64_t pos = DestagePositioningNs(dirty[i].offset, step.start_ns);
    if (pos < step.positioning_ns) {
      step.positioning_ns = pos;
      step.index = i;
    }
  }
  return step;
}

void DiskModel::Destage(const DestageStep& step) {
  const DirtyExtent piece = parts_->cache->TakeFront(step.index, kDestageChunkBytes);
  destaging_bytes_ = piece.length;
  media_free_ns_ =
      step.start_ns + step.positioning_ns + TransferNs(piece.length, profile_.write_mbps);
  head_ = piece.offset + piece.length;
  last_was_write_ = true;
  served_any_ = true;
}

void DiskModel::DestageOne(int64_t not_before) { Destage(NextDestage(not_before)); }

size_t DiskModel::CandidateCount(std::span<const DiskRequest> waiting) const {
  size_t window = static_cast<size_t>(std::max(1, profile_.queue_depth));
  if (profile_.reorder_window > 0) {
    window = std::min(window, static_cast<size_t>(profile_.reorder_window));
  }
  size_t n = std::min(waiting.size(), window);
  // A flush is not queued: nothing after it is a candidate.
  for (size_t i = 0; i < n; ++i) {
    if (waiting[i].flush) return std::max<size_t>(i, 1);
  }
  return n;
}

int64_t DiskModel::PickCostNs(const DiskRequest& req, int64_t at_ns) const {
  if (!GoesToCache(req)) {
    return parts_->geometry ? PositioningAtNs(req.offset, at_ns) : PositioningNs(req);
  }
  // A write into the cache needs no positioning of its own, wherever it goes: taken at once
  // when there is room, else after the destage that makes room. Every such write costs the same,
  // so the drive takes them in arrival order.
  if (parts_->cache->HasRoomFor(req.length)) return 0;
  return NextDestage(at_ns).positioning_ns;
}

size_t DiskModel::PickNext(std::span<const DiskRequest> waiting, int64_t now_ns) const {
  const size_t candidates = CandidateCount(waiting);
  if (candidates <= 1) return 0;
  // The oldest candidate is the one with the earliest arrival; `waiting` is
  // in arrival order, so that is index 0.
  if (profile_.aging_ms > 0 && now_ns - waiting[0].arrival_ns >= MsToNs(profile_.aging_ms)) {
    return 0;
  }
  const int64_t at_ns =
      std::max({now_ns, busy_until_ns_, media_free_ns_}) + MsToNs(profile_.overhead_ms);
  // The media before the cache: a write the cache takes needs no actuator, so a drive serves a
  // waiting read (or a write that goes to the media) first, between destages, and takes the
  // writes into its cache meanwhile. Only when no request needs the media do the cache's writes
  // go, in arrival order (PickCostNs). Without this a read waited behind every cached write
  // until its age limit: one read a second on hus728t8 beside a streaming writer.
  bool media_waiting = false;
  for (size_t i = 0; i < candidates && !media_waiting; ++i) {
    media_waiting = !GoesToCache(waiting[i]);
  }
  size_t best = 0;
  int64_t best_ns = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < candidates; ++i) {
    if (media_waiting && GoesToCache(waiting[i])) continue;
    const int64_t pos = PickCostNs(waiting[i], at_ns);
    if (pos < best_ns) {
      best_ns = pos;
      best = i;
    }
  }
  return best;
}

}  // namespace elevbench
