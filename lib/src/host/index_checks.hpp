#pragma once
// Checks of index lists that both backends run before extract, extract_rows and permute, so a bad id
// is reported the same way whichever backend gets it.
#include <string>
#include <vector>

#include "spgraph/types.hpp"

namespace spgraph::detail {

// Throws Error "<who>: rows[k] = r is not a row of A (0..n-1)" for the first id outside [0, n).
void check_row_ids(const std::string& who, const std::vector<vid_t>& rows, vid_t n);
// Throws Error "<who>: ids[k] = r is outside x (0..n-1)" for the first id outside [0, n).
void check_positions(const std::string& who, const std::vector<vid_t>& ids, std::size_t n);
// Throws Error naming the first entry of p that is outside [0, n) or repeats an earlier one,
// or p's length when it is not n. Returns the inverse permutation q, q[p[i]] = i.
std::vector<vid_t> check_permutation(const std::string& who, const std::vector<vid_t>& p, vid_t n);

}  // namespace spgraph::detail
