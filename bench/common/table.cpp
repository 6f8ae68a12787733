#include "table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "cusparse_check.hpp"
#include "spgraph/error.hpp"

namespace spgraph::bench {
namespace {

bool reads_as_number(const std::string& s) {
  if (s.empty() || s == "-") return true;
  char c = s[0];
  return std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+' || c == '.') && s.size() > 1);
}

std::string printf_string(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace

Table::Table(std::vector<std::string> header) : header_(std::move(header)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() > header_.size())
    throw Error("table row has " + std::to_string(cells.size()) + " cells for " +
                std::to_string(header_.size()) + " columns");
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

void Table::add_gap() { rows_.emplace_back(); }

void Table::print(std::ostream& out) const {
  std::size_t ncols = header_.size();
  std::vector<std::size_t> width(ncols);
  std::vector<bool> right(ncols, true);
  for (std::size_t c = 0; c < ncols; ++c) {
    width[c] = header_[c].size();
    bool any = false;
    for (const auto& row : rows_) {
      if (row.empty()) continue;
      width[c] = std::max(width[c], row[c].size());
      if (!row[c].empty()) any = true;
      if (!reads_as_number(row[c])) right[c] = false;
    }
    if (!any) right[c] = false;
  }
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < ncols; ++c) {
      std::string pad(width[c] - row[c].size(), ' ');
      line += right[c] ? pad + row[c] : row[c] + pad;
      if (c + 1 < ncols) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  };
  print_row(header_);
  // A long message in the last column need not stretch the rule across the screen.
  out << std::string(std::min<std::size_t>(total > 2 ? total - 2 : 0, 120), '-') << '\n';
  for (const auto& row : rows_) {
    if (row.empty()) out << '\n';
    else print_row(row);
  }
  out.flush();
}

std::string fixed(double value, int decimals) {
  if (std::isnan(value) || value < 0) return "-";
  char format[16];
  std::snprintf(format, sizeof format, "%%.%df", decimals);
  return printf_string(format, value);
}

std::string times(double ratio) { return std::isnan(ratio) || ratio <= 0 ? "-" : printf_string("%.2fx", ratio); }

std::string percent(double fraction) {
  return std::isnan(fraction) || fraction < 0 ? "-" : printf_string("%.1f%%", 100 * fraction);
}

std::string gib(std::size_t bytes) {
  double mib = bytes / double(1 << 20);
  return mib >= 1024 ? printf_string("%.2f GiB", mib / 1024) : printf_string("%.1f MiB", mib);
}

std::string count(long long n) {
  double a = std::fabs(double(n));
  if (a >= 1e9) return printf_string("%.2fG", n / 1e9);
  if (a >= 1e6) return printf_string("%.1fM", n / 1e6);
  if (a >= 1e5) return printf_string("%.0fK", n / 1e3);
  return std::to_string(n);
}

std::string scientific(double value) { return printf_string("%.2g", value); }

std::string failure(const std::exception& e) {
  if (auto* c = dynamic_cast<const device::CusparseError*>(&e))
    return std::string("failed: ") + c->status_name() + " in " + c->function();
  std::string message = e.what();
  return "failed: " + message.substr(0, message.find('\n'));
}

}  // namespace spgraph::bench
