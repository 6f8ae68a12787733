#pragma once
// The value types the benchmarks run, as named on their command lines.
#include <string>
#include <vector>

namespace spgraph::bench {

enum class Precision { Float, Double };

constexpr const char* to_string(Precision p) { return p == Precision::Float ? "float" : "double"; }

// "float", "double" or "both" (float then double); throws spgraph::Error otherwise.
std::vector<Precision> parse_precisions(const std::string& text);

}  // namespace spgraph::bench
