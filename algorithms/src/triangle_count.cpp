#include "spgraph/algorithms/triangle_count.hpp"

#include <array>
#include <utility>

#include "on_backend.hpp"

namespace spgraph::algorithms {
namespace {

constexpr std::array<std::pair<TriangleMethod, const char*>, kTriangleMethods.size()> kMethodNames{{
    {TriangleMethod::Burkhardt, "burkhardt"},
    {TriangleMethod::Cohen, "cohen"},
    {TriangleMethod::Sandia, "sandia"},
    {TriangleMethod::Sandia2, "sandia2"},
    {TriangleMethod::SandiaDot, "sandia-dot"},
    {TriangleMethod::SandiaDot2, "sandia-dot2"},
}};

}  // namespace

const char* to_string(TriangleMethod m) {
  for (const auto& [method, name] : kMethodNames)
    if (method == m) return name;
  return "?";
}

std::optional<TriangleMethod> triangle_method_from_string(std::string_view name) {
  for (const auto& [method, known] : kMethodNames)
    if (name == known) return method;
  return std::nullopt;
}

const char* to_string(TrianglePresort p) {
  switch (p) {
    case TrianglePresort::Auto: return "auto";
    case TrianglePresort::None: return "none";
    case TrianglePresort::Ascending: return "ascending";
    case TrianglePresort::Descending: return "descending";
  }
  return "?";
}

TriangleCountResult triangle_count(Backend backend, const Csr<double>& graph, const TriangleCountOptions& options) {
  return on_backend(backend, graph, [&](auto& g) { return triangle_count(g, options); });
}

}  // namespace spgraph::algorithms
