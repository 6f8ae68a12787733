#include "inflated_range.hpp"

#include <algorithm>
#include <cstring>

#include "parallel_text.hpp"
#include "text_range.hpp"

namespace spgraph::io::detail {

InflatedText measure_inflated(LineReader& in) {
  InflatedText text;
  bool started = false;
  for (;;) {
    std::string_view block;
    try {
      block = in.next_block(parse_block_bytes());
    } catch (const ParseError& e) {  // where the one-process reader stops too, with its line
      text.broken = e.what();
      break;
    }
    if (!started) text.begin = in.text_read() - block.size(), started = true;
    if (block.empty()) break;
    in.count_lines(count_lines_in(block));
  }
  text.size = in.text_read();
  if (!started) text.begin = text.size;
  return text;
}

InflatedRange::InflatedRange(const std::string& path, long long header_lines, std::size_t from,
                             std::size_t newline_from, std::size_t size)
    : from_(from), size_(size) {
  // The header read line by line, then blocks as the first pass took them: the stream is
  // inflated in the same steps, so that it breaks (if it does) past `size` again.
  LineReader in(path);
  std::string_view line;
  for (long long read = 0; read < header_lines && in.next(line);) ++read;
  kept_.reserve(newline_from - from);
  for (bool done = false; !done && in.text_read() < size;) {
    const std::string_view block = in.next_block(parse_block_bytes());
    if (block.empty()) break;
    const std::size_t end = in.text_read(), start = end - block.size();
    if (end <= from) continue;
    std::size_t stop = block.size();
    if (newline_from < end) {
      const std::size_t at = std::max(newline_from, start) - start;
      if (const void* nl = std::memchr(block.data() + at, '\n', block.size() - at)) {
        stop = static_cast<std::size_t>(static_cast<const char*>(nl) - block.data()) + 1;
        done = true;
      }
    }
    const std::size_t keep_from = from > start ? from - start : 0;
    kept_.append(block.substr(keep_from, stop - keep_from));
  }
}

}  // namespace spgraph::io::detail
