#include "harness/disk/disk_figures.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace elevbench {
namespace {

constexpr uint64_t kBlockBytes = 4096;
constexpr int64_t kNsPerSecond = 1'000'000'000;

// 4 KiB-aligned offsets, uniformly random over the capacity, from a fixed seed.
class RandomOffsets {
 public:
  RandomOffsets(uint64_t capacity_bytes, uint64_t seed)
      : rng_(seed), blocks_(std::max<uint64_t>(1, capacity_bytes / kBlockBytes)) {}
  uint64_t Next() { return rng_() % blocks_ * kBlockBytes; }

 private:
  std::mt19937_64 rng_;
  uint64_t blocks_;
};

// 4 KiB random reads or writes alone at QD1, each issued when the last completes, for
// `seconds` of the virtual clock, at offsets drawn from `seed`: requests per second.
double RandomQd1PerSec(const DiskProfile& profile, bool is_write, uint64_t seed, double seconds) {
  DiskModel model(profile);
  RandomOffsets offsets(profile.capacity_bytes, seed);
  const int64_t until = static_cast<int64_t>(seconds * kNsPerSecond);
  int64_t now = 0;
  int64_t requests = 0;
  while (now < until) {
    now = model.Serve(DiskIo(offsets.Next(), kBlockBytes, is_write, now)).end_ns;
    ++requests;
  }
  return static_cast<double>(requests) * kNsPerSecond / static_cast<double>(now);
}

// The pieces of a sequential write stream in the order the host issues them (WritePieces).
class PieceStream {
 public:
  PieceStream(const WritePieces& pieces, uint64_t total_bytes)
      : pieces_(pieces),
        total_(total_bytes),
        per_request_(std::max<uint64_t>(1, pieces.request_bytes / pieces.piece_bytes)),
        order_(per_request_),
        rng_(11) {}
  bool done() const { return base_ >= total_; }
  // The next piece, arriving at `arrival_ns`. Not when done().
  DiskRequest Next(int64_t arrival_ns) {
    if (index_ == 0) {
      for (uint64_t i = 0; i < per_request_; ++i) order_[i] = i;
      // Fisher-Yates with the generator's own draws: the same order with every standard library.
      for (uint64_t i = per_request_ - 1; pieces_.shuffled && i > 0; --i) {
        std::swap(order_[i], order_[rng_() % (i + 1)]);
      }
    }
    const DiskRequest piece =
        DiskIo(base_ + order_[index_] * pieces_.piece_bytes, pieces_.piece_bytes, true, arrival_ns);
    if (++index_ == per_request_) {
      index_ = 0;
      base_ += per_request_ * pieces_.piece_bytes;
    }
    return piece;
  }

 private:
  WritePieces pieces_;
  uint64_t total_;
  uint64_t per_request_;
  std::vector<uint64_t> order_;
  std::mt19937_64 rng_;
  uint64_t base_ = 0;
  uint64_t index_ = 0;
};

// The seed of ModelReaderLossBesideFsyncWriter's reader, alone and beside the writer: the same
// offsets in both.
constexpr uint64_t kReaderSeed = 7;

}  // namespace

double ModelRandomIops(const DiskProfile& profile, int depth, bool is_write, int requests,
                       double* mean_latency_ms) {
  DiskModel model(profile);
  RandomOffsets offsets(profile.capacity_bytes, 1);
  std::vector<DiskRequest> waiting;  // Arrival order.
  for (int i = 0; i < std::max(1, depth); ++i) {
    waiting.push_back(DiskIo(offsets.Next(), kBlockBytes, is_write, 0));
  }
  int64_t end_ns = 0;
  double latency_sum_ns = 0;
  for (int i = 0; i < requests; ++i) {
    const int64_t now = std::max(model.busy_until_ns(), waiting.front().arrival_ns);
    model.AdvanceTo(now);
    const size_t pick = model.PickNext(waiting, now);
    const DiskRequest req = waiting[pick];
    waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(pick));
    const DiskService s = model.Serve(req);
    latency_sum_ns += static_cast<double>(s.end_ns - req.arrival_ns);
    end_ns = s.end_ns;
    waiting.push_back(DiskIo(offsets.Next(), kBlockBytes, is_write, s.end_ns));
  }
  if (mean_latency_ms != nullptr) *mean_latency_ms = latency_sum_ns / requests / 1e6;
  return end_ns > 0 ? requests * static_cast<double>(kNsPerSecond) / static_cast<double>(end_ns)
                    : 0;
}

double ModelSequentialMBps(const DiskProfile& profile, bool is_write, uint64_t request_bytes,
                           uint64_t total_bytes) {
  DiskModel model(profile);
  int64_t now = 0;
  for (uint64_t offset = 0; offset < total_bytes; offset += request_bytes) {
    now = model.Serve(DiskIo(offset, request_bytes, is_write, now)).end_ns;
  }
  if (is_write) now = model.Serve(DiskFlush(now)).end_ns;
  return now > 0 ? static_cast<double>(total_bytes) * 1e3 / static_cast<double>(now) : 0;
}

double ModelSequentialPiecesMBps(const DiskProfile& profile, const WritePieces& pieces,
                                 uint64_t total_bytes) {
  DiskModel model(profile);
  PieceStream stream(pieces, total_bytes);
  std::vector<DiskRequest> waiting;  // Arrival order.
  for (int i = 0; i < std::max(1, pieces.in_flight) && !stream.done(); ++i) {
    waiting.push_back(stream.Next(0));
  }
  int64_t end = 0;
  while (!waiting.empty()) {
    const int64_t now = std::max(model.busy_until_ns(), waiting.front().arrival_ns);
    model.AdvanceTo(now);
    size_t arrived = 1;
    while (arrived < waiting.size() && waiting[arrived].arrival_ns <= now) ++arrived;
    const size_t pick = model.PickNext(std::span<const DiskRequest>(waiting).first(arrived), now);
    const DiskRequest req = waiting[pick];
    waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(pick));
    end = model.Serve(req).end_ns;
    if (!stream.done()) {
      const DiskRequest next = stream.Next(end + pieces.gap_ns);
      const auto later =
          std::upper_bound(waiting.begin(), waiting.end(), next.arrival_ns,
                           [](int64_t at, const DiskRequest& r) { return at < r.arrival_ns; });
      waiting.insert(later, next);
    }
  }
  end = model.Serve(DiskFlush(end + pieces.gap_ns)).end_ns;
  return end > 0 ? static_cast<double>(total_bytes) * 1e3 / static_cast<double>(end) : 0;
}

double ModelRandomWriteIops(const DiskProfile& profile, double seconds) {
  return RandomQd1PerSec(profile, true, 3, seconds);
}

double ModelFlushAfterMs(const DiskProfile& profile, int writes) {
  DiskModel model(profile);
  RandomOffsets offsets(profile.capacity_bytes, 5);
  int64_t now = 0;
  for (int i = 0; i < writes; ++i) {
    now = model.Serve(DiskIo(offsets.Next(), kBlockBytes, true, now)).end_ns;
  }
  const DiskService flush = model.Serve(DiskFlush(now));
  return static_cast<double>(flush.end_ns - now) / 1e6;
}

double ModelWriteFsyncPerSec(const DiskProfile& profile, int cycles) {
  DiskModel model(profile);
  int64_t now = 0;
  for (int i = 0; i < cycles; ++i) {
    now =
        model.Serve(DiskIo(static_cast<uint64_t>(i) * kBlockBytes, kBlockBytes, true, now)).end_ns;
    now = model.Serve(DiskFlush(now)).end_ns;
  }
  return now > 0 ? cycles * static_cast<double>(kNsPerSecond) / static_cast<double>(now) : 0;
}

double ModelReaderLossBesideFsyncWriter(const DiskProfile& profile, double seconds) {
  DiskModel model(profile);
  RandomOffsets offsets(profile.capacity_bytes, kReaderSeed);
  const int64_t until = static_cast<int64_t>(seconds * kNsPerSecond);
  // Each client's next request and when it arrives; the drive takes them in arrival order
  // (the reader first on a tie).
  DiskRequest read = DiskIo(offsets.Next(), kBlockBytes, false, 0);
  uint64_t write_offset = profile.capacity_bytes / 2;
  DiskRequest write = DiskIo(write_offset, kBlockBytes, true, 0);
  int64_t reads = 0;
  int64_t now = 0;
  while (now < until) {
    if (read.arrival_ns <= write.arrival_ns) {
      now = model.Serve(read).end_ns;
      ++reads;
      read = DiskIo(offsets.Next(), kBlockBytes, false, now);
    } else {
      const int64_t end = model.Serve(write).end_ns;
      if (write.flush) {
        write_offset += kBlockBytes;
        write = DiskIo(write_offset, kBlockBytes, true, end);
      } else {
        write = DiskFlush(end);
      }
      now = std::max(now, end);
    }
  }
  const double beside = static_cast<double>(reads) * kNsPerSecond / static_cast<double>(now);
  return 1.0 - beside / RandomQd1PerSec(profile, false, kReaderSeed, seconds);
}

namespace {

// fio's 1 MiB writes at iodepth 4 as the block layer hands them to the drive (disk calibrate's
// sequential write check): 128 KiB pieces, 32 in flight, in any order within a MiB, 45 µs apart.
constexpr WritePieces kBlockLayerMiBWrites{.request_bytes = 1024 * 1024,
                                           .piece_bytes = 128 * 1024,
                                           .in_flight = 32,
                                           .gap_ns = 45'000,
                                           .shuffled = true};

// The model's value of `check` for `p`, by the workload the check names (the functions above).
double ModelValue(const DiskProfile& p, CalibrationCheck check) {
  constexpr uint64_t kMiB = 1024 * 1024;
  double latency_ms = 0;
  switch (check) {
    case CalibrationCheck::kRandReadQd1Ms:
      (void)ModelRandomIops(p, 1, false, 4000, &latency_ms);
      return latency_ms;
    case CalibrationCheck::kRandReadQd32Iops:
      return ModelRandomIops(p, 32, false, 8000);
    case CalibrationCheck::kSeqReadMbps:
      return ModelSequentialMBps(p, false, kMiB, 1024 * kMiB);
    case CalibrationCheck::kSeqWriteMbps:
      return ModelSequentialPiecesMBps(p, kBlockLayerMiBWrites, 1024 * kMiB);
    case CalibrationCheck::kRandWriteQd1Iops:
      return ModelRandomWriteIops(p, 30);
    case CalibrationCheck::kWriteFsyncPerSecond:
      return ModelWriteFsyncPerSec(p, 2000);
    case CalibrationCheck::kFlushAfter8Ms:
      return ModelFlushAfterMs(p, 8);
    case CalibrationCheck::kFlushAfter64Ms:
      return ModelFlushAfterMs(p, 64);
    case CalibrationCheck::kReadsKeptBesideFsyncWriterPct:
      return 100 * (1 - ModelReaderLossBesideFsyncWriter(p, 5));
  }
  return 0;
}

}  // namespace

std::vector<ModelFigure> ModelFiguresOf(const DiskProfile& profile) {
  std::vector<ModelFigure> figures;
  for (const PublishedFigure& pub : DriveFiguresOf(profile.name).figures) {
    ModelFigure f;
    f.figure = CalibrationCheckTitle(pub.check);
    f.unit = CalibrationCheckUnit(pub.check);
    f.model = ModelValue(profile, pub.check);
    f.published = pub.value;
    f.source = pub.source;
    f.claimed = pub.claimed();
    f.note = pub.not_claimed_because;
    figures.push_back(std::move(f));
  }
  return figures;
}

}  // namespace elevbench
