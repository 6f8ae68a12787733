#pragma once
// The entry lines of a Matrix Market coordinate file, for the readers that parse them: the
// whole-file reader (read_matrix_market) and a rank's share of the file (text_rows.cpp). Both
// parse with the same parser and check with the same rules, so their results and errors agree.
#include <string>
#include <string_view>
#include <vector>

#include "line_reader.hpp"
#include "matrix_market_header.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "text_chunk.hpp"

namespace spgraph::io::detail {

// Before any entry is read (the reader positioned after the size line): refuses a dense file, a
// size line declaring more entries than the rest of the file can hold, and a vertex count the
// entries do not justify (unless options.trust_vertex_count). ParseError naming the line.
void check_before_entries(const LineReader& in, const MatrixMarketHeader& h, const MatrixMarketOptions& options);

// One thread's entries (parallel_text.hpp), mirrors included.
struct MmEntryPart {
  std::vector<vid_t> row, col;
  std::vector<double> val;
  eid_t entries = 0;  // entry lines parsed

  void clear() {  // keeps the capacity for the next block
    row.clear(), col.clear(), val.clear();
    entries = 0;
  }
  // At most one entry a 4 bytes ("1 1\n"; a value a 6, "1 1 1\n"), two with its mirror:
  // reserved once, so the part never grows by copies (unused pages are never touched).
  void reserve(std::size_t bytes) { row.reserve(bytes / 2), col.reserve(bytes / 2), val.reserve(bytes / 3); }
};

// Parses every entry line of a piece into part (0-based; a symmetric file's off-diagonal
// entries followed by their mirrors, a skew-symmetric one's negated), checking each line: the
// Parse of parse_in_parallel.
class MmEntryParser {
 public:
  MmEntryParser(const MatrixMarketHeader& h, bool require_nonnegative_weights);
  void operator()(TextChunk& lines, MmEntryPart& part) const;

 private:
  MatrixMarketHeader h;
  MmValueRule rule;
  bool valued, mirrored, check_weights;
  double mirror_sign;
};

// "file ends after 3 of the 5 entries the size line declares" (seen < declared), or "more
// entries than the 5 the size line declares".
std::string count_refusal(eid_t seen, eid_t declared, const char* what);

// Where an entry of the Coo came from: its line, and whether it is the mirror of that line's
// entry (symmetric files).
struct EntryOrigin {
  long long line = 0;
  bool mirror = false;
};
// The reason of the ParseError (at second.line) for a repeated entry (row, col), 0-based.
std::string duplicate_entry_reason(vid_t row, vid_t col, EntryOrigin first, EntryOrigin second);

}  // namespace spgraph::io::detail
