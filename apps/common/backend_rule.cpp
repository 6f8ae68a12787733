#include "backend_rule.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "spgraph/error.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::apps {
namespace {

constexpr std::int64_t kTextBytesPerLink = 12;  // "12345\t67890\n": SNAP's files hold 10 to 15
constexpr std::int64_t kGzipBytesPerLink = 3;   // the same gzip-compressed: 2.5 to 3

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A .spgcsr's stored links from its header (csr_cache.hpp's layout: the magic, then nnz at
// byte 32); -1 when the file is not one.
std::int64_t cache_links(const std::string& path) {
  unsigned char header[40];
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return -1;
  if (std::memcmp(header, "SPGCSR\r\n", 8) != 0) return -1;
  std::int64_t nnz = 0;
  for (int i = 7; i >= 0; --i) nnz = (nnz << 8) | header[32 + i];  // little-endian
  return nnz >= 0 ? nnz : -1;
}

// Links from a Matrix Market size line (both halves of a symmetric file); -1 when it cannot be
// read.
std::int64_t matrix_market_links(const std::string& path) {
  try {
    const io::MatrixMarketHeader h = io::read_matrix_market_header(path);
    return h.symmetry == io::MmSymmetry::General ? h.stored_entries : 2 * h.stored_entries;
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

std::string with_thousands(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::int64_t table_threshold(std::string_view app) {
  for (const GpuThreshold& row : kGpuThresholds)
    if (row.app == app) return row.links;
  return 0;
}

Threshold gpu_threshold(std::string_view app) {
  const char* value = std::getenv(kGpuThresholdVariable);
  if (!value) return {table_threshold(app), false};
  const std::string text = value;
  const bool digits = !text.empty() && text.size() <= 18 &&
                      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits)
    throw Error(std::string(kGpuThresholdVariable) + "=" + text +
                ": expected a number of links, from which --backend auto runs on the GPU (0: whenever one is usable)");
  return {std::stoll(text), true};
}

SizeDecision decide_by_size(std::string_view app, std::int64_t links, const Threshold& threshold) {
  SizeDecision d;
  d.gpu = links >= threshold.links;
  d.reason = with_thousands(links) + (links == 1 ? " link is " : " links is ") +
             (d.gpu ? "at or above " : "below ");
  if (threshold.from_environment)
    d.reason += "the GPU threshold of " + with_thousands(threshold.links) + " (" + kGpuThresholdVariable + ")";
  else
    d.reason += std::string(app) + "'s GPU threshold of " + with_thousands(threshold.links);
  return d;
}

std::int64_t estimate_links(const InputOptions& input) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(input.path, ec);
  if (ec) return 0;
  std::string name = lower(fs::path(input.path).filename().string());
  const bool gz = name.ends_with(".gz");
  if (gz) name.resize(name.size() - 3);
  io::GraphFormat format = input.load.format;
  if (format == io::GraphFormat::ByName) {
    format = name.ends_with(".mtx")      ? io::GraphFormat::MatrixMarket
             : name.ends_with(".spgcsr") ? io::GraphFormat::Cache
             : name.ends_with(".abc")    ? io::GraphFormat::Abc
                                         : io::GraphFormat::EdgeList;
  }
  std::int64_t links = -1;
  if (format == io::GraphFormat::Cache && !gz) links = cache_links(input.path);
  if (format == io::GraphFormat::MatrixMarket) links = matrix_market_links(input.path);
  if (links < 0) links = static_cast<std::int64_t>(bytes) / (gz ? kGzipBytesPerLink : kTextBytesPerLink);
  return input.undirected && links <= std::numeric_limits<std::int64_t>::max() / 2 ? 2 * links : links;
}

}  // namespace spgraph::apps
