#include "index_checks.hpp"

#include "spgraph/error.hpp"

namespace spgraph::detail {

void check_row_ids(const std::string& who, const std::vector<vid_t>& rows, vid_t n) {
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k] < 0 || rows[k] >= n)
      throw Error(who + ": rows[" + std::to_string(k) + "] = " + std::to_string(rows[k]) +
                  " is not a row of A (A has " + std::to_string(n) + " rows)");
}

void check_positions(const std::string& who, const std::vector<vid_t>& ids, std::size_t n) {
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (ids[k] < 0 || static_cast<std::size_t>(ids[k]) >= n)
      throw Error(who + ": ids[" + std::to_string(k) + "] = " + std::to_string(ids[k]) + " is outside x (0.." +
                  std::to_string(static_cast<long long>(n) - 1) + ")");
}

std::vector<vid_t> check_permutation(const std::string& who, const std::vector<vid_t>& p, vid_t n) {
  if (p.size() != static_cast<std::size_t>(n))
    throw Error(who + ": p has " + std::to_string(p.size()) + " entries but A is " + std::to_string(n) + " x " +
                std::to_string(n) + "; p must be a permutation of 0.." + std::to_string(n - 1));
  std::vector<vid_t> inverse(p.size(), -1);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const vid_t v = p[i];
    if (v < 0 || v >= n)
      throw Error(who + ": p[" + std::to_string(i) + "] = " + std::to_string(v) + " is outside 0.." +
                  std::to_string(n - 1) + "; p must be a permutation");
    if (inverse[v] >= 0)
      throw Error(who + ": p[" + std::to_string(i) + "] = " + std::to_string(v) + " repeats p[" +
                  std::to_string(inverse[v]) + "]; p must be a permutation");
    inverse[v] = static_cast<vid_t>(i);
  }
  return inverse;
}

}  // namespace spgraph::detail
