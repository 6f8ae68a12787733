#pragma once
// The Matrix Market header (banner, comment lines with the optional "%%GraphBLAS type" line,
// size line), and the value rule it implies; shared by the sparse and the dense readers.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "line_reader.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "text_fields.hpp"
#include "weight_check.hpp"

namespace spgraph::io::detail {

// Parses from the first line of `in` and leaves it positioned after the size line. Refuses
// what no reader here supports (complex, hermitian, invalid combinations); the caller checks
// the format it expects.
MatrixMarketHeader parse_matrix_market_header(LineReader& in);

// How a file's values are parsed and range-checked: by the field, narrowed by the declared
// GraphBLAS type.
struct MmValueRule {
  enum class Kind { None, Floating, Signed, Unsigned } kind = Kind::None;
  double float_max = 0;         // Floating: finite values beyond +-float_max are out of range
  std::int64_t lo = 0, hi = 0;  // Signed
  std::uint64_t umax = 0;       // Unsigned
  std::string type_name;        // for messages: "int8_t", or the field's name
  const char* noun;             // what a value is called when it is not finite: "weight", "value"

  explicit MmValueRule(const MatrixMarketHeader& h, const char* noun = "weight");

  // Parses the value field at the cursor; `Lines` is the LineReader or a TextChunk.
  template <class Lines>
  double parse(FieldCursor& f, const Lines& in) const {
    if (kind == Kind::None) return 1.0;
    if (f.at_end()) in.fail("missing value (the file's entries have " + type_name + " values)");
    const FieldCursor at = f;
    std::errc ec{};
    double out = 1.0;
    switch (kind) {
      case Kind::Floating: {
        ec = f.number(out);
        if (ec == std::errc()) check_finite(out, at, in, noun);
        if (ec == std::errc() && std::fabs(out) > float_max) ec = std::errc::result_out_of_range;
        break;
      }
      case Kind::Signed: {
        std::int64_t v = 0;
        ec = f.number(v);
        if (ec == std::errc() && (v < lo || v > hi)) ec = std::errc::result_out_of_range;
        out = static_cast<double>(v);
        break;
      }
      case Kind::Unsigned: {
        std::uint64_t v = 0;
        ec = f.number(v);
        if (ec == std::errc() && v > umax) ec = std::errc::result_out_of_range;
        out = static_cast<double>(v);
        break;
      }
      case Kind::None: break;  // returned above
    }
    if (ec != std::errc()) in.fail(value_refusal(at, ec));
    return out;
  }

  // Why the field at `at` was refused (from_chars's `ec`), kept out of the inlined path.
  std::string value_refusal(const FieldCursor& at, std::errc ec) const;
};

}  // namespace spgraph::io::detail
