#pragma once
// The weight rules of the readers. Every text reader refuses a NaN or infinite value
// whatever the options (check_finite): no algorithm here gives such a graph a meaning, and
// one rule for every format is easier to state than a rule per format. On top of it,
// LoadOptions::require_nonnegative_weights refuses negative weights with the value and the
// reason; the text readers name the file and the line. Zero is allowed (a caller such as MCL
// drops it as no link).
#include <cmath>
#include <string>

#include "text_fields.hpp"

namespace spgraph::io::detail {

// The hot path: no strings unless the weight is refused. -0.0 passes, as zero.
inline bool acceptable_weight(double w) { return w >= 0 && w != HUGE_VAL; }

// "weight -0.5 is negative; the weights must be non-negative finite numbers here", with
// `where` (" of the link a -> b", or empty) after the value.
std::string weight_refusal(double w, const std::string& where = "");

// "weight 'nan' is not a finite number; ..." for the field at `at` (`what` names it:
// "weight", or "value" for a dense vector).
std::string not_finite_refusal(const FieldCursor& at, const char* what);

// `Lines` is the LineReader or a TextChunk: its fail() names the line read last.
template <class Lines>
inline void check_weight(double w, const Lines& in) {
  if (!acceptable_weight(w)) in.fail(weight_refusal(w));
}

// The one rule for NaN and infinity: `w` was parsed from the field at `at`.
template <class Lines>
inline void check_finite(double w, const FieldCursor& at, const Lines& in, const char* what = "weight") {
  if (!std::isfinite(w)) in.fail(not_finite_refusal(at, what));
}

}  // namespace spgraph::io::detail
