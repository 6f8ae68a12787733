// Squares a 3-vertex path with the plus-times semiring on the CPU backend and prints the
// result; exits non-zero if it is not the known answer.
#include <cstdio>

#include "spgraph/graphblas/backend.hpp"

int main() {
  using namespace spgraph;
  Csr<double> a;  // 0 - 1 - 2, undirected, weight 1
  a.nrows = a.ncols = 3;
  a.rowptr = {0, 1, 3, 4};
  a.col = {1, 0, 2, 1};
  a.val = {1, 1, 1, 1};
  auto A = graphblas::from_host(a);
  graphblas::Matrix<double> C;
  graphblas::mxm(C, nullptr, A, A, PlusTimes{});
  Csr<double> c = graphblas::to_host(C);
  // A^2 = [[1,0,1],[0,2,0],[1,0,1]]
  bool ok = c.nnz() == 5 && c.val[2] == 2.0;
  std::printf("A^2 has %lld entries; (1,1) = %g: %s\n", static_cast<long long>(c.nnz()), c.val[2],
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
