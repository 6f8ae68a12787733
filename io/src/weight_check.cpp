#include "weight_check.hpp"

#include <charconv>

namespace spgraph::io::detail {

std::string weight_refusal(double w, const std::string& where) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, w).ptr;  // shortest form: -0.5, nan, -inf
  const char* why = std::isnan(w) ? "is not a number" : std::isinf(w) ? "is infinite" : "is negative";
  return "weight " + std::string(text, end) + where + " " + why +
         "; the weights must be non-negative finite numbers here";
}

std::string not_finite_refusal(const FieldCursor& at, const char* what) {
  return std::string(what) + " " + at.peek_quoted() +
         " is not a finite number; NaN and infinite values are refused in every format";
}

}  // namespace spgraph::io::detail
