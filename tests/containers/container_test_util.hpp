#pragma once
// Small builders and checks shared by the container tests.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "spgraph/coo.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {

// A Csr from its arrays as written in a test; values empty for a pattern.
template <class V>
Csr<V> make_csr(vid_t nrows, vid_t ncols, std::vector<eid_t> rowptr, std::vector<vid_t> col,
                std::vector<V> val = {}) {
  Csr<V> a;
  a.nrows = nrows;
  a.ncols = ncols;
  a.rowptr = std::move(rowptr);
  a.col = std::move(col);
  a.val = std::move(val);
  return a;
}

template <class V>
bool same_csr(const Csr<V>& a, const Csr<V>& b) {
  return a.nrows == b.nrows && a.ncols == b.ncols && a.rowptr == b.rowptr && a.col == b.col && a.val == b.val;
}

// Runs f, expects an spgraph::Error whose message contains every one of `parts`.
template <class F>
void expect_error_mentions(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected spgraph::Error";
  } catch (const Error& e) {
    const std::string what = e.what();
    for (const auto& part : parts) EXPECT_NE(what.find(part), std::string::npos) << "message: " << what << "\nmissing: " << part;
  }
}

}  // namespace spgraph::test
