#pragma once
// `elevbench devices` as a person reads it: one line per block device with its model, size,
// rotation, schedulers (the active one in brackets, as sysfs shows it), queue depth, read-ahead
// and what is mounted from it. `--json` prints the devices' own JSON (block_device.h ToJson).
//
//   DEVICE     MODEL                         SIZE ROT  SCHEDULERS                        ...
//   sda        Samsung SSD 860                465.8G no   none [mq-deadline] kyber bfq      ...

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/device/block_device.h"

namespace elevbench {

/// The table of `devices`: a heading line, then one line per device in the given order, in
/// fixed-width columns (a model cut at 24 characters); each line ends in a newline.
std::string RenderBlockDevicesText(const std::vector<BlockDeviceInfo>& devices);

/// `devices --json`: the devices' JSON (ToJson) as one array, in the given order.
nlohmann::json BlockDevicesJson(const std::vector<BlockDeviceInfo>& devices);

}  // namespace elevbench
