// Coo::validate and Csr::validate: each names the first violation with its row or entry index,
// so a user (or a reader that built the container) can find the bad input.
#include <string>

#include "spgraph/coo.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph {
namespace {

[[noreturn]] void fail(const char* what, const std::string& reason) {
  throw Error(std::string(what) + "::validate: " + reason);
}

void check_dimensions(const char* what, vid_t nrows, vid_t ncols) {
  if (nrows < 0 || ncols < 0)
    fail(what, "negative dimensions (nrows=" + std::to_string(nrows) + ", ncols=" + std::to_string(ncols) + ")");
}

void check_value_count(const char* what, std::size_t nvals, std::size_t nentries) {
  if (nvals != 0 && nvals != nentries)
    fail(what, std::to_string(nvals) + " values for " + std::to_string(nentries) +
                   " entries (a valued matrix has one per entry, a pattern matrix none)");
}

}  // namespace

template <class V>
void Coo<V>::validate() const {
  check_dimensions("Coo", nrows, ncols);
  if (col.size() != row.size())
    fail("Coo", std::to_string(row.size()) + " row indices but " + std::to_string(col.size()) + " column indices");
  check_value_count("Coo", val.size(), row.size());
  for (std::size_t k = 0; k < row.size(); ++k) {
    if (row[k] < 0 || row[k] >= nrows)
      fail("Coo", "entry " + std::to_string(k) + ": row " + std::to_string(row[k]) + " out of range [0, " +
                      std::to_string(nrows) + ")");
    if (col[k] < 0 || col[k] >= ncols)
      fail("Coo", "entry " + std::to_string(k) + ": column " + std::to_string(col[k]) + " out of range [0, " +
                      std::to_string(ncols) + ")");
  }
}

template <class V>
void Csr<V>::validate(bool require_sorted) const {
  check_dimensions("Csr", nrows, ncols);
  if (rowptr.size() != static_cast<std::size_t>(nrows) + 1)
    fail("Csr", "rowptr has " + std::to_string(rowptr.size()) + " entries, expected nrows + 1 = " +
                    std::to_string(static_cast<long long>(nrows) + 1));
  if (rowptr[0] != 0) fail("Csr", "rowptr[0] is " + std::to_string(rowptr[0]) + ", expected 0");
  for (vid_t i = 0; i < nrows; ++i)
    if (rowptr[i + 1] < rowptr[i])
      fail("Csr", "row " + std::to_string(i) + ": row offsets decrease (rowptr[" + std::to_string(i) +
                      "] = " + std::to_string(rowptr[i]) + ", rowptr[" + std::to_string(i + 1) +
                      "] = " + std::to_string(rowptr[i + 1]) + ")");
  if (rowptr.back() != static_cast<eid_t>(col.size()))
    fail("Csr", "rowptr ends at " + std::to_string(rowptr.back()) + " but there are " +
                    std::to_string(col.size()) + " column indices");
  check_value_count("Csr", val.size(), col.size());
  for (vid_t i = 0; i < nrows; ++i) {
    for (eid_t p = rowptr[i]; p < rowptr[i + 1]; ++p) {
      if (col[p] < 0 || col[p] >= ncols)
        fail("Csr", "row " + std::to_string(i) + ", entry " + std::to_string(p) + ": column " +
                        std::to_string(col[p]) + " out of range [0, " + std::to_string(ncols) + ")");
      if (require_sorted && p > rowptr[i] && col[p] <= col[p - 1])
        fail("Csr", "row " + std::to_string(i) + ", entry " + std::to_string(p) + ": " +
                        (col[p] == col[p - 1] ? "duplicate column " + std::to_string(col[p])
                                              : "columns not sorted (" + std::to_string(col[p - 1]) +
                                                    " then " + std::to_string(col[p]) + ")"));
    }
  }
}

#define SPGRAPH_INSTANTIATE(V) template struct Coo<V>; template struct Csr<V>;
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
SPGRAPH_INSTANTIATE(std::uint64_t)  // words for bitwise semirings (mxv, vxm)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph
