// Every file in datasets/malformed must be refused with "FILE:LINE: reason" (no crash, no
// other exception type), and several with the specific reason.
#include <filesystem>
#include <regex>

#include "io_test_util.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;

TEST(Malformed, EveryFileIsRejectedWithFileLineAndReason) {
  const std::filesystem::path dir = test::dataset("malformed");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    const std::string msg = parse_error_of([&] { load_graph(path); });
    // The path, a line number >= 1, then a reason of some length.
    const std::regex form(std::regex_replace(path, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                          ":[1-9][0-9]*: .{10,}");
    EXPECT_TRUE(std::regex_match(msg, form)) << msg;
    ++files;
  }
  EXPECT_EQ(files, 26);
}

struct Expected {
  const char* file;
  const char* message;  // after "<path>:"
};

TEST(Malformed, SpecificReasons) {
  const Expected cases[] = {
      {"complex.mtx", "1: complex matrices are not supported"},
      {"mangled15.mtx", "2: complex matrices are not supported (declared GraphBLAS type 'float complex')"},
      {"mangled16.mtx", "2: complex matrices are not supported (declared GraphBLAS type 'double complex')"},
      {"mangled1.mtx", "1: unsupported object 'mangled' (only 'matrix' is supported)"},
      {"mangled2.mtx", "1: unknown format 'mangled' (expected 'coordinate' or 'array')"},
      {"mangled3.mtx", "1: unknown field 'mangled' (expected 'real', 'integer' or 'pattern')"},
      {"mangled4.mtx", "1: unknown symmetry 'mangled' (expected 'general', 'symmetric' or 'skew-symmetric')"},
      {"mangled5.mtx", "1: hermitian matrices are not supported"},
      {"mangled7.mtx", "2: unknown GraphBLAS type 'gunk'"},
      {"mangled8.mtx", "4: the size line must be '<rows> <columns> <entries>'; found '3'"},
      {"mangled9.mtx", "4: a symmetric matrix must be square; the size line says 3 x 4"},
      // Truncated: too short for its declared entries, which is found before reading them.
      {"mangled10.mtx", "4: the size line declares 3 entries, but the remaining 16 bytes of the file can hold at most 2"},
      {"mangled11.mtx", "5: expected a column index, found 'zero'"},
      {"mangled12.mtx", "5: missing value (the file's entries have double values)"},
      {"mangled13.mtx", "7: column index 9999 out of range 1..4"},
      {"mangled14.mtx", "8: duplicate entry (2, 2) (1-based), first given at line 7"},
      {"mangled_bool.mtx", "10: value '2' is out of range for bool"},
      {"mangled_int8.mtx", "8: value '-129' is out of range for int8_t"},
      {"mangled_int16.mtx", "8: value '-32769' is out of range for int16_t"},
      {"mangled_int32.mtx", "8: value '-2147483649' is out of range for int32_t"},
      {"mangled_uint8.mtx", "9: value '256' is out of range for uint8_t"},
      {"mangled_uint16.mtx", "9: value '65536' is out of range for uint16_t"},
      {"mangled_uint32.mtx", "9: value '4294967296' is out of range for uint32_t"},
      {"mangled_skew.mtx", "2: a skew-symmetric matrix cannot have the unsigned type uint8_t"},
      {"mangled_format.mtx", "1: 'array pattern' is not a valid Matrix Market combination"},
  };
  for (const Expected& c : cases) {
    const std::string path = test::dataset(std::string("malformed/") + c.file);
    SCOPED_TRACE(path);
    const std::string msg = parse_error_of([&] { read_matrix_market(path); });
    EXPECT_EQ(msg.rfind(path + ":" + c.message, 0), 0u) << msg;
  }
}

}  // namespace
}  // namespace spgraph::io
