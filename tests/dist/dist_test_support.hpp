#pragma once
// Shared by the tests of tests/dist/ (communicators, process grid, failures). The binary runs
// under mpirun at P = 1..4 (see dist_test_main.cpp); every rank runs every test, in the same
// order, so the collectives inside them match. Each rank computes the expected answer serially
// from values every rank can generate (value_of, reduce_input), and compares.
//
// A test must not leave a collective on one rank only: use EXPECT_*, not ASSERT_*, before a
// collective (an ASSERT returns from one rank's test while the others wait for it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "spgraph/dist/communicator.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "test_support.hpp"
#if SPGRAPH_WITH_NCCL
#include "spgraph/device/memory.hpp"
#include "spgraph/dist/nccl_communicator.hpp"
#endif

namespace spgraph::dist::test {

// ---- the job's communicators (test_communicators.cpp) --------------------------------------
// The kinds every communicator test runs on: "mpi"; "mpi_pieces", MPI with max_message 3, so
// every call also takes the paths of transfers past 2^31 elements; "nccl".
inline const char* const kKinds[] = {"mpi", "mpi_pieces", "nccl"};

MpiCommunicator& world();  // MPI on MPI_COMM_WORLD
// Why a kind of communicator cannot run here. no_device: some rank has no GPU at all, which
// SPGRAPH_REQUIRE_GPU=1 makes a failure; more ranks on a host than its GPUs is only a skip.
struct Refusal {
  std::string why;
  bool no_device = false;
};
// The communicator of a kind, made at its first use (collectively: every rank reaches it in
// the same test). nullptr with *refusal set when the kind cannot run here (nccl without a GPU a
// rank, or a build without NCCL); every rank agrees.
Communicator* communicator(std::string_view kind, Refusal* refusal);

// A test run on each kind of kKinds; skipped where the kind cannot run (above).
class KindTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    Refusal refusal;
    comm_ = communicator(GetParam(), &refusal);
    if (comm_ == nullptr) {
      if (refusal.no_device) SPGRAPH_SKIP_UNLESS_REQUIRED("SPGRAPH_REQUIRE_GPU", refusal.why);
      GTEST_SKIP() << refusal.why;
    }
  }
  Communicator* comm_ = nullptr;
};
// Frees them all; main calls it before MPI_Finalize.
void release_communicators();

// ---- the distributed backend's tests (backend_test.cpp, algorithms_test.cpp) -------------------
// Calls f on a grid of every shape of the world's ranks (1 x P, P x 1 and those between), with
// its GridScope open.
inline void for_each_grid(const std::function<void(const ProcessGrid&)>& f) {
  const int p = world().size();
  for (int rows = 1; rows <= p; ++rows) {
    if (p % rows) continue;
    ProcessGrid grid(world(), GridShape{rows, p / rows});
    GridScope scope(grid);
    SCOPED_TRACE("grid " + to_string(grid.shape()));
    f(grid);
  }
}

// ---- child jobs (failure_test.cpp) ------------------------------------------------------------
// The argument that makes the binary run a failure scenario instead of the tests.
inline constexpr std::string_view kChildFlag = "--dist-child=";
int run_child_scenario(std::string_view name);

// ---- buffers in the communicator's memory ---------------------------------------------------
template <class T>
class TestBuffer {
 public:
  TestBuffer(Communicator& comm, const std::vector<T>& values) : comm_(comm), n_(values.size()) {
    host_.reset(new T[std::max<std::size_t>(n_, 1)]);
    std::copy(values.begin(), values.end(), host_.get());
#if SPGRAPH_WITH_NCCL
    if (comm.memory() == MemorySpace::Device) {
      device_ = device::Buffer<T>(n_, static_cast<NcclCommunicator&>(comm).stream());
      device_.upload(values);
    }
#endif
  }
  TestBuffer(Communicator& comm, std::size_t n, T fill) : TestBuffer(comm, std::vector<T>(n, fill)) {}

  T* data() {
#if SPGRAPH_WITH_NCCL
    if (comm_.memory() == MemorySpace::Device) return device_.data();
#endif
    return n_ ? host_.get() : nullptr;
  }
  // The contents, after the communicator's work on them has finished.
  std::vector<T> read() {
    comm_.synchronize();
#if SPGRAPH_WITH_NCCL
    if (comm_.memory() == MemorySpace::Device) return device_.download();
#endif
    return std::vector<T>(host_.get(), host_.get() + n_);
  }

 private:
  Communicator& comm_;
  std::size_t n_;
  std::unique_ptr<T[]> host_;  // not std::vector: vector<bool> has no data()
#if SPGRAPH_WITH_NCCL
  device::Buffer<T> device_;
#endif
};

// ---- the element types and ops --------------------------------------------------------------
template <class F>
void for_each_type(F&& f) {
  f(std::type_identity<bool>{});
  f(std::type_identity<std::int8_t>{});
  f(std::type_identity<std::uint8_t>{});
  f(std::type_identity<std::int32_t>{});
  f(std::type_identity<std::uint32_t>{});
  f(std::type_identity<std::int64_t>{});
  f(std::type_identity<std::uint64_t>{});
  f(std::type_identity<float>{});
  f(std::type_identity<double>{});
}

inline constexpr ReduceOp kOps[] = {ReduceOp::Sum,        ReduceOp::Prod,  ReduceOp::Min,
                                    ReduceOp::Max,        ReduceOp::LogicalOr, ReduceOp::LogicalAnd,
                                    ReduceOp::BitOr,      ReduceOp::BitAnd, ReduceOp::BitXor};

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline std::uint64_t key(std::int64_t a, std::int64_t b, std::int64_t c = 0) {
  return mix(mix(mix(static_cast<std::uint64_t>(a)) ^ static_cast<std::uint64_t>(b)) ^ static_cast<std::uint64_t>(c));
}

// A value that tells (a, b, c) apart, using every bit of integer types (floats: multiples of
// 1/4 below 2^12, exact).
template <class T>
T value_of(std::int64_t a, std::int64_t b, std::int64_t c = 0) {
  const std::uint64_t h = key(a, b, c);
  if constexpr (std::is_same_v<T, bool>) return (h & 1) != 0;
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(static_cast<double>(h % 16384) / 4 - 2048);
  else return static_cast<T>(h);
}

// Rank r's input to a reduction by `op`, chosen so that the serial answer is exact and not
// trivial: small integers for sum and prod (no overflow at 4 ranks, even in int8), zeros often
// enough that logical or and and go both ways, every bit for the rest.
template <class T>
T reduce_input(ReduceOp op, std::int64_t rank, std::int64_t i) {
  const std::uint64_t h = key(rank, i, 77 + static_cast<int>(op));
  switch (op) {
    case ReduceOp::Sum:
      if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<int>(h % 17) - 8);
      else return static_cast<T>(h % 17);
    case ReduceOp::Prod:
      if constexpr (std::is_signed_v<T>) return static_cast<T>(h % 3 == 0 ? -1 : static_cast<int>(h % 2) + 1);
      else return static_cast<T>(h % 2 + 1);
    case ReduceOp::LogicalOr:  // mostly 0: the or is 0 somewhere
      return h % 4 == 0 ? value_of<T>(rank, i, 5) : T(0);
    case ReduceOp::LogicalAnd:  // mostly not 0: the and is 1 somewhere
      return h % 4 == 0 ? T(0) : (value_of<T>(rank, i, 6) == T(0) ? T(1) : value_of<T>(rank, i, 6));
    default: return value_of<T>(rank, i, 9);
  }
}

// a op b, as the communicators define it (logical ops give 1 or 0).
template <class T>
T combine(ReduceOp op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case ReduceOp::Sum: return a + b;
      case ReduceOp::Prod: return a * b;
      case ReduceOp::Min: return std::min(a, b);
      default: return std::max(a, b);
    }
  } else {
    switch (op) {
      case ReduceOp::Sum: return static_cast<T>(a + b);
      case ReduceOp::Prod: return static_cast<T>(a * b);
      case ReduceOp::Min: return std::min(a, b);
      case ReduceOp::Max: return std::max(a, b);
      case ReduceOp::LogicalOr: return static_cast<T>(a != T(0) || b != T(0));
      case ReduceOp::LogicalAnd: return static_cast<T>(a != T(0) && b != T(0));
      case ReduceOp::BitOr: return static_cast<T>(a | b);
      case ReduceOp::BitAnd: return static_cast<T>(a & b);
      case ReduceOp::BitXor: return static_cast<T>(a ^ b);
    }
    return a;
  }
}

// The reduction over ranks 0..p-1 of reduce_input(op, r, i).
template <class T>
T serial_reduce(ReduceOp op, int p, std::int64_t i) {
  T acc = reduce_input<T>(op, 0, i);
  if (op == ReduceOp::LogicalOr || op == ReduceOp::LogicalAnd) acc = static_cast<T>(acc != T(0));
  for (int r = 1; r < p; ++r) acc = combine(op, acc, reduce_input<T>(op, r, i));
  return acc;
}

}  // namespace spgraph::dist::test
