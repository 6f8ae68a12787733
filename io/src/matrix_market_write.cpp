#include <cstdint>
#include <string>
#include <type_traits>

#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "text_writer.hpp"

namespace spgraph::io {
namespace {

template <class V>
constexpr MmDeclaredType declared_type_of() {
  if constexpr (std::is_same_v<V, float>) return MmDeclaredType::Float;
  if constexpr (std::is_same_v<V, double>) return MmDeclaredType::Double;
  if constexpr (std::is_same_v<V, std::int32_t>) return MmDeclaredType::Int32;
  if constexpr (std::is_same_v<V, std::int64_t>) return MmDeclaredType::Int64;
}

}  // namespace

template <class V>
void write_matrix_market(const std::string& path, const Csr<V>& a) {
  a.validate(/*require_sorted=*/false);
  const bool pattern = a.is_pattern();
  AtomicFile out(path);
  detail::TextWriter w(out, detail::ends_with_gz(path));
  w.put("%%MatrixMarket matrix coordinate ");
  w.put(pattern ? "pattern" : std::is_floating_point_v<V> ? "real" : "integer");
  w.put(" general\n");
  if (!pattern) {
    w.put("%%GraphBLAS type ");
    w.put(to_string(declared_type_of<V>()));
    w.put('\n');
  }
  w.number(a.nrows);
  w.put(' ');
  w.number(a.ncols);
  w.put(' ');
  w.number(a.nnz());
  w.put('\n');
  w.entries(a, ' ', [&](vid_t v) { w.number(v + 1); });
  w.finish();
  out.commit();
}

template void write_matrix_market<float>(const std::string&, const Csr<float>&);
template void write_matrix_market<double>(const std::string&, const Csr<double>&);
template void write_matrix_market<std::int32_t>(const std::string&, const Csr<std::int32_t>&);
template void write_matrix_market<std::int64_t>(const std::string&, const Csr<std::int64_t>&);

}  // namespace spgraph::io
