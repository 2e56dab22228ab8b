#include "scenarios/post2003/post2003_suite.h"

namespace elevbench {

const std::vector<CompositePart>& Post2003Parts() {
  static const std::vector<CompositePart> kParts = {
      {"probes", "--tree-size 48 --load-size 512"},
      {"contest", "--loads no_load,io_load,read_load,list_load"},
      {"tiobench", "--size 1024 --threads 1,4"},
      {"orasim", "--runs 2"},
      {"nickbench", ""},
  };
  return kParts;
}

std::unique_ptr<Suite> MakePost2003Suite(PartSuiteLookup lookup) {
  return MakeCompositeSuite(
      "post-2003", Post2003Parts(), lookup,
      {{"post", "Nick Piggin, [BENCHMARK] AS vs. DL schedulers, lkml 25 Mar 2003 (CFQ: 27 Mar)"}},
      {{"--beside-2003", "beside_2003", "Print the seed's 2003 line under each row of the post"}});
}

}  // namespace elevbench
