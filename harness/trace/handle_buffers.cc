#include "harness/trace/handle_buffers.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "harness/core/error.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

constexpr double kDebugfsSeconds = 60;

// The unsigned number at the start of `s` (after blanks), or false.
bool LeadingNumber(std::string_view s, uint64_t* out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end != s.data();
}

}  // namespace

bool ParseDebugfsInodeBlocks(std::string_view text, std::map<uint64_t, uint64_t>* block_of_inode,
                             uint32_t* block_bytes) {
  constexpr std::string_view kBlockSize = "Block size:", kInode = "Inode ",
                             kPartOf = " is part of block group", kLocated = "located at block ";
  uint64_t size = 0, inode = 0;
  bool have_inode = false;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    uint64_t block = 0;
    if (line.rfind(kBlockSize, 0) == 0) {
      if (!LeadingNumber(line.substr(kBlockSize.size()), &size)) size = 0;
    } else if (line.rfind(kInode, 0) == 0 && line.find(kPartOf) != std::string_view::npos) {
      have_inode = LeadingNumber(line.substr(kInode.size()), &inode);
    } else if (have_inode && line.rfind(kLocated, 0) == 0 &&
               LeadingNumber(line.substr(kLocated.size()), &block)) {
      (*block_of_inode)[inode] = block;
      have_inode = false;
    }
  }
  if (size == 0 || size > (1u << 16)) return false;
  *block_bytes = static_cast<uint32_t>(size);
  return true;
}

bool MapHandleBuffers(const std::string& device, std::vector<BlockTraceJournalHandles>* handles,
                      std::string* err) {
  std::set<uint64_t> inodes;
  for (const BlockTraceJournalHandles& h : *handles) {
    for (uint64_t ino : h.inodes) {
      if (ino > 0) inodes.insert(ino);
    }
  }
  if (inodes.empty()) return true;
  std::string commands = "stats\n";
  for (uint64_t ino : inodes) commands += "imap <" + std::to_string(ino) + ">\n";
  // The temporary directory ($TMPDIR, else /tmp): debugfs reads its commands from a file, and
  // a capture may run as a user who cannot write /run.
  std::error_code ec;
  std::string path =
      (std::filesystem::temp_directory_path(ec) / "elevbench-debugfs-XXXXXX").string();
  if (ec) path = "/tmp/elevbench-debugfs-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) return Fail(err, "debugfs: " + ErrnoMessage("cannot make", path, errno));
  // The file mkstemp made is written as it is: only this process knows its name.
  const bool written =
      write(fd, commands.data(), commands.size()) == static_cast<ssize_t>(commands.size());
  if (!written) *err = ErrnoMessage("cannot write", path, errno);
  close(fd);
  ProcessOptions options;
  options.timeout_seconds = kDebugfsSeconds;
  ProcessResult run;
  const bool ran = written && RunProcess({"debugfs", "-c", "-f", path, device}, options, &run, err);
  unlink(path.c_str());
  if (!ran) return Fail(err, "debugfs: " + *err);
  std::map<uint64_t, uint64_t> block_of;
  uint32_t block_bytes = 0;
  if (run.timed_out || run.exit_code != 0 ||
      !ParseDebugfsInodeBlocks(run.output, &block_of, &block_bytes)) {
    return Fail(err, "debugfs read no ext2/3/4 file system on " + device +
                         (run.timed_out ? " (timed out)" : "") + ": " + LastLine(run.error_output));
  }
  for (BlockTraceJournalHandles& h : *handles) {
    if (h.inodes.empty()) continue;
    h.block_bytes = block_bytes;
    h.buffer_sectors.clear();
    for (uint64_t ino : h.inodes) {
      const auto it = block_of.find(ino);
      h.buffer_sectors.push_back(
          it == block_of.end() ? -1 : static_cast<int64_t>(it->second * block_bytes / 512));
    }
  }
  return true;
}

}  // namespace elevbench
