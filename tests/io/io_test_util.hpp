#pragma once
// Scratch files for the io tests: a private temporary folder removed afterwards, and helpers
// that write text (optionally gzip-compressed) into it.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "spgraph-io-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

  // Writes `text` to name (gzip-compressed when the name ends in ".gz") and returns the path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = path(name);
    if (p.ends_with(".gz")) {
      gzFile gz = gzopen(p.c_str(), "wb");
      EXPECT_NE(gz, nullptr);
      EXPECT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
      EXPECT_EQ(gzclose(gz), Z_OK);
    } else {
      std::ofstream(p, std::ios::binary) << text;
    }
    return p;
  }

 private:
  std::filesystem::path dir_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// Dense view of a small CSR (0 where absent, 1 for pattern entries), for whole-matrix checks.
template <class V>
std::vector<std::vector<double>> dense(const Csr<V>& a) {
  std::vector<std::vector<double>> d(a.nrows, std::vector<double>(a.ncols, 0.0));
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) d[i][a.col[p]] = a.is_pattern() ? 1.0 : a.val[p];
  return d;
}

// Runs `f`, expects a ParseError, and returns its message ("" and a failure otherwise).
template <class F>
std::string parse_error_of(F&& f) {
  try {
    f();
  } catch (const ParseError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a ParseError, got: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected a ParseError, nothing was thrown";
  return "";
}

}  // namespace spgraph::test
