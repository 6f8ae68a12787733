// A text graph read by the ranks of a job together (spgraph/io/text_rows.hpp).
//
// The steps, each ending where the ranks agree (a failure on one rank is thrown on all):
//   1. every rank reads the header (Matrix Market: banner, comments, size line) and the checks
//      made before any entry, finds its share of the text after it and counts the share's lines;
//   2. an allgather of the line counts numbers every share's lines as in the whole file, and each
//      rank parses its share with load_graph's parsers (parse_in_parallel over a TextRange);
//   3. an allgather of what each share holds (its entry lines, first edge, largest id, failure)
//      lets every rank judge, in the file's order, what a single process would have reported
//      first: a malformed line, one entry more than the size line declares, too few, an edge
//      whose weight column differs from the first edge's, a vertex count refused;
//   4. the entries go to the ranks that keep their rows (all-to-all), in the file's order (shares
//      are in rank order), where coo_to_csr combines repeats as the one-process reader does; a
//      repeat refused (--duplicates error) is named by the lines of its two entries, found by the
//      ranks that parsed them (on this error path only, each share is parsed again);
//   5. an edge list whose header says undirected is mirrored (mirror_rows).
#include "spgraph/io/text_rows.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include "edge_list_entries.hpp"
#include "entry_lines.hpp"
#include "graph_format.hpp"
#include "inflated_range.hpp"
#include "line_reader.hpp"
#include "matrix_market_entries.hpp"
#include "matrix_market_header.hpp"
#include "parallel_text.hpp"
#include "spgraph/graph_ops.hpp"
#include "text_range.hpp"
#include "vertex_count.hpp"

namespace spgraph::io {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Runs step() on every rank; a failure on any rank is thrown on every rank, with the lowest
// failing rank's message (`doing` names the work where the failure has no message of its own:
// "reading FILE"). A step holds no collective: a rank failing inside one would leave the others
// waiting in it. A failure outside the steps (out of memory in an exchange) is not agreed on: it
// ends the job from the rank it hit (dist::fail_job), which leaves no rank waiting either.
template <class Step>
void together(RankExchange& ex, const std::string& doing, Step&& step) {
  std::string why;
  try {
    step();
  } catch (const std::bad_alloc&) {
    why = "out of host memory " + doing;
  } catch (const std::exception& e) {
    why = *e.what() ? e.what() : "unknown failure " + doing;
  }
  const std::string first = ex.first_failure(why);
  if (!first.empty()) throw AgreedReadError(first);
}

// Every rank's `mine` (the same count each), rank after rank.
std::vector<std::int64_t> gather(RankExchange& ex, const std::vector<std::int64_t>& mine) {
  std::vector<std::int64_t> all(mine.size() * static_cast<std::size_t>(ex.size()));
  ex.allgather(mine, all);
  return all;
}

// The whole file mapped read-only: only the pages a rank touches are read (its share, and the
// line ends at its edges).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) throw Error("cannot read " + path + ": not a regular file");
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ == 0) return;
    void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (m == MAP_FAILED) throw Error("cannot map " + path + ": " + std::strerror(errno));
    map_ = static_cast<const char*>(m);
  }
  ~MappedFile() {
    if (map_) ::munmap(const_cast<char*>(map_), size_);
    if (fd_ >= 0) ::close(fd_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view text() const { return {map_ ? map_ : "", size_}; }

 private:
  int fd_ = -1;
  const char* map_ = nullptr;
  std::size_t size_ = 0;
};

// The first line start at or after `at` (lines start at `begin` and after each newline), found
// in a window of the text that holds the byte before `at` through the newline after it.
std::size_t line_start_from(const detail::TextWindow& text, std::size_t begin, std::size_t at) {
  if (at <= begin) return begin;
  if (at >= text.size) return text.size;
  const std::string_view rest = text.bytes.substr(at - 1 - text.offset);
  const void* nl = std::memchr(rest.data(), '\n', rest.size());
  return nl ? at + static_cast<std::size_t>(static_cast<const char*>(nl) - rest.data()) : text.size;
}

// Which ranks keep which rows: the rows cut where some rank's range begins or ends, each
// segment with the ranks whose range holds it.
// This rank's rows, checked (not collective).
std::pair<std::int64_t, std::int64_t> rows_checked(const RowsOf& rows_of, std::int64_t n) {
  const auto [begin, end] = rows_of(n);
  if (begin < 0 || end < begin || end > n)
    throw Error("read_text_rows: rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") of a graph of " +
                std::to_string(n));
  return {begin, end};
}

class RowHolders {
 public:
  // Collective: `mine` is this rank's rows (rows_checked) of a graph of n.
  RowHolders(RankExchange& ex, std::pair<std::int64_t, std::int64_t> mine, std::int64_t n) {
    const auto [begin, end] = mine;
    const std::vector<std::int64_t> ranges = gather(ex, {begin, end});
    cuts_ = ranges;
    cuts_.push_back(0);
    cuts_.push_back(n);
    std::sort(cuts_.begin(), cuts_.end());
    cuts_.erase(std::unique(cuts_.begin(), cuts_.end()), cuts_.end());
    holders_.resize(cuts_.size());
    for (std::size_t s = 0; s + 1 < cuts_.size(); ++s)
      for (int q = 0; q < ex.size(); ++q)
        if (ranges[2 * std::size_t(q)] <= cuts_[s] && cuts_[s + 1] <= ranges[2 * std::size_t(q) + 1])
          holders_[s].push_back(q);
    mine_ = {begin, end};
  }
  // The ranks that keep row `row`, lowest first.
  const std::vector<int>& of(std::int64_t row) const {
    return holders_[std::size_t(std::upper_bound(cuts_.begin(), cuts_.end(), row) - cuts_.begin() - 1)];
  }
  std::pair<std::int64_t, std::int64_t> mine() const { return mine_; }

 private:
  std::vector<std::int64_t> cuts_;
  std::vector<std::vector<int>> holders_;
  std::pair<std::int64_t, std::int64_t> mine_;
};

// Entries sent to the ranks that keep them: the counts each way, from each entry's ranks
// (to(e), a span of ranks); send() then carries any array of values along, each entry to every
// one of its ranks.
template <class To>
class Routing {
 public:
  Routing(RankExchange& ex, std::size_t entries, To to) : ex_(ex), entries_(entries), to_(std::move(to)) {
    const std::size_t p = std::size_t(ex.size());
    send_counts_.assign(p, 0);
    for (std::size_t e = 0; e < entries; ++e)
      for (const int q : to_(e)) ++send_counts_[std::size_t(q)];
    recv_counts_.assign(p, 0);
    ex.alltoall(send_counts_, recv_counts_);
    send_displs_ = offsets(send_counts_);
    recv_displs_ = offsets(recv_counts_);
  }
  std::size_t received() const { return std::size_t(recv_displs_.back() + recv_counts_.back()); }

  // values[e] (one per entry) to entry e's ranks; what this rank receives, by rank.
  template <class T>
  std::vector<T> send(const std::vector<T>& values) const {
    std::vector<T> out(std::size_t(send_displs_.back() + send_counts_.back()));
    std::vector<std::int64_t> next = send_displs_;
    for (std::size_t e = 0; e < entries_; ++e)
      for (const int q : to_(e)) out[std::size_t(next[std::size_t(q)]++)] = values[e];
    std::vector<T> in(received());
    const auto bytes = [](std::vector<std::int64_t> v) {
      for (auto& x : v) x *= std::int64_t(sizeof(T));
      return v;
    };
    ex_.alltoallv(out.data(), bytes(send_counts_), bytes(send_displs_), in.data(), bytes(recv_counts_),
                  bytes(recv_displs_));
    return in;
  }

 private:
  static std::vector<std::int64_t> offsets(const std::vector<std::int64_t>& counts) {
    std::vector<std::int64_t> d(counts.size(), 0);
    for (std::size_t q = 1; q < counts.size(); ++q) d[q] = d[q - 1] + counts[q - 1];
    return d;
  }
  RankExchange& ex_;
  std::size_t entries_;
  To to_;
  std::vector<std::int64_t> send_counts_, send_displs_, recv_counts_, recv_displs_;
};

// The entries given (rows, cols, values or none) sent to their ranks (to(e), which may read
// mine.row: it is sent last), as an n x m Coo in the order of the ranks that sent them.
template <class To>
Coo<double> send_entries(RankExchange& ex, To to, Coo<double>& mine, std::int64_t n, std::int64_t m, bool valued) {
  Coo<double> got;
  got.nrows = vid_t(n);
  got.ncols = vid_t(m);
  const Routing routing(ex, mine.row.size(), to);
  got.col = routing.send(mine.col);
  std::vector<vid_t>().swap(mine.col);
  if (valued) {
    if (mine.val.size() != mine.row.size()) throw Error("read_text_rows: internal: entries without their values");
    got.val = routing.send(mine.val);
  }
  std::vector<double>().swap(mine.val);
  got.row = routing.send(mine.row);
  return got;
}

// Each entry e to the ranks keeping its row rows[e].
auto to_row_holders(const RowHolders& holders, const std::vector<vid_t>& rows) {
  return [&holders, &rows](std::size_t e) { return std::span<const int>(holders.of(rows[e])); };
}

// ... each to the ranks keeping its row.
Coo<double> send_entries(RankExchange& ex, const RowHolders& holders, Coo<double>&& mine, std::int64_t n,
                         std::int64_t m, bool valued) {
  return send_entries(ex, to_row_holders(holders, mine.row), mine, n, m, valued);
}

// This rank's rows held alone or by a higher rank too counted once: the lowest rank keeping a
// row counts its entries. The sum over the ranks.
eid_t links_of(RankExchange& ex, const RowHolders& holders, const Csr<double>& a) {
  const auto [begin, end] = holders.mine();
  std::int64_t mine = 0;
  for (std::int64_t i = begin; i < end; ++i)
    if (holders.of(i).front() == ex.rank()) mine += a.rowptr[std::size_t(i) + 1] - a.rowptr[std::size_t(i)];
  const std::vector<std::int64_t> all = gather(ex, {mine});
  eid_t total = 0;
  for (const std::int64_t x : all) total += x;
  return total;
}

enum class Format { MatrixMarket, EdgeList };

// What a rank's share held, gathered by every rank (one int64 each).
struct ShareSummary {
  enum Failure : std::int64_t { None = 0, Message = 1, MixedWeights = 2 };
  std::int64_t counted = 0;      // Matrix Market: entry lines counted, a failing one included
  std::int64_t entries = 0;      // Coo entries parsed (mirrors included)
  std::int64_t failure = None;   // Message: its text is this rank's; MixedWeights: at failure_line
  std::int64_t failure_line = 0;
  std::int64_t largest = -1;     // edge lists: the largest id
  std::int64_t fields = 0;       // edge lists: 2 or 3, by the share's first edge (0: no edge)
  std::int64_t first_edge_line = 0;
  std::int64_t says_undirected = 0;  // a comment before the share's first edge says so
  static constexpr std::size_t kFields = 8;
  std::vector<std::int64_t> values() const {
    return {counted, entries, failure, failure_line, largest, fields, first_edge_line, says_undirected};
  }
  static ShareSummary at(const std::vector<std::int64_t>& all, int q) {
    const std::int64_t* v = all.data() + kFields * std::size_t(q);
    return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
  }
};

// An edge unlike the share's first, found by the share's merge; its message needs the file's
// first edge, known once every share is.
struct MixedWeightsAt {
  long long line;
};

// One rank's part of the read: its share and what parsing it gave.
class Share {
 public:
  Share(const std::string& path, const LoadOptions& options, RankExchange& ex)
      : path_(path), options_(options), ex_(ex) {}

  // Step 1: the header, the share, its lines. A gzip stream is inflated whole by every rank,
  // keeping only what its share is cut from (inflated_range.hpp).
  void open() {
    detail::LineReader in(path_);  // the one-process reader's errors for a file it cannot open
    const std::string ext = detail::reader_extension(path_, options_.format);
    format_ = ext == ".mtx" ? Format::MatrixMarket : Format::EdgeList;
    if (format_ == Format::MatrixMarket) {
      header_ = detail::parse_matrix_market_header(in);
      detail::check_before_entries(in, header_,
                                   {.duplicates = options_.duplicates,
                                    .require_nonnegative_weights = options_.require_nonnegative_weights,
                                    .trust_vertex_count = options_.trust_vertex_count});
      header_lines_ = in.line_number();
    }
    std::size_t begin = 0, size = 0;
    if (in.compressed()) {
      detail::InflatedText inflated = detail::measure_inflated(in);
      begin = inflated.begin, size = inflated.size, broken_ = std::move(inflated.broken);
    } else {
      file_ = std::make_unique<MappedFile>(path_);
      size = file_->text().size();
      if (format_ == Format::MatrixMarket) begin = static_cast<std::size_t>(in.text_read());
      else if (file_->text().starts_with(kUtf8Bom)) begin = kUtf8Bom.size();
    }
    const std::size_t rest = size - begin, p = std::size_t(ex_.size()), r = std::size_t(ex_.rank());
    const auto at = [&](std::size_t k) {
      return begin + static_cast<std::size_t>(static_cast<unsigned __int128>(rest) * k / p);
    };
    // Where line_start_from(at(k)) starts looking for a newline.
    const auto probe = [&](std::size_t k) { return at(k) > begin ? at(k) - 1 : begin; };
    if (in.compressed()) inflated_.emplace(path_, header_lines_, probe(r), r + 1 == p ? size : probe(r + 1), size);
    const detail::TextWindow text = inflated_ ? inflated_->window() : detail::TextWindow{file_->text(), 0, size};
    const std::size_t first = line_start_from(text, begin, at(r));
    const std::size_t last = r + 1 == p ? size : line_start_from(text, begin, at(r + 1));
    share_ = text.bytes.substr(first - text.offset, std::max(first, last) - first);
    lines_ = detail::count_lines_in(share_);
  }

  // Step 2: numbered after the lines of the shares before, the share parsed.
  void parse(long long lines_before) {
    lines_before_ = lines_before;
    try {
      coo_ = parse_share();
    } catch (const MixedWeightsAt& m) {
      summary_.failure = ShareSummary::MixedWeights, summary_.failure_line = m.line;
    } catch (const std::bad_alloc&) {
      summary_.failure = ShareSummary::Message, message_ = "out of host memory reading " + path_;
    } catch (const std::exception& e) {
      summary_.failure = ShareSummary::Message, message_ = e.what();
    }
    summary_.entries = std::int64_t(coo_.row.size());
  }

  // Step 3: judged with every share's summary, the failure a single process reports first, if
  // any; its message on every rank ("" for none). Sets what the file as a whole says.
  std::string first_failure(const std::vector<std::int64_t>& all, long long total_lines) {
    const int p = ex_.size();
    std::string mine;
    const auto winner = [&](int q, const std::string& message) {
      if (q == ex_.rank()) mine = message.empty() ? "read_text_rows: internal: a failure without a message" : message;
    };
    bool failed = false;
    std::string broken;  // a broken gzip stream, after any failure before its break: agreed on
    if (format_ == Format::MatrixMarket) {
      const eid_t declared = header_.stored_entries;
      eid_t seen = 0;
      for (int q = 0; q < p && !failed; ++q) {
        const ShareSummary s = ShareSummary::at(all, q);
        if (seen + s.counted > declared) {  // one entry line more than declared: where it is
          failed = true;
          if (q == ex_.rank())
            winner(q, ParseError(path_, lines_before_ + detail::nth_entry_line(share_, declared - seen + 1, "%"),
                                 detail::count_refusal(seen + s.counted, declared, "entries"))
                          .what());
        } else if (s.failure != ShareSummary::None) {
          failed = true;
          winner(q, message_);
        }
        seen += s.counted;
      }
      if (!failed && !(broken = ex_.first_failure(broken_)).empty()) return broken;
      if (!failed && seen != declared)
        return ParseError(path_, total_lines, detail::count_refusal(seen, declared, "entries")).what();
    } else {
      std::int64_t fields = 0, first_edge_line = 0, largest = -1, edges = 0;
      for (int q = 0; q < p && !failed; ++q) {
        const ShareSummary s = ShareSummary::at(all, q);
        if (fields == 0 && s.says_undirected) undirected_ = true;
        if (s.fields != 0 && fields == 0) {
          fields = s.fields, first_edge_line = s.first_edge_line;
        } else if (s.fields != 0 && s.fields != fields) {  // the share's first edge is unlike the file's
          failed = true;
          winner(q, ParseError(path_, s.first_edge_line, detail::mixed_weights_refusal(int(fields), first_edge_line)).what());
          break;
        }
        if (s.failure == ShareSummary::MixedWeights) {
          failed = true;
          winner(q, ParseError(path_, s.failure_line, detail::mixed_weights_refusal(int(fields), first_edge_line)).what());
        } else if (s.failure == ShareSummary::Message) {
          failed = true;
          winner(q, message_);
        }
        largest = std::max(largest, s.largest);
        edges += s.entries;
      }
      if (!failed && !(broken = ex_.first_failure(broken_)).empty()) return broken;
      if (!failed) {
        largest_ = vid_t(largest);
        valued_ = fields == 3;
        if (!options_.trust_vertex_count && !detail::vertex_count_justified(std::int64_t(largest) + 1, edges))
          return ParseError(path_, 0, detail::vertex_count_reason(vid_t(largest), edges)).what();
      }
    }
    return ex_.first_failure(mine);
  }

  Format format() const { return format_; }
  long long header_lines() const { return header_lines_; }
  const MatrixMarketHeader& header() const { return header_; }
  long long lines() const { return lines_; }
  const ShareSummary& summary() const { return summary_; }
  bool valued() const { return format_ == Format::MatrixMarket ? header_.field != MmField::Pattern : valued_; }
  bool undirected() const { return undirected_; }
  std::int64_t rows() const { return format_ == Format::MatrixMarket ? header_.nrows : std::int64_t(largest_) + 1; }
  std::int64_t cols() const { return format_ == Format::MatrixMarket ? header_.ncols : std::int64_t(largest_) + 1; }
  Coo<double> take_entries() { return std::move(coo_); }

  // The error path of a refused repeat: the share parsed again, as the first time.
  Coo<double> parse_again() { return parse_share(); }
  const std::string& path() const { return path_; }

  // Where the entry at `position` of this share's Coo (as parse_again gives it) came from.
  detail::EntryOrigin origin(const Coo<double>& coo, eid_t position) const {
    const bool mirrored = format_ == Format::MatrixMarket && header_.symmetry != MmSymmetry::General;
    eid_t line_entries = 0, k = 0;  // the entry line of `position`, counting from 0
    bool mirror = false;
    while (k < position) {
      const eid_t step = mirrored && coo.row[std::size_t(k)] != coo.col[std::size_t(k)] ? 2 : 1;
      if (k + step > position) {
        mirror = true;
        break;
      }
      k += step;
      ++line_entries;
    }
    const char* comments = format_ == Format::MatrixMarket ? "%" : "#%";
    return {lines_before_ + detail::nth_entry_line(share_, line_entries + 1, comments), mirror};
  }

 private:
  Coo<double> parse_share() {
    detail::TextRange range(path_, share_, lines_before_);
    Coo<double> coo;
    summary_ = ShareSummary{};
    if (format_ == Format::MatrixMarket) {
      const detail::MmEntryParser parser(header_, options_.require_nonnegative_weights);
      auto check = [&](const detail::Piece<detail::MmEntryPart>& piece, long long) {
        summary_.counted += piece.part.entries + (piece.failure ? 1 : 0);
      };
      detail::parse_in_parallel<detail::MmEntryPart>(range, coo, parser, check);
      return coo;
    }
    // read_edge_list's merge, against the share's first edge (the file's is not known yet).
    auto check = [&](const detail::Piece<detail::EdgePart>& piece, long long first_line) {
      const detail::EdgePart& part = piece.part;
      if (summary_.fields == 0 && part.says_undirected) summary_.says_undirected = 1;
      if (summary_.fields == 0 && part.fields != 0) {
        summary_.fields = part.fields;
        summary_.first_edge_line = first_line - 1 + part.first_edge_line;
      } else if (part.fields != 0 && part.fields != summary_.fields) {
        throw MixedWeightsAt{first_line - 1 + part.first_edge_line};
      }
      if (part.mixed_weights) throw MixedWeightsAt{first_line - 1 + piece.failure->line};
      summary_.largest = std::max<std::int64_t>(summary_.largest, part.largest);
    };
    auto parse = [&](detail::TextChunk& lines, detail::EdgePart& part) {
      detail::parse_edges(lines, part, options_.require_nonnegative_weights);
    };
    detail::parse_in_parallel<detail::EdgePart>(range, coo, parse, check);
    return coo;
  }

  const std::string& path_;
  const LoadOptions& options_;
  RankExchange& ex_;
  Format format_ = Format::EdgeList;
  MatrixMarketHeader header_;
  std::unique_ptr<MappedFile> file_;
  std::optional<detail::InflatedRange> inflated_;
  std::string_view share_;
  std::string broken_;  // where a gzip stream breaks, the one-process reader's error ("" if whole)
  long long header_lines_ = 0, lines_ = 0, lines_before_ = 0;
  Coo<double> coo_;
  ShareSummary summary_;
  std::string message_;
  vid_t largest_ = -1;
  bool valued_ = false, undirected_ = false;
};

// The error of a repeat that coo_to_csr refused on some rank (`mine`, where it refused one
// here): the earliest repeat of the file, named by the lines of its two entries. Collective.
[[noreturn]] void throw_duplicate(RankExchange& ex, Share& share, const RowHolders& holders,
                                  const std::vector<std::int64_t>& entries_before,
                                  const std::optional<DuplicateEntryError>& mine) {
  // Each entry's position in the whole file's Coo, sent along as the entries were.
  const Coo<double> coo = share.parse_again();
  std::vector<std::int64_t> positions(coo.row.size());
  for (std::size_t k = 0; k < positions.size(); ++k) positions[k] = entries_before[std::size_t(ex.rank())] + std::int64_t(k);
  const std::vector<std::int64_t> got = Routing(ex, coo.row.size(), to_row_holders(holders, coo.row)).send(positions);
  std::vector<std::int64_t> repeat = {0, 0, 0, 0, 0};  // found, second, first, row, col
  if (mine) repeat = {1, got[std::size_t(mine->second_position)], got[std::size_t(mine->first_position)], mine->row, mine->col};
  const std::vector<std::int64_t> all = gather(ex, repeat);
  std::size_t w = 0;
  bool found = false;
  for (std::size_t q = 0; q < std::size_t(ex.size()); ++q)
    if (all[5 * q] && (!found || all[5 * q + 1] < all[5 * w + 1])) w = q, found = true;
  const std::int64_t second = all[5 * w + 1], first = all[5 * w + 2];
  const vid_t row = vid_t(all[5 * w + 3]), col = vid_t(all[5 * w + 4]);
  // The ranks that parsed the two entries name their lines.
  const std::int64_t begin = entries_before[std::size_t(ex.rank())], end = begin + std::int64_t(coo.row.size());
  std::vector<std::int64_t> origins(4, 0);  // first's line and mirror, second's
  for (int k = 0; k < 2; ++k) {
    const std::int64_t position = k == 0 ? first : second;
    if (position < begin || position >= end) continue;
    const detail::EntryOrigin o = share.origin(coo, position - begin);
    origins[2 * std::size_t(k)] = o.line, origins[2 * std::size_t(k) + 1] = o.mirror;
  }
  const std::vector<std::int64_t> all_origins = gather(ex, origins);
  std::vector<std::int64_t> found_origins(4, 0);
  for (std::size_t q = 0; q < std::size_t(ex.size()); ++q)
    for (std::size_t k = 0; k < 4; ++k) found_origins[k] = std::max(found_origins[k], all_origins[4 * q + k]);
  const detail::EntryOrigin first_at{found_origins[0], found_origins[1] != 0};
  const detail::EntryOrigin second_at{found_origins[2], found_origins[3] != 0};
  const std::string& path = share.path();
  if (share.format() == Format::MatrixMarket)
    throw AgreedReadError(ParseError(path, second_at.line, detail::duplicate_entry_reason(row, col, first_at, second_at)).what());
  throw AgreedReadError(
      ParseError(path, second_at.line, detail::duplicate_edge_reason(std::to_string(row), std::to_string(col), first_at.line))
          .what());
}

}  // namespace

std::string text_rows_refusal(const std::string& path, const LoadOptions& options) {
  const std::string ext = detail::reader_extension(path, options.format);
  if (ext == ".spgcsr") return "a .spgcsr cache is read by rows (read_csr_cache_rows), not as text";
  if (ext == ".abc") return "an .abc label file numbers its vertices by first appearance over the whole file";
  if (ext != ".mtx" && options.compact_ids)
    return "--compact-ids numbers the vertices by first appearance over the whole file";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";  // read_text_rows reports it
  if (!S_ISREG(st.st_mode)) return "it is not a regular file, whose bytes could be shared out";
  return "";
}

LoadedGraph read_text_rows(const std::string& path, const LoadOptions& options, const RowsOf& rows_of,
                           RankExchange& ex) {
  Share share(path, options, ex);
  const std::string reading = "reading " + path;
  together(ex, reading, [&] {
    const std::string why = text_rows_refusal(path, options);
    if (!why.empty()) throw Error("read_text_rows: " + path + " must be read whole: " + why);
    share.open();
  });
  // The shares' lines, for the file's line numbers.
  const std::vector<std::int64_t> lines = gather(ex, {share.lines()});
  long long before = share.header_lines(), total = share.header_lines();
  for (int q = 0; q < ex.size(); ++q) {
    if (q < ex.rank()) before += lines[std::size_t(q)];
    total += lines[std::size_t(q)];
  }
  share.parse(before);
  const std::vector<std::int64_t> summaries = gather(ex, share.summary().values());
  if (const std::string why = share.first_failure(summaries, total); !why.empty()) throw AgreedReadError(why);

  const std::int64_t n = share.rows(), m = share.cols();
  std::vector<std::int64_t> entries_before(std::size_t(ex.size()) + 1, 0);
  for (int q = 0; q < ex.size(); ++q)
    entries_before[std::size_t(q) + 1] = entries_before[std::size_t(q)] + ShareSummary::at(summaries, q).entries;
  std::pair<std::int64_t, std::int64_t> mine;
  together(ex, reading, [&] { mine = rows_checked(rows_of, n); });
  const RowHolders holders(ex, mine, n);
  Coo<double> got = send_entries(ex, holders, share.take_entries(), n, m, share.valued());
  LoadedGraph g;
  std::optional<DuplicateEntryError> repeat;
  together(ex, reading, [&] {
    try {
      g.matrix = coo_to_csr(std::move(got), options.duplicates);
    } catch (const DuplicateEntryError& e) {
      repeat = e;
    }
  });
  const std::vector<std::int64_t> repeats = gather(ex, {repeat ? 1 : 0});
  if (std::find(repeats.begin(), repeats.end(), 1) != repeats.end())
    throw_duplicate(ex, share, holders, entries_before, repeat);
  if (share.format() == Format::MatrixMarket) {
    g.id_base = 1;
    g.format = "matrix-market";
  } else {
    g.format = "edge-list";
  }
  g.file_links = links_of(ex, holders, g.matrix);
  if (share.format() == Format::EdgeList && share.undirected() && options.mirror_undirected) {
    mirror_rows(g, rows_of, ex);
    g.mirrored = true;
  }
  return g;
}

void mirror_rows(LoadedGraph& graph, const RowsOf& rows_of, RankExchange& ex) {
  const Csr<double>& a = graph.matrix;
  const std::string doing = "mirroring the links";
  std::pair<std::int64_t, std::int64_t> mine;
  together(ex, doing, [&] {
    if (a.nrows != a.ncols)
      throw Error("cannot mirror the links of a " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) +
                  " matrix: it must be square");
    mine = rows_checked(rows_of, a.nrows);
  });
  const RowHolders holders(ex, mine, a.nrows);
  // The reverse (j, i) of each link of the rows this rank is the lowest to keep (so that each
  // is sent once), to the ranks keeping row j; then with the rows' own links, a pair given both
  // ways merged into the larger weight.
  const std::vector<std::int64_t> values = gather(ex, {a.val.empty() ? 0 : 1});
  const bool valued = std::find(values.begin(), values.end(), 1) != values.end();  // on some rank
  Coo<double> reverse;
  for (std::int64_t i = mine.first; i < mine.second; ++i) {
    if (holders.of(i).front() != ex.rank()) continue;
    for (eid_t k = a.rowptr[std::size_t(i)]; k < a.rowptr[std::size_t(i) + 1]; ++k) {
      reverse.row.push_back(a.col[std::size_t(k)]);
      reverse.col.push_back(vid_t(i));
      if (valued) reverse.val.push_back(a.val[std::size_t(k)]);
    }
  }
  const Coo<double> got = send_entries(ex, holders, std::move(reverse), a.nrows, a.ncols, valued);
  Coo<double> both = csr_to_coo(a);
  both.row.insert(both.row.end(), got.row.begin(), got.row.end());
  both.col.insert(both.col.end(), got.col.begin(), got.col.end());
  both.val.insert(both.val.end(), got.val.begin(), got.val.end());
  graph.matrix = coo_to_csr(std::move(both), Duplicates::Max);
  graph.file_links = links_of(ex, holders, graph.matrix);
}

void keep_entries(LoadedGraph& graph, const EntryKeeper& keeper, RankExchange& ex) {
  if (ex.size() == 1) return;  // every entry is kept where it is
  const std::string doing = "sending the entries to the ranks that keep them";
  const std::int64_t n = graph.matrix.nrows, m = graph.matrix.ncols;
  const std::vector<std::int64_t> values = gather(ex, {graph.matrix.val.empty() ? 0 : 1});
  const bool valued = std::find(values.begin(), values.end(), 1) != values.end();  // on some rank
  Coo<double> mine;
  std::vector<int> keeping;  // each entry's rank
  together(ex, doing, [&] {
    mine = csr_to_coo(graph.matrix);
    graph.matrix = Csr<double>{};
    keeping.resize(mine.row.size());
    for (std::size_t e = 0; e < keeping.size(); ++e) {
      keeping[e] = keeper(mine.row[e], mine.col[e]);
      if (keeping[e] < 0 || keeping[e] >= ex.size())
        throw Error("keep_entries: entry (" + std::to_string(mine.row[e]) + ", " + std::to_string(mine.col[e]) +
                    ") given to rank " + std::to_string(keeping[e]) + " of " + std::to_string(ex.size()));
    }
  });
  Coo<double> got = send_entries(
      ex, [&](std::size_t e) { return std::span<const int>(&keeping[e], 1); }, mine, n, m, valued);
  together(ex, doing, [&] { graph.matrix = coo_to_csr(std::move(got)); });
}

}  // namespace spgraph::io
