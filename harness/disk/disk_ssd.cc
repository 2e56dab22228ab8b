#include "harness/disk/disk_ssd.h"

#include <algorithm>

namespace elevbench {

SsdDies::SsdDies(int dies, int64_t page_read_ns, int64_t page_program_ns, uint64_t buffer_bytes)
    : dies_(std::max(1, dies)),
      page_read_ns_(page_read_ns),
      page_program_ns_(page_program_ns),
      buffer_bytes_(buffer_bytes),
      die_free_ns_(static_cast<size_t>(std::max(1, dies)), 0) {}

int SsdDies::DieOf(uint64_t offset) const {
  return static_cast<int>((offset / kPageBytes) % static_cast<uint64_t>(dies_));
}

int64_t SsdDies::OnEachPage(uint64_t offset, uint64_t length, int64_t from_ns, int64_t page_ns) {
  const uint64_t first = offset / kPageBytes;
  const uint64_t last = (offset + std::max<uint64_t>(length, 1) - 1) / kPageBytes;
  int64_t done = from_ns;
  for (uint64_t page = first; page <= last; ++page) {
    int64_t& die_free = die_free_ns_[page % static_cast<uint64_t>(dies_)];
    die_free = std::max(die_free, from_ns) + page_ns;
    done = std::max(done, die_free);
  }
  return done;
}

int64_t SsdDies::Read(uint64_t offset, uint64_t length, int64_t ready_ns) {
  return OnEachPage(offset, length, ready_ns, page_read_ns_);
}

void SsdDies::DropProgrammed(int64_t t_ns) {
  auto programmed = [t_ns](const Buffered& b) { return b.programmed_ns <= t_ns; };
  for (const Buffered& b : buffered_) {
    if (programmed(b)) buffer_used_ -= b.bytes;
  }
  std::erase_if(buffered_, programmed);
}

bool SsdDies::BufferHasRoom(uint64_t length, int64_t t_ns) {
  DropProgrammed(t_ns);
  return buffer_bytes_ > 0 && buffer_used_ + length <= buffer_bytes_;
}

int64_t SsdDies::BufferRoomAt(uint64_t length, int64_t t_ns) {
  if (BufferHasRoom(length, t_ns)) return t_ns;
  std::vector<Buffered> by_end = buffered_;
  std::sort(by_end.begin(), by_end.end(),
            [](const Buffered& a, const Buffered& b) { return a.programmed_ns < b.programmed_ns; });
  uint64_t used = buffer_used_;
  for (const Buffered& b : by_end) {
    used -= b.bytes;
    if (used + length <= buffer_bytes_) return std::max(t_ns, b.programmed_ns);
  }
  return std::max(t_ns, last_program_end_ns_);
}

int64_t SsdDies::Program(uint64_t offset, uint64_t length, int64_t data_ns, bool buffered) {
  const int64_t done = OnEachPage(offset, length, data_ns, page_program_ns_);
  last_program_end_ns_ = std::max(last_program_end_ns_, done);
  if (buffered) {
    buffered_.push_back({done, length});
    buffer_used_ += length;
  }
  return done;
}

int64_t SsdDies::AllProgrammedAt(int64_t t_ns) const {
  return std::max(t_ns, last_program_end_ns_);
}

}  // namespace elevbench
