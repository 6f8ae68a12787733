#pragma once
// Matrix Market (https://math.nist.gov/MatrixMarket/formats.html) reader and writer, for
// .mtx and .mtx.gz (gzip is recognised by its magic bytes and streamed through zlib).
//
// Read: "coordinate" matrices with field real, integer or pattern and symmetry general,
// symmetric or skew-symmetric. Symmetric files store one triangle; the reader mirrors every
// off-diagonal entry (skew-symmetric: negated; a skew-symmetric diagonal entry is an error).
// The "%%GraphBLAS type <T>" comment line that LAGraph and SuiteSparse:GraphBLAS write is
// honoured: every value must be representable in T. Complex, hermitian and dense ("array")
// files are refused with the reason. A NaN or infinite value is refused whatever the options,
// as in every text format. Every problem is a spgraph::ParseError "FILE:LINE: reason".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::io {

enum class MmFormat { Coordinate, Array };
enum class MmField { Real, Integer, Pattern };
enum class MmSymmetry { General, Symmetric, SkewSymmetric };
// The "%%GraphBLAS type" line; None when the file has none.
enum class MmDeclaredType { None, Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float, Double };

std::string_view to_string(MmField f);
std::string_view to_string(MmSymmetry s);
std::string_view to_string(MmDeclaredType t);  // the GraphBLAS spelling: "int8_t", "double", ...

struct MatrixMarketHeader {
  MmFormat format = MmFormat::Coordinate;
  MmField field = MmField::Real;
  MmSymmetry symmetry = MmSymmetry::General;
  MmDeclaredType declared_type = MmDeclaredType::None;
  vid_t nrows = 0;
  vid_t ncols = 0;
  eid_t stored_entries = 0;  // entries in the file, before symmetric expansion
};

struct MatrixMarketOptions {
  // Matrix Market files must not repeat an entry; by default a repeat is a ParseError naming
  // both lines. Sum, Max or First combine repeats instead.
  Duplicates duplicates = Duplicates::Error;
  // A negative value is a ParseError naming the line; so is a
  // positive value of a skew-symmetric file, whose mirror is its negation.
  bool require_nonnegative_weights = false;
  // A size line whose rows or columns are far beyond what its entries justify (more than
  // 64 * (entries + 1) + 2^20) is a ParseError at that line, before anything is allocated
  // for them; true allocates them as declared.
  bool trust_vertex_count = false;
};

struct MatrixMarketMatrix {
  MatrixMarketHeader header;
  Csr<double> matrix;  // 0-based; no values for pattern files
};

// Reads only the banner, the comment lines and the size line.
MatrixMarketHeader read_matrix_market_header(const std::string& path);

MatrixMarketMatrix read_matrix_market(const std::string& path, const MatrixMarketOptions& options = {});

// Dense "array" files with field real or integer, general symmetry: vectors such as the
// cluster assignments in datasets/small/*_cluster.mtx. Values in column-major order.
struct MatrixMarketDense {
  MatrixMarketHeader header;
  std::vector<double> values;  // nrows * ncols, column-major
};
MatrixMarketDense read_matrix_market_dense(const std::string& path);

// Writes "coordinate general": field real (float, double), integer (int32_t, int64_t) or
// pattern when the matrix has no values, with a "%%GraphBLAS type" line for valued matrices.
// Values use the shortest text that reads back to the same value (std::to_chars), so doubles
// round-trip exactly. Gzip-compressed when the path ends in ".gz". The file appears only
// complete (written to a temporary name and renamed); failures throw spgraph::Error.
template <class V>
void write_matrix_market(const std::string& path, const Csr<V>& a);

}  // namespace spgraph::io
