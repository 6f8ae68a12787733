// A load that does not fit the memory the process may take (issue 41): the reader names the
// file, what it was allocating and how many bytes, instead of std::bad_alloc's bare text. Each
// case runs in a child process (a death test, re-executed so that no thread of this one is
// copied into it) whose address space is capped at 1 GiB above what it uses: a graph declared
// with 2^31 - 1 vertices (--trust-vertex-count) then asks for 16 GiB of CSR arrays and fails
// at once, whatever memory the machine has, touching none of it.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "io_test_util.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

// This process's address space now (VmSize), in bytes; 0 if unknown.
std::uint64_t address_space_used() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmSize:")) return std::strtoull(line.c_str() + 7, nullptr, 10) * 1024;
  return 0;
}

// In the child: caps the address space, loads `path`, and exits 0 after printing the Error's
// message on stderr (1 when nothing fails, 2 for any other exception).
[[noreturn]] void load_under_a_cap(const std::string& path, const LoadOptions& options) {
  const rlim_t cap = address_space_used() + (rlim_t{1} << 30);
  const rlimit limit{cap, cap};
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(3);
  try {
    load_graph(path, options);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::_Exit(0);
  } catch (...) {
    std::_Exit(2);
  }
  std::_Exit(1);
}

// `text` as an extended regular expression matches it: "(", ")", "." escaped.
std::string literally(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string("()[].*+?^$|\\{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

class HostMemory : public testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

constexpr const char* kCsrOf2To31 =
    ": out of host memory allocating 16.0 GiB (17179869188 bytes) for the CSR arrays of 2147483647 vertices and 1 "
    "entry";

TEST_F(HostMemory, EdgeListNamesTheFileTheArraysAndTheBytes) {
  TempDir tmp;  // a folder of its own in the child, which runs this test again
  const std::string name = "huge.txt", path = tmp.write(name, "0 2147483646\n");
  EXPECT_EXIT(load_under_a_cap(path, {.trust_vertex_count = true}), testing::ExitedWithCode(0),
              literally(name + kCsrOf2To31));
}

TEST_F(HostMemory, MatrixMarketNamesTheFileTheArraysAndTheBytes) {
  TempDir tmp;
  const std::string name = "huge.mtx",
                    path = tmp.write(name, "%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n1 1\n");
  EXPECT_EXIT(load_under_a_cap(path, {.trust_vertex_count = true}), testing::ExitedWithCode(0),
              literally(name + kCsrOf2To31));
}

}  // namespace
}  // namespace spgraph::io
