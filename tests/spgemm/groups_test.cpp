// The hash SpGEMM's row grouping (groups.hpp), which runs on the host as well: which rows the
// numeric pass's sort tiers take.
#include <gtest/gtest.h>

#include "gpu/spgemm/groups.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

// A sort tier of N elements takes rows of more than N/2 (the smaller tier's) and at most N
// products while span * N < 2^32; a wider row goes to the 16-lane warp tier or a block group.
TEST(SpgemmGroups, SortTiersTakeRowsByProductsAndSpan) {
  for (int s = 0; s < kSortTiers; ++s) {
    const eid_t n = sort_tier_products(s), limit = (eid_t(1) << 32) / n;
    EXPECT_EQ(sort_group(n, limit - 1), sort_tier_id(s)) << "tier " << s;
    EXPECT_EQ(sort_group(n / 2 + 1, 1), sort_tier_id(s)) << "tier " << s;
    EXPECT_EQ(sort_group(n, limit), -1) << "tier " << s;
    const int wide = numeric_group(n, n, limit, false);
    EXPECT_TRUE(wide == kFirstNumericWarpTier || (wide >= block_group_id(1) && wide <= kLastBlockGroup))
        << "tier " << s << ": group " << wide;
  }
  EXPECT_EQ(sort_group(1, 1), sort_tier_id(0));
  EXPECT_EQ(sort_group(sort_tier_products(kSortTiers - 1) + 1, 1), -1);
  EXPECT_EQ(numeric_group(5, 0, 1, false), kNoWork);
  EXPECT_EQ(numeric_group(5, 3, 10, true), kGlobalGroup);
}

}  // namespace
}  // namespace spgraph::gpu::spgemm_detail
