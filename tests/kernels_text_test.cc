// `elevbench kernels`: the cache as a table (aligned by RenderTextTable) and as JSON, and the
// line of an empty cache (reporters/kernels_text.h).

#include "reporters/kernels_text.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(KernelsTextTest, OneRowAKernelWithItsSchedulersAndControllers) {
  CachedKernel a;
  a.package = "linux-image-6.1.0-50-cloud-amd64";
  a.source = "debian";
  a.release = "6.1.0-50-cloud-amd64";
  a.features.schedulers = {"none", "mq-deadline", "bfq"};
  a.features.io_controllers = {"throttle", "iocost"};
  CachedKernel b;
  b.package = "image-6.18.0-rc3-1a2b3c4d";
  b.source = "build";
  b.release = "6.18.0-rc3";
  b.features.schedulers = {"none"};
  EXPECT_EQ(RenderKernelsText({a, b}, "/c"),
            "source  package                           release               row             "
            "schedulers            I/O controllers\n"
            "debian  linux-image-6.1.0-50-cloud-amd64  6.1.0-50-cloud-amd64  6.1.0-50-cloud  "
            "none mq-deadline bfq  throttle iocost\n"
            "build   image-6.18.0-rc3-1a2b3c4d         6.18.0-rc3            6.18.0-rc3      "
            "none                  -\n");
  EXPECT_EQ(KernelsJson({a})[0]["row"], "6.1.0-50-cloud");
  EXPECT_EQ(KernelsJson({b})[0]["source"], "build");
  EXPECT_NE(RenderKernelsText({}, "/c").find("no kernel in /c"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
