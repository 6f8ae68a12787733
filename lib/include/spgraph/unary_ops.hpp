#pragma once
// Unary operators for apply(): small value types, usable in device code, each mapped by the
// graphblas backend to a built-in (unary op, or binary op with a bound scalar).
#include <cmath>

#include "spgraph/types.hpp"

namespace spgraph::unary {
struct Identity { template <class T> SPGRAPH_HD T operator()(T x) const { return x; } };
struct Abs { template <class T> SPGRAPH_HD T operator()(T x) const { return x < T(0) ? -x : x; } };
struct Negate { template <class T> SPGRAPH_HD T operator()(T x) const { return -x; } };
struct One { template <class T> SPGRAPH_HD T operator()(T) const { return T(1); } };
struct Inverse { template <class T> SPGRAPH_HD T operator()(T x) const { return T(1) / x; } };  // 1/x (GrB_MINV)
struct Scale {  // x * s
  double s = 1;
  template <class T> SPGRAPH_HD T operator()(T x) const { return T(x * s); }
};
struct AddScalar {  // x + s
  double s = 0;
  template <class T> SPGRAPH_HD T operator()(T x) const { return T(x + s); }
};
struct Pow {  // x ^ e, MCL's inflation
  double e = 2;
  template <class T> SPGRAPH_HD T operator()(T x) const { return T(pow(double(x), e)); }
};
struct ToFloat {  // x rounded to float precision (MCL holds its values as mcl does, in float)
  template <class T> SPGRAPH_HD T operator()(T x) const { return T(float(x)); }
};
}  // namespace spgraph::unary
