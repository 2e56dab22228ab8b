#pragma once
// A SATA SSD as the disk model (disk_model.h) sees it: flash dies that read and program pages
// one at a time, pages striped across the dies, and a write buffer whose data is programmed in
// the background. Pure bookkeeping of when each die is free and when the buffered data is on
// flash; the model charges the host link and the command overhead. docs/emulated-disk.md, "SSD".

#include <cstdint>
#include <vector>

namespace elevbench {

/// The dies and the write buffer of one SSD, on the caller's clock (ns).
class SsdDies {
 public:
  /// Page size the logical bytes are striped by: page p = offset / kPageBytes lives on die
  /// p mod dies (16 KiB, a TLC NAND page).
  static constexpr uint64_t kPageBytes = 16 * 1024;

  /// `dies` > 0; `page_read_ns`, `page_program_ns` >= 0; `buffer_bytes` 0 = no buffer.
  SsdDies(int dies, int64_t page_read_ns, int64_t page_program_ns, uint64_t buffer_bytes);

  /// The die of the byte at `offset`.
  int DieOf(uint64_t offset) const;
  /// Reads [offset, offset + length) once the command is decoded at `ready_ns`: every page's
  /// read starts when its die is free (after the programs scheduled there) and they proceed on
  /// their dies in parallel. Returns when the last page has been read.
  int64_t Read(uint64_t offset, uint64_t length, int64_t ready_ns);
  /// Whether `length` more bytes fit in the buffer at `t_ns` (after dropping what is
  /// programmed by then). Always false without a buffer.
  bool BufferHasRoom(uint64_t length, int64_t t_ns);
  /// The earliest time >= `t_ns` at which `length` bytes fit in the buffer; `length` must not
  /// exceed the buffer.
  int64_t BufferRoomAt(uint64_t length, int64_t t_ns);
  /// Programs [offset, offset + length), whose data is in the drive from `data_ns`: each page
  /// on its die once the die is free. Buffered (`buffered` true) the bytes occupy the buffer
  /// until their last page is programmed. Returns when the last page is programmed.
  int64_t Program(uint64_t offset, uint64_t length, int64_t data_ns, bool buffered);
  /// When everything programmed so far is on flash (what a flush without power-loss protection
  /// waits for); `t_ns` if that is earlier.
  int64_t AllProgrammedAt(int64_t t_ns) const;

  uint64_t buffer_bytes() const { return buffer_bytes_; }

 private:
  struct Buffered {
    int64_t programmed_ns;
    uint64_t bytes;
  };
  void DropProgrammed(int64_t t_ns);
  // Books each page of [offset, offset + length) on its die for `page_ns`, starting when the
  // die is free and no earlier than `from_ns` (a read's and a program's shared part); returns
  // when the last page is done (`from_ns` at the earliest).
  int64_t OnEachPage(uint64_t offset, uint64_t length, int64_t from_ns, int64_t page_ns);

  int dies_;
  int64_t page_read_ns_;
  int64_t page_program_ns_;
  uint64_t buffer_bytes_;
  uint64_t buffer_used_ = 0;
  int64_t last_program_end_ns_ = 0;
  std::vector<int64_t> die_free_ns_;
  std::vector<Buffered> buffered_;  // Unordered; small (the buffer's writes).
};

}  // namespace elevbench
