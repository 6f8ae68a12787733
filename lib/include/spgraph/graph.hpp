#pragma once
// A graph resident on a backend, built once from a host CSR (row i lists vertex i's
// out-links) and taken by every algorithm and app, so that no algorithm uploads or transposes
// again. It holds, each built on first use and kept:
//   pattern<V>()       A's structure as a Matrix<V> without values (every entry reads as 1)
//   in_links<V>()      A' of that pattern (pull over in-links: PageRank, BFS bottom-up)
//   weighted<V>()      A with its values (double unless asked), or the pattern where the input
//                      has none
//   undirected<V>()    the undirected simple graph under A: the pattern of A + A' without the
//                      diagonal (self-loops dropped, direction ignored, reciprocal links merged)
//   out_degree()       out-degrees, a Vector<vid_t>, counted on the backend
// Structures for another V are separate copies on the backend: an algorithm asks for one V.
// Building touches the host CSR only while the Graph is being built or a part is first asked
// for; the host CSR must outlive the Graph until then (keep both, as the apps do).
// A graph can also start from A already on the backend (a distributed load, where no rank
// holds the whole CSR): the other parts are then built from it, by B::pattern_of and
// B::convert_values (dist::Backend has them).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operations.hpp"

namespace spgraph {

template <class B>
  requires Backend<B>
class Graph {
 public:
  template <class V> using Matrix = typename B::template Matrix<V>;
  template <class V> using Vector = typename B::template Vector<V>;

  // Throws Error for a matrix that is not square.
  explicit Graph(const Csr<double>& host) : host_(&host), vertices_(host.nrows), edges_(host.nnz()) {
    check_square(host.nrows, host.ncols);
  }
  // A on the backend, its values (or 1s) in double.
  explicit Graph(Matrix<double> weighted) : vertices_(vid_t(weighted.nrows())), edges_(weighted.nnz()) {
    check_square(std::int64_t(weighted.nrows()), std::int64_t(weighted.ncols()));
    std::get<Parts<double>>(parts_).weighted.emplace(std::move(weighted));
  }

  vid_t vertices() const { return vertices_; }
  eid_t edges() const { return edges_; }  // stored entries (directed links)
  // The host CSR the graph was built from; throws for one built from a matrix on the backend.
  const Csr<double>& host() const {
    if (!host_) throw Error("this graph was built on the backend (a distributed load): it has no host CSR");
    return *host_;
  }

  template <class V>
  const Matrix<V>& pattern() {
    auto& slot = std::get<Parts<V>>(parts_).pattern;
    if (!slot) {
      if (host_) slot.emplace(B::template pattern_from_host<V>(*host_));
      else if constexpr (requires { B::template pattern_of<V>(std::declval<const Matrix<double>&>()); })
        slot.emplace(B::template pattern_of<V>(weighted<double>()));
      else throw Error(std::string("Graph: the ") + B::name + " backend cannot take a graph's pattern from a matrix on it");
    }
    return *slot;
  }
  template <class V>
  const Matrix<V>& in_links() {
    auto& slot = std::get<Parts<V>>(parts_).in_links;
    if (!slot) {
      Matrix<V> t;
      B::transpose(t, pattern<V>());
      slot.emplace(std::move(t));
    }
    return *slot;
  }
  template <class V>
  const Matrix<V>& undirected() {
    auto& slot = std::get<Parts<V>>(parts_).undirected;
    if (!slot) {
      Matrix<V> both, simple;
      B::template ewise_add<monoid::Any>(both, nullptr, pattern<V>(), pattern<V>(), Descriptor{.transpose_b = true});
      B::select(simple, nullptr, both, SelectSpec::position(SelectSpec::Kind::OffDiagonal));
      slot.emplace(std::move(simple));
    }
    return *slot;
  }
  template <class V = double>
  const Matrix<V>& weighted() {
    auto& slot = std::get<Parts<V>>(parts_).weighted;
    if (!slot) {
      if constexpr (std::is_same_v<V, double>) {
        slot.emplace(B::from_host(host()));
      } else if (!host_) {
        if constexpr (requires { B::template convert_values<V>(std::declval<const Matrix<double>&>()); })
          slot.emplace(B::template convert_values<V>(weighted<double>()));
        else throw Error(std::string("Graph: the ") + B::name + " backend cannot convert a matrix on it");
      } else {
        Csr<V> h{host_->nrows, host_->ncols, host_->rowptr, host_->col, std::vector<V>(host_->val.begin(), host_->val.end())};
        slot.emplace(B::from_host(h));
      }
    }
    return *slot;
  }

  // Out-degrees, counted on the backend from pattern<V>() (V: the one the caller works in,
  // so no other structure is built); the same vector whatever V.
  template <class V = float>
  const Vector<vid_t>& out_degree() {
    if (!out_degree_) {
      Vector<vid_t> d;
      B::row_degrees(d, pattern<V>());
      out_degree_.emplace(std::move(d));
    }
    return *out_degree_;
  }

 private:
  template <class V>
  struct Parts {
    std::optional<Matrix<V>> pattern, in_links, undirected, weighted;
  };

  static void check_square(std::int64_t rows, std::int64_t cols) {
    if (rows != cols)
      throw Error("a graph needs a square adjacency matrix; this one is " + std::to_string(rows) + " x " +
                  std::to_string(cols));
  }

  const Csr<double>* host_ = nullptr;
  vid_t vertices_ = 0;
  eid_t edges_ = 0;
  std::tuple<Parts<float>, Parts<double>, Parts<std::int32_t>, Parts<std::int64_t>, Parts<bool>> parts_;
  std::optional<Vector<vid_t>> out_degree_;
};

}  // namespace spgraph
