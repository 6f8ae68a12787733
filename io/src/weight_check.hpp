#pragma once
// The readers' check behind LoadOptions::require_nonnegative_weights: a weight that is
// negative, NaN or infinite is refused with the value and the reason; the text readers name
// the file and the line. Zero is allowed (a caller such as MCL drops it as no link).
#include <cmath>
#include <string>

#include "line_reader.hpp"

namespace spgraph::io::detail {

// The hot path: no strings unless the weight is refused. -0.0 passes, as zero.
inline bool acceptable_weight(double w) { return w >= 0 && w != HUGE_VAL; }

// "weight -0.5 is negative; the weights must be non-negative finite numbers here", with
// `where` (" of the link a -> b", or empty) after the value.
std::string weight_refusal(double w, const std::string& where = "");

// ParseError "FILE:LINE: <weight_refusal>" for the line `in` read last.
[[noreturn]] void fail_weight(const LineReader& in, double w, const std::string& where = "");

inline void check_weight(double w, const LineReader& in) {
  if (!acceptable_weight(w)) fail_weight(in, w);
}

}  // namespace spgraph::io::detail
