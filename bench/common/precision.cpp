#include "precision.hpp"

#include "spgraph/error.hpp"

namespace spgraph::bench {

std::vector<Precision> parse_precisions(const std::string& text) {
  if (text == "float") return {Precision::Float};
  if (text == "double") return {Precision::Double};
  if (text == "both") return {Precision::Float, Precision::Double};
  throw Error("precision '" + text + "' is not one of float, double, both");
}

}  // namespace spgraph::bench
