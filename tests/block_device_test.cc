#include "harness/device/block_device.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

const std::string kVda = "devices/pci0000:00/0000:00:02.0/virtio1/block/vda";
const std::string kNvme = "devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1";
const std::string kVirtual = "devices/virtual/block/";

// A fake sysfs laid out like the kernel's: real directories under sys/devices, symlinks from
// sys/block and sys/dev/block, relative links for slaves and holders.
class BlockDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/elevbench_blockdev_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    paths_.root = root_;
    paths_.mountinfo = root_ + "/mountinfo";
    Put("mountinfo",
        "27 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n"
        "28 27 254:2 / /mnt/my\\040data rw - xfs /dev/vda2 rw\n"
        "29 27 0:5 / /dev/shm rw - tmpfs tmpfs rw\n");
    Disk(kVda, "254:0", "none [mq-deadline] kyber bfq", 2097152, "1");
    Partition(kVda, "vda1", "254:1");
    Partition(kVda, "vda2", "254:2");
    Disk(kNvme, "259:0", "[none] mq-deadline kyber bfq", 1000, "0");
    Partition(kNvme, "nvme0n1p1", "259:1");
    Put("sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0/model", "Fake NVMe SSD   \n");
    Link("sys/" + kNvme + "/device", "../../nvme0");
    for (std::string loop : {"loop0", "loop1"}) {
      std::string dir = kVirtual + loop;
      Disk(dir, loop == "loop0" ? "7:0" : "7:1", "[none] mq-deadline kyber bfq", 8192, "1");
      Put("sys/" + dir + "/loop/backing_file", "/tmp/" + loop + ".img\n");
      Link("sys/" + dir + "/holders/dm-0", "../../dm-0");
    }
    Disk(kVirtual + "loop2", "7:2", "[none] mq-deadline kyber bfq", 0, "1");  // unattached
    Disk(kVirtual + "dm-0", "253:0", "none", 16384, "0");
    Put("sys/" + kVirtual + "dm-0/dm/name", "vg-data\n");
    Link("sys/" + kVirtual + "dm-0/slaves/loop0", "../../loop0");
    Link("sys/" + kVirtual + "dm-0/slaves/loop1", "../../loop1");
    Disk(kVirtual + "dm-1", "253:1", "none", 16384, "0");
    Link("sys/" + kVirtual + "dm-1/slaves/vda2", "../../../../" + kVda.substr(8) + "/vda2");
    Link("sys/" + kVirtual + "dm-1/slaves/vda1", "../../../../" + kVda.substr(8) + "/vda1");
    Disk(kVirtual + "zram0", "252:0", "", 100, "0");
    Disk(kVirtual + "ram0", "1:0", "", 100, "0");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Put(const std::string& rel, const std::string& content) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << content;
  }
  void Link(const std::string& rel, const std::string& target) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    fs::create_symlink(target, root_ + "/" + rel);
  }
  // `scheduler` empty means no queue/scheduler file at all (zram, ram).
  void Disk(const std::string& dir, const std::string& devno, const std::string& scheduler,
            int sectors, const std::string& rotational) {
    std::string s = "sys/" + dir;
    std::string name = fs::path(dir).filename();
    Put(s + "/dev", devno + "\n");
    Put(s + "/size", std::to_string(sectors) + "\n");
    Put(s + "/queue/rotational", rotational + "\n");
    Put(s + "/queue/read_ahead_kb", "128\n");
    if (!scheduler.empty()) {
      Put(s + "/queue/scheduler", scheduler + " \n");
      Put(s + "/queue/nr_requests", "256\n");
    }
    fs::create_directories(root_ + "/" + s + "/holders");
    fs::create_directories(root_ + "/" + s + "/slaves");
    Link("sys/block/" + name, "../" + dir);
    Link("sys/dev/block/" + devno, "../../" + dir);
  }
  void Partition(const std::string& disk, const std::string& name, const std::string& devno) {
    std::string s = "sys/" + disk + "/" + name;
    Put(s + "/partition", "1\n");
    Put(s + "/dev", devno + "\n");
    fs::create_directories(root_ + "/" + s + "/holders");
    Link("sys/dev/block/" + devno, "../../" + disk + "/" + name);
  }

  std::vector<std::string> Resolve(unsigned major, unsigned minor) {
    std::vector<std::string> disks;
    std::string err;
    EXPECT_TRUE(ResolveQueueDevicesForDevno(major, minor, paths_, &disks, &err)) << err;
    return disks;
  }

  std::string root_;
  SystemPaths paths_;
};

TEST_F(BlockDeviceTest, DiskResolvesToItself) {
  EXPECT_EQ(Resolve(254, 0), std::vector<std::string>{"vda"});
}

TEST_F(BlockDeviceTest, PartitionResolvesToDisk) {
  EXPECT_EQ(Resolve(254, 1), std::vector<std::string>{"vda"});
  EXPECT_EQ(Resolve(259, 1), std::vector<std::string>{"nvme0n1"});
}

TEST_F(BlockDeviceTest, LoopDeviceIsItsOwnQueue) {
  EXPECT_EQ(Resolve(7, 1), std::vector<std::string>{"loop1"});
}

TEST_F(BlockDeviceTest, DeviceMapperRecursesToSlaves) {
  EXPECT_EQ(Resolve(253, 0), (std::vector<std::string>{"loop0", "loop1"}));
  // Two partitions of one disk give that disk once.
  EXPECT_EQ(Resolve(253, 1), std::vector<std::string>{"vda"});
}

TEST_F(BlockDeviceTest, DescribeStackShowsEveryLayer) {
  std::vector<StackNode> nodes;
  std::string err;
  ASSERT_TRUE(DescribeStackForDevno(253, 0, paths_, &nodes, &err)) << err;
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].role, "dm");
  EXPECT_EQ(nodes[0].detail, "vg-data");
  EXPECT_EQ(nodes[1].depth, 1);
  EXPECT_EQ(FormatStack(nodes),
            "dm-0 (dm vg-data) -> loop0 [none] (/tmp/loop0.img), loop1 [none] (/tmp/loop1.img)");
  ASSERT_TRUE(DescribeStackForDevno(254, 1, paths_, &nodes, &err)) << err;
  EXPECT_EQ(FormatStack(nodes), "vda1 (partition of vda) -> vda [mq-deadline]");
}

TEST_F(BlockDeviceTest, ErrorsAreSpecific) {
  std::vector<std::string> disks;
  std::string err;
  EXPECT_FALSE(ResolveQueueDevicesForDevno(9, 9, paths_, &disks, &err));
  EXPECT_NE(err.find("no block device 9:9"), std::string::npos) << err;
  EXPECT_FALSE(ResolveQueueDevicesForDevno(252, 0, paths_, &disks, &err));
  EXPECT_EQ(err, "zram0 has no I/O scheduler to switch (no queue/scheduler or no [current])");
}

TEST_F(BlockDeviceTest, PseudoFilesystemHasNoQueue) {
  std::vector<std::string> disks;
  std::string err;
  SystemPaths live;
  EXPECT_FALSE(ResolveQueueDevices("/proc/self", live, &disks, &err));
  EXPECT_NE(err.find("has no block device"), std::string::npos) << err;
  EXPECT_FALSE(ResolveQueueDevices("/no/such/path", live, &disks, &err));
  EXPECT_NE(err.find("stat /no/such/path"), std::string::npos) << err;
}

// What `capture --device DISK` refuses as --out: a file on the disk, on one of its partitions
// or on a device stacked on them. A device the traced one is stacked on is not on it.
TEST_F(BlockDeviceTest, DevnoIsOnDiskFollowsPartitionsAndHolders) {
  auto on = [&](unsigned major, unsigned minor, const std::string& disk) {
    bool result = false;
    std::string err;
    EXPECT_TRUE(DevnoIsOnDisk(major, minor, disk, paths_, &result, &err)) << err;
    return result;
  };
  EXPECT_TRUE(on(254, 0, "vda"));       // the disk
  EXPECT_TRUE(on(254, 1, "vda"));       // a partition
  EXPECT_TRUE(on(253, 1, "vda"));       // dm-1 on vda1 and vda2 (a holder of the partitions)
  EXPECT_TRUE(on(253, 0, "loop1"));     // dm-0 on loop0 and loop1
  EXPECT_TRUE(on(259, 1, "nvme0n1"));   // nvme0n1p1
  EXPECT_FALSE(on(253, 0, "vda"));      // dm-0 is on loops only
  EXPECT_FALSE(on(254, 1, "nvme0n1"));  // another disk's partition
  EXPECT_FALSE(on(7, 0, "dm-0"));       // loop0 is under dm-0: its writes never pass dm-0
  EXPECT_FALSE(on(7, 2, "loop1"));      // a sibling loop device
  EXPECT_TRUE(on(253, 0, "dm-0"));      // a traced dm device itself
  bool result = true;
  std::string err;
  EXPECT_FALSE(DevnoIsOnDisk(9, 9, "vda", paths_, &result, &err));
  EXPECT_NE(err.find("no block device 9:9"), std::string::npos) << err;
}

TEST_F(BlockDeviceTest, PathOnNoBlockDeviceIsOnNoDisk) {
  for (const char* path : {"/proc/self", "/dev/null"}) {
    bool on = true;
    std::string err;
    EXPECT_TRUE(PathIsOnDisk(path, "vda", paths_, &on, &err)) << path << ": " << err;
    EXPECT_FALSE(on) << path;
  }
  bool on = false;
  std::string err;
  EXPECT_FALSE(PathIsOnDisk("/no/such/path", "vda", paths_, &on, &err));
  EXPECT_NE(err.find("stat /no/such/path"), std::string::npos) << err;
}

TEST_F(BlockDeviceTest, ReadBlockDeviceFillsEverything) {
  BlockDeviceInfo info;
  std::string err;
  ASSERT_TRUE(ReadBlockDevice("vda", paths_, &info, &err)) << err;
  EXPECT_EQ(info.devno, "254:0");
  EXPECT_EQ(info.size_bytes, 2097152ull * 512);
  EXPECT_TRUE(info.rotational);
  EXPECT_EQ(info.current_scheduler, "mq-deadline");
  EXPECT_EQ(info.available_schedulers.size(), 4u);
  EXPECT_EQ(info.nr_requests, 256);
  EXPECT_EQ(info.max_sectors_kb, std::nullopt);
  ASSERT_EQ(info.mounts.size(), 2u);
  EXPECT_EQ(info.mounts[0].device, "vda1");
  EXPECT_EQ(info.mounts[1].mountpoint, "/mnt/my data");
  EXPECT_EQ(info.mounts[1].fstype, "xfs");

  ASSERT_TRUE(ReadBlockDevice("nvme0n1", paths_, &info, &err)) << err;
  EXPECT_EQ(info.model, "Fake NVMe SSD");
  ASSERT_TRUE(ReadBlockDevice("loop0", paths_, &info, &err)) << err;
  EXPECT_TRUE(info.is_loop);
  EXPECT_EQ(info.loop_backing_file, "/tmp/loop0.img");
  EXPECT_EQ(info.holders, std::vector<std::string>{"dm-0"});
  ASSERT_TRUE(ReadBlockDevice("dm-0", paths_, &info, &err)) << err;
  EXPECT_EQ(info.slaves, (std::vector<std::string>{"loop0", "loop1"}));
  EXPECT_EQ(info.current_scheduler, "");

  EXPECT_FALSE(ReadBlockDevice("sdq", paths_, &info, &err));
  EXPECT_FALSE(ReadBlockDevice("../vda", paths_, &info, &err));
}

TEST_F(BlockDeviceTest, ListSkipsRamAndUnattachedLoops) {
  std::vector<BlockDeviceInfo> devices;
  std::string err;
  ASSERT_TRUE(ListBlockDevices(paths_, &devices, &err)) << err;
  std::vector<std::string> names;
  for (const BlockDeviceInfo& d : devices) names.push_back(d.name);
  EXPECT_EQ(names, (std::vector<std::string>{"dm-0", "dm-1", "loop0", "loop1", "nvme0n1", "vda",
                                             "zram0"}));
}

TEST_F(BlockDeviceTest, JsonHasUnitsAndNulls) {
  BlockDeviceInfo info;
  std::string err;
  ASSERT_TRUE(ReadBlockDevice("vda", paths_, &info, &err)) << err;
  nlohmann::json j = ToJson(info);
  EXPECT_EQ(j["size_bytes"], 2097152ull * 512);
  EXPECT_EQ(j["current_scheduler"], "mq-deadline");
  EXPECT_EQ(j["read_ahead_kb"], 128);
  EXPECT_TRUE(j["max_sectors_kb"].is_null());
  EXPECT_EQ(j["mounts"][1]["mountpoint"], "/mnt/my data");
}

TEST_F(BlockDeviceTest, SnapshotQueueReadsReadableFiles) {
  std::string q = root_ + "/sys/" + kVda + "/queue";
  Put("sys/" + kVda + "/queue/iosched/read_expire", "500\n");
  Put("sys/" + kVda + "/queue/wbt_poke", "secret\n");
  chmod((q + "/wbt_poke").c_str(), 0200);  // write-only, as some sysfs attributes are
  fs::create_directories(q + "/integrity");
  std::map<std::string, std::string> values;
  std::string err;
  ASSERT_TRUE(SnapshotQueue(Sysfs(root_), "vda", &values, &err)) << err;
  EXPECT_EQ(values["queue/scheduler"], "none [mq-deadline] kyber bfq");
  EXPECT_EQ(values["queue/iosched/read_expire"], "500");
  EXPECT_EQ(values.count("queue/wbt_poke"), 0u);
  EXPECT_EQ(values.count("queue/integrity"), 0u);
  EXPECT_FALSE(SnapshotQueue(Sysfs(root_), "sdq", &values, &err));
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// A kernel built without bfq lists it nowhere; a bfq built as a module is offered while unloaded.
TEST_F(BlockDeviceTest, OfferedSchedulersAreWhatTheKernelListsOrCanLoad) {
  EXPECT_EQ(OfferedSchedulers(paths_, ""),
            (std::vector<std::string>{"none", "mq-deadline", "kyber", "bfq"}));
  for (const auto& e : fs::recursive_directory_iterator(root_ + "/sys")) {
    if (e.path().filename() != "scheduler" || !e.is_regular_file()) continue;
    std::string line = testing::ReadFileOrEmpty(e.path().string());
    if (const size_t bfq = line.find(" bfq"); bfq != std::string::npos) line.erase(bfq, 4);
    std::ofstream(e.path()) << line;
  }
  EXPECT_EQ(OfferedSchedulers(paths_, ""),
            (std::vector<std::string>{"none", "mq-deadline", "kyber"}));
  EXPECT_EQ(OfferedSchedulers(paths_, root_ + "/no-such-modules"),
            (std::vector<std::string>{"none", "mq-deadline", "kyber"}));
  Put("modules/kernel/block/bfq.ko.xz", "");
  EXPECT_EQ(OfferedSchedulers(paths_, root_ + "/modules"),
            (std::vector<std::string>{"none", "mq-deadline", "kyber", "bfq"}));
}

}  // namespace
}  // namespace elevbench
