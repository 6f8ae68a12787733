#pragma once
// Splitting a line into fields and converting them with std::from_chars: the inner loop of
// every text reader, kept inline so it compiles into the caller's loop.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace spgraph::io::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Input text quoted for an error message, the one way every reader quotes: 'text' when it is
// at most kQuoteLimit bytes, else its first kQuoteLimit bytes (cut back to a UTF-8 character
// boundary) as 'prefix...' followed by " (N bytes)", so that a junk line of any length
// (up to the line reader's 256 MiB) gives a message of a readable length.
inline constexpr std::size_t kQuoteLimit = 80;
inline std::string quote(std::string_view text) {
  if (text.size() <= kQuoteLimit) return "'" + std::string(text) + "'";
  std::size_t cut = kQuoteLimit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return "'" + std::string(text.substr(0, cut)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

// Walks the fields of one line. Fields are separated by spaces and tabs, and, when
// allow_comma, by a single comma with optional blanks around it.
class FieldCursor {
 public:
  FieldCursor(std::string_view line, bool allow_comma = false)
      : p_(line.data()), e_(line.data() + line.size()), comma_(allow_comma) {
    skip_blanks();
  }

  bool at_end() const { return p_ == e_; }
  std::string_view rest() const { return {p_, static_cast<std::size_t>(e_ - p_)}; }

  // The next field as text (for labels and for error messages).
  std::string_view token() {
    const char* b = p_;
    while (p_ < e_ && !is_blank(*p_) && !(comma_ && *p_ == ',')) ++p_;
    std::string_view t(b, static_cast<std::size_t>(p_ - b));
    skip_separator();
    return t;
  }

  // Parses the next field as a whole number or a floating-point value. On failure the cursor
  // is unchanged and the result says why (invalid_argument: not a number / trailing text,
  // result_out_of_range: does not fit T).
  template <class T>
  std::errc number(T& out) {
    const char* b = p_;
    if constexpr (std::is_floating_point_v<T>) {
      if (b < e_ && *b == '+' && b + 1 < e_ && b[1] != '-') ++b;  // from_chars rejects '+'
    }
    auto [ptr, ec] = std::from_chars(b, e_, out);
    if (ec == std::errc() && ptr < e_ && !is_blank(*ptr) && !(comma_ && *ptr == ','))
      ec = std::errc::invalid_argument;  // "12abc", "1.5" read as an integer
    if (ec != std::errc()) return ec;
    p_ = ptr;
    skip_separator();
    return ec;
  }

  // Parses the next field as a non-negative decimal integer of at most 18 digits, without
  // from_chars's generality: vertex ids are the bulk of every file. Same contract as
  // number(); more digits are result_out_of_range.
  std::errc index(std::int64_t& out) {
    const char* q = p_;
    std::uint64_t v = 0;  // unsigned: wraps harmlessly past 18 digits, which are refused below
    while (q < e_ && static_cast<unsigned char>(*q - '0') < 10) v = v * 10 + static_cast<unsigned>(*q++ - '0');
    const auto n = q - p_;
    if (n == 0 || (q < e_ && !is_blank(*q) && !(comma_ && *q == ','))) return std::errc::invalid_argument;
    if (n > 18) return std::errc::result_out_of_range;
    out = static_cast<std::int64_t>(v);
    p_ = q;
    skip_separator();
    return std::errc();
  }

  // The field at the cursor, quoted (and cut) for an error message.
  std::string peek_quoted() const {
    const char* q = p_;
    while (q < e_ && !is_blank(*q) && !(comma_ && *q == ',')) ++q;
    return quote(std::string_view(p_, static_cast<std::size_t>(q - p_)));
  }

 private:
  void skip_blanks() {
    while (p_ < e_ && is_blank(*p_)) ++p_;
  }
  void skip_separator() {
    skip_blanks();
    if (comma_ && p_ < e_ && *p_ == ',') {
      ++p_;
      skip_blanks();
    }
  }

  const char* p_;
  const char* e_;
  bool comma_;
};

// True for lines a reader skips: empty, blanks only, or starting with one of `comment_chars`.
inline bool is_blank_or_comment(std::string_view line, std::string_view comment_chars) {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  return i == line.size() || comment_chars.find(line[i]) != std::string_view::npos;
}

}  // namespace spgraph::io::detail
