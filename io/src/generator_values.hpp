#pragma once
#include <cstdint>

#include "spgraph/csr.hpp"

namespace spgraph::io::detail {

// Values uniform in (0, 1], one stream per row, so they depend only on the seed and the row.
void fill_random_values(Csr<double>& a, std::uint64_t seed, int threads);

}  // namespace spgraph::io::detail
