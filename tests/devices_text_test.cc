// `elevbench devices`' table and JSON (reporters/devices_text.h).

#include "reporters/devices_text.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(DevicesTextTest, OneFixedWidthLinePerDevice) {
  BlockDeviceInfo disk;
  disk.name = "sda";
  disk.model = "A very long model name that is cut";
  disk.size_bytes = 2ull << 30;
  disk.rotational = true;
  disk.current_scheduler = "bfq";
  disk.available_schedulers = {"none", "bfq"};
  disk.nr_requests = 64;
  disk.mounts = {{"sda1", "/", "ext4"}, {"sda2", "/home", "xfs"}};
  BlockDeviceInfo loop;
  loop.name = "loop0";
  loop.is_loop = true;
  loop.loop_backing_file = "/img";
  loop.read_ahead_kb = 128;
  const std::string text = RenderBlockDevicesText({disk, loop});
  EXPECT_EQ(text,
            "DEVICE     MODEL                         SIZE ROT  SCHEDULERS                      "
            "  NR_REQ    RA_KB  MOUNTED\n"
            "sda        A very long model name t      2.0G yes  none [bfq]                      "
            "      64        -  / (ext4), /home (xfs)\n"
            "loop0      -                             0.0G no   (none: bio-based)               "
            "       -      128  backs /img\n");
  const nlohmann::json json = BlockDevicesJson({disk, loop});
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0], ToJson(disk));
}

}  // namespace
}  // namespace elevbench
