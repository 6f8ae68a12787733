#include "matrix_market_header.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cfloat>
#include <limits>

namespace spgraph::io {

std::string_view to_string(MmField f) {
  switch (f) {
    case MmField::Real: return "real";
    case MmField::Integer: return "integer";
    case MmField::Pattern: return "pattern";
  }
  return "?";
}

std::string_view to_string(MmSymmetry s) {
  switch (s) {
    case MmSymmetry::General: return "general";
    case MmSymmetry::Symmetric: return "symmetric";
    case MmSymmetry::SkewSymmetric: return "skew-symmetric";
  }
  return "?";
}

std::string_view to_string(MmDeclaredType t) {
  switch (t) {
    case MmDeclaredType::None: return "";
    case MmDeclaredType::Bool: return "bool";
    case MmDeclaredType::Int8: return "int8_t";
    case MmDeclaredType::Int16: return "int16_t";
    case MmDeclaredType::Int32: return "int32_t";
    case MmDeclaredType::Int64: return "int64_t";
    case MmDeclaredType::UInt8: return "uint8_t";
    case MmDeclaredType::UInt16: return "uint16_t";
    case MmDeclaredType::UInt32: return "uint32_t";
    case MmDeclaredType::UInt64: return "uint64_t";
    case MmDeclaredType::Float: return "float";
    case MmDeclaredType::Double: return "double";
  }
  return "?";
}

namespace detail {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return std::tolower(c); });
  return r;
}

constexpr const char* kBannerForm = "'%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> <general|symmetric|skew-symmetric>'";

void parse_banner(LineReader& in, MatrixMarketHeader& h) {
  std::string_view line;
  if (!in.next(line)) throw ParseError(in.path(), 1, std::string("empty file; expected the banner ") + kBannerForm);
  FieldCursor f(line);
  if (lower(f.token()) != "%%matrixmarket")
    in.fail(std::string("not a Matrix Market file: the first line must be the banner ") + kBannerForm);
  std::string words[4];
  for (auto& w : words) {
    if (f.at_end()) in.fail(std::string("incomplete banner; expected ") + kBannerForm);
    w = lower(f.token());
  }
  if (!f.at_end()) in.fail("unexpected text after the banner: " + quote(f.rest()));

  if (words[0] != "matrix") in.fail("unsupported object " + quote(words[0]) + " (only 'matrix' is supported)");

  if (words[1] == "coordinate") h.format = MmFormat::Coordinate;
  else if (words[1] == "array") h.format = MmFormat::Array;
  else in.fail("unknown format " + quote(words[1]) + " (expected 'coordinate' or 'array')");

  if (words[2] == "real") h.field = MmField::Real;
  else if (words[2] == "integer") h.field = MmField::Integer;
  else if (words[2] == "pattern") h.field = MmField::Pattern;
  else if (words[2] == "complex") in.fail("complex matrices are not supported");
  else in.fail("unknown field " + quote(words[2]) + " (expected 'real', 'integer' or 'pattern')");

  if (words[3] == "general") h.symmetry = MmSymmetry::General;
  else if (words[3] == "symmetric") h.symmetry = MmSymmetry::Symmetric;
  else if (words[3] == "skew-symmetric") h.symmetry = MmSymmetry::SkewSymmetric;
  else if (words[3] == "hermitian") in.fail("hermitian matrices are not supported (hermitian applies to complex matrices)");
  else in.fail("unknown symmetry " + quote(words[3]) + " (expected 'general', 'symmetric' or 'skew-symmetric')");

  if (h.format == MmFormat::Array && h.field == MmField::Pattern)
    in.fail("'array pattern' is not a valid Matrix Market combination (a pattern matrix must be 'coordinate')");
  if (h.field == MmField::Pattern && h.symmetry == MmSymmetry::SkewSymmetric)
    in.fail("a pattern matrix cannot be skew-symmetric (it has no values to negate)");
}

MmDeclaredType parse_declared_type(const LineReader& in, std::string_view name) {
  static constexpr MmDeclaredType all[] = {
      MmDeclaredType::Bool,   MmDeclaredType::Int8,   MmDeclaredType::Int16,  MmDeclaredType::Int32,
      MmDeclaredType::Int64,  MmDeclaredType::UInt8,  MmDeclaredType::UInt16, MmDeclaredType::UInt32,
      MmDeclaredType::UInt64, MmDeclaredType::Float,  MmDeclaredType::Double};
  for (MmDeclaredType t : all)
    if (name == to_string(t)) return t;
  if (name.find("complex") != std::string_view::npos || name.rfind("GxB_FC", 0) == 0)
    in.fail("complex matrices are not supported (declared GraphBLAS type " + quote(name) + ")");
  in.fail("unknown GraphBLAS type " + quote(name) +
          " (expected bool, int8_t..int64_t, uint8_t..uint64_t, float or double)");
}

bool is_unsigned(MmDeclaredType t) {
  return t == MmDeclaredType::Bool || t == MmDeclaredType::UInt8 || t == MmDeclaredType::UInt16 ||
         t == MmDeclaredType::UInt32 || t == MmDeclaredType::UInt64;
}

// Comment lines up to the size line; the only one that means something is
// "%%GraphBLAS type <T>" (other "%%GraphBLAS ..." lines are comments, as in LAGraph).
std::string_view skip_comments(LineReader& in, MatrixMarketHeader& h) {
  std::string_view line;
  while (in.next(line)) {
    if (is_blank_or_comment(line, "%")) {
      FieldCursor f(line);
      if (lower(f.token()) == "%%graphblas" && !f.at_end() && lower(f.token()) == "type") {
        std::string_view name = f.rest();
        while (!name.empty() && is_blank(name.back())) name.remove_suffix(1);
        h.declared_type = parse_declared_type(in, name);
        if (h.symmetry == MmSymmetry::SkewSymmetric && is_unsigned(h.declared_type))
          in.fail("a skew-symmetric matrix cannot have the unsigned type " + std::string(name) +
                  " (its mirrored entries are negated)");
      }
      continue;
    }
    return line;
  }
  in.fail("file ends before the size line");
}

void parse_size_line(LineReader& in, std::string_view line, MatrixMarketHeader& h) {
  const bool coordinate = h.format == MmFormat::Coordinate;
  const auto refuse = [&] {
    in.fail(std::string("the size line must be ") + (coordinate ? "'<rows> <columns> <entries>'" : "'<rows> <columns>'") +
            "; found " + quote(line));
  };
  FieldCursor f(line);
  std::int64_t v[3] = {0, 0, -1};
  int count = 0;
  for (; count < 3 && !f.at_end(); ++count) {
    if (f.number(v[count]) != std::errc()) refuse();
    if (v[count] < 0) in.fail("negative size in the size line " + quote(line));
  }
  if (!f.at_end() || count < 2 || (coordinate && count != 3)) refuse();
  constexpr std::int64_t kMaxVertices = std::numeric_limits<vid_t>::max();
  for (int k = 0; k < 2; ++k)
    if (v[k] > kMaxVertices)
      in.fail(std::string(k == 0 ? "rows" : "columns") + " (" + std::to_string(v[k]) +
              ") exceed the limit of 2147483647 (32-bit vertex ids)");
  // LAGraph writes a third number, rows * columns, on dense files too.
  if (!coordinate && count == 3 && v[2] != v[0] * v[1]) refuse();
  h.nrows = static_cast<vid_t>(v[0]);
  h.ncols = static_cast<vid_t>(v[1]);
  h.stored_entries = coordinate ? v[2] : v[0] * v[1];
  if (h.symmetry != MmSymmetry::General && h.nrows != h.ncols)
    in.fail("a " + std::string(to_string(h.symmetry)) + " matrix must be square; the size line says " +
            std::to_string(h.nrows) + " x " + std::to_string(h.ncols));
}

}  // namespace

MatrixMarketHeader parse_matrix_market_header(LineReader& in) {
  MatrixMarketHeader h;
  parse_banner(in, h);
  std::string_view size_line = skip_comments(in, h);
  parse_size_line(in, size_line, h);
  return h;
}

MmValueRule::MmValueRule(const MatrixMarketHeader& h, const char* noun) : noun(noun) {
  auto set_signed = [&](std::int64_t l, std::int64_t u) { kind = Kind::Signed, lo = l, hi = u; };
  auto set_unsigned = [&](std::uint64_t u) { kind = Kind::Unsigned, umax = u; };
  type_name = std::string(to_string(h.declared_type));
  switch (h.declared_type) {
    case MmDeclaredType::None:
      type_name = std::string(to_string(h.field));
      if (h.field == MmField::Real) kind = Kind::Floating, float_max = DBL_MAX;
      if (h.field == MmField::Integer) set_signed(INT64_MIN, INT64_MAX);
      break;
    case MmDeclaredType::Bool: set_unsigned(1); break;
    case MmDeclaredType::Int8: set_signed(INT8_MIN, INT8_MAX); break;
    case MmDeclaredType::Int16: set_signed(INT16_MIN, INT16_MAX); break;
    case MmDeclaredType::Int32: set_signed(INT32_MIN, INT32_MAX); break;
    case MmDeclaredType::Int64: set_signed(INT64_MIN, INT64_MAX); break;
    case MmDeclaredType::UInt8: set_unsigned(UINT8_MAX); break;
    case MmDeclaredType::UInt16: set_unsigned(UINT16_MAX); break;
    case MmDeclaredType::UInt32: set_unsigned(UINT32_MAX); break;
    case MmDeclaredType::UInt64: set_unsigned(UINT64_MAX); break;
    // The largest double that still rounds to FLT_MAX, not infinity, when stored as float:
    // the shortest text of FLT_MAX ("3.4028235e+38") reads as a double slightly above it.
    case MmDeclaredType::Float: kind = Kind::Floating, float_max = std::nextafter(FLT_MAX + 0x1p103, 0.0); break;
    case MmDeclaredType::Double: kind = Kind::Floating, float_max = DBL_MAX; break;
  }
  // A skew-symmetric mirror is the negation, which must fit the type too.
  if (kind == Kind::Signed && h.symmetry == MmSymmetry::SkewSymmetric) lo = -hi;
  if (h.field == MmField::Pattern) kind = Kind::None;
}

std::string MmValueRule::value_refusal(const FieldCursor& at, std::errc ec) const {
  const std::string token = at.peek_quoted();
  if (ec == std::errc::result_out_of_range) return "value " + token + " is out of range for " + type_name;
  const char* expected = kind == Kind::Floating ? "a number" : kind == Kind::Signed ? "an integer" : "a non-negative integer";
  return "value " + token + " is not " + expected + " (the file's values are " + type_name + ")";
}

}  // namespace detail
}  // namespace spgraph::io
