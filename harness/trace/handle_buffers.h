#pragma once
// Which buffer each journal handle of a capture changed (BlockTraceJournalHandles): the inode
// table block of the inode it dirtied, on the traced disk. ext4's tracepoint names the inode;
// its block comes from the file system's own layout, read by debugfs (e2fsprogs, which makes
// the file systems elevbench builds) in its read-only catastrophic mode, "imap <INO>" a handle:
// the same answer the kernel's __ext4_get_inode_loc computes, without parsing group descriptors
// here. The dependent replayer then holds a reader's I/O after a handle only for the writes of
// that buffer in flight (docs/replay.md §3, "After a journal handle").

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// The inode table block of each inode in debugfs's output of "stats" and "imap <INO>" commands
/// ("Block size: 4096"; "Inode 12 is part of block group 0" then "located at block 1058,
/// offset 0x0300"), and the block size. Inodes debugfs could not place are left out. False when
/// the text has no block size.
[[nodiscard]] bool ParseDebugfsInodeBlocks(std::string_view text,
                                           std::map<uint64_t, uint64_t>* block_of_inode,
                                           uint32_t* block_bytes);

/// Fills each handle's buffer_sectors and block_bytes from its inodes (those with any), reading
/// `device`'s ext2/3/4 layout with `debugfs -c` (bounded: 60 s). A handle without an inode, or
/// whose inode debugfs could not place, gets -1. False with one line, the handles unchanged, when
/// debugfs cannot be run or reads no ext2/3/4 file system there (xfs has no such event anyway).
[[nodiscard]] bool MapHandleBuffers(const std::string& device,
                                    std::vector<BlockTraceJournalHandles>* handles,
                                    std::string* err);

}  // namespace elevbench
