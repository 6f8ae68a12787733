// Every collective of the communicators (spgraph/dist/communicator.hpp) against a serial
// computation, on each kind: MPI, MPI cut into pieces of 3 elements (the paths of transfers past
// 2^31), and NCCL (skipped without a GPU a rank). Every element type, every op each type has,
// counts that are uneven and zero, displacements with gaps and out of rank order, in place.
#include <mpi.h>

#include <numeric>
#include <string>
#include <vector>

#include "dist/mpi_check.hpp"
#include "dist_test_support.hpp"
#include "test_support.hpp"
#if SPGRAPH_WITH_NCCL
#include "dist/nccl_check.hpp"
#endif

namespace spgraph::dist::test {
namespace {

class CommunicatorTest : public KindTest {
 protected:
  Communicator& comm() { return *comm_; }
  int me() { return comm_->rank(); }
  int p() { return comm_->size(); }
};

INSTANTIATE_TEST_SUITE_P(Kinds, CommunicatorTest, ::testing::ValuesIn(kKinds),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

template <class T>
std::string type_name() {
  return name_of(data_type_of<T>());
}

TEST_P(CommunicatorTest, RanksAreTheWorldsInOrder) {
  EXPECT_EQ(comm().size(), world().size());
  EXPECT_EQ(comm().rank(), world().rank());
  comm().barrier();
  comm().barrier();
}

TEST_P(CommunicatorTest, AllreduceEveryOpOnEveryType) {
  for_each_type([&]<class T>(std::type_identity<T>) {
    for (ReduceOp op : kOps) {
      if (!defined_on(op, data_type_of<T>())) continue;
      for (std::int64_t count : {0, 1, 7, 40}) {
        for (bool in_place : {false, true}) {
          SCOPED_TRACE(type_name<T>() + " " + name_of(op) + " count " + std::to_string(count) +
                       (in_place ? " in place" : ""));
          std::vector<T> mine(count), expected(count);
          for (std::int64_t i = 0; i < count; ++i) {
            mine[i] = reduce_input<T>(op, me(), i);
            expected[i] = serial_reduce<T>(op, p(), i);
          }
          TestBuffer<T> send(comm(), mine), recv(comm(), count, T{});
          comm().allreduce(send.data(), in_place ? send.data() : recv.data(), count, op);
          EXPECT_EQ(in_place ? send.read() : recv.read(), expected);
        }
      }
    }
  });
}

TEST_P(CommunicatorTest, BroadcastFromEveryRoot) {
  for_each_type([&]<class T>(std::type_identity<T>) {
    for (int root = 0; root < p(); ++root) {
      for (std::int64_t count : {0, 5, 23}) {
        SCOPED_TRACE(type_name<T>() + " root " + std::to_string(root) + " count " + std::to_string(count));
        std::vector<T> expected(count), start(count, T{});
        for (std::int64_t i = 0; i < count; ++i) expected[i] = value_of<T>(root, i);
        TestBuffer<T> buffer(comm(), me() == root ? expected : start);
        comm().broadcast(buffer.data(), count, root);
        EXPECT_EQ(buffer.read(), expected);
      }
    }
  });
}

TEST_P(CommunicatorTest, AllgatherEqualParts) {
  for_each_type([&]<class T>(std::type_identity<T>) {
    for (std::int64_t count : {0, 1, 6}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(type_name<T>() + " count " + std::to_string(count) + (in_place ? " in place" : ""));
        std::vector<T> mine(count), expected(count * p()), start(count * p(), T{});
        for (int r = 0; r < p(); ++r)
          for (std::int64_t i = 0; i < count; ++i) expected[r * count + i] = value_of<T>(r, i);
        for (std::int64_t i = 0; i < count; ++i) mine[i] = start[me() * count + i] = value_of<T>(me(), i);
        TestBuffer<T> send(comm(), mine), recv(comm(), in_place ? start : std::vector<T>(count * p(), T{}));
        comm().allgather(in_place ? recv.data() + me() * count : send.data(), recv.data(), count);
        EXPECT_EQ(recv.read(), expected);
      }
    }
  });
}

// Rank r's part: counts[r] elements at displs[r], the parts laid out last rank first, with gaps
// of two elements that must keep what they held.
struct VLayout {
  std::vector<std::int64_t> counts, displs;
  std::int64_t extent = 0;
};
VLayout reversed_with_gaps(std::vector<std::int64_t> counts) {
  VLayout v{counts, std::vector<std::int64_t>(counts.size()), 0};
  for (std::size_t r = counts.size(); r-- > 0;) {
    v.extent += 2;
    v.displs[r] = v.extent;
    v.extent += counts[r];
  }
  return v;
}

TEST_P(CommunicatorTest, AllgathervUnevenPartsWithGapsAndEmptyRanks) {
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<std::int64_t> counts(p());
    for (int r = 0; r < p(); ++r)
      counts[r] = pattern == 0 ? (r * 5 + 3) % 4 : pattern == 1 ? 0 : (r == p() - 1 ? 9 : r);
    const VLayout v = reversed_with_gaps(counts);
    for_each_type([&]<class T>(std::type_identity<T>) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(type_name<T>() + " pattern " + std::to_string(pattern) + (in_place ? " in place" : ""));
        const T gap = value_of<T>(-1, 0);
        std::vector<T> expected(v.extent, gap), start(v.extent, gap), mine(counts[me()]);
        for (int r = 0; r < p(); ++r)
          for (std::int64_t i = 0; i < counts[r]; ++i) expected[v.displs[r] + i] = value_of<T>(r, i, 3);
        for (std::int64_t i = 0; i < counts[me()]; ++i)
          mine[i] = start[v.displs[me()] + i] = value_of<T>(me(), i, 3);
        // In place, the rank's own part is in recv already; otherwise only send has it.
        TestBuffer<T> send(comm(), mine), recv(comm(), in_place ? start : std::vector<T>(v.extent, gap));
        comm().allgatherv(in_place ? recv.data() + v.displs[me()] : send.data(), recv.data(), v.counts, v.displs);
        EXPECT_EQ(recv.read(), expected);
      }
    });
  }
}

TEST_P(CommunicatorTest, ReduceScatterEqualBlocks) {
  for_each_type([&]<class T>(std::type_identity<T>) {
    for (ReduceOp op : kOps) {
      if (!defined_on(op, data_type_of<T>())) continue;
      for (std::int64_t count : {0, 1, 5}) {
        SCOPED_TRACE(type_name<T>() + " " + name_of(op) + " count " + std::to_string(count));
        std::vector<T> mine(count * p()), expected(count);
        for (std::int64_t j = 0; j < count * p(); ++j) mine[j] = reduce_input<T>(op, me(), j);
        for (std::int64_t i = 0; i < count; ++i) expected[i] = serial_reduce<T>(op, p(), me() * count + i);
        TestBuffer<T> send(comm(), mine), recv(comm(), count, T{});
        comm().reduce_scatter(send.data(), recv.data(), count, op);
        EXPECT_EQ(recv.read(), expected);
      }
    }
  });
}

TEST_P(CommunicatorTest, ReduceScatterVUnevenAndEmptyBlocks) {
  for (int pattern = 0; pattern < 2; ++pattern) {
    std::vector<std::int64_t> counts(p());
    for (int r = 0; r < p(); ++r) counts[r] = pattern == 0 ? (r * 2 + 1) % 3 : (r == 0 ? 11 : 0);
    std::vector<std::int64_t> starts(p() + 1, 0);
    std::partial_sum(counts.begin(), counts.end(), starts.begin() + 1);
    for_each_type([&]<class T>(std::type_identity<T>) {
      for (ReduceOp op : kOps) {
        if (!defined_on(op, data_type_of<T>())) continue;
        SCOPED_TRACE(type_name<T>() + " " + name_of(op) + " pattern " + std::to_string(pattern));
        std::vector<T> mine(starts[p()]), expected(counts[me()]);
        for (std::int64_t j = 0; j < starts[p()]; ++j) mine[j] = reduce_input<T>(op, me(), j);
        for (std::int64_t i = 0; i < counts[me()]; ++i) expected[i] = serial_reduce<T>(op, p(), starts[me()] + i);
        TestBuffer<T> send(comm(), mine), recv(comm(), counts[me()], T{});
        comm().reduce_scatter_v(send.data(), recv.data(), counts, op);
        EXPECT_EQ(recv.read(), expected);
      }
    });
  }
}

TEST_P(CommunicatorTest, AlltoallEqualBlocks) {
  for_each_type([&]<class T>(std::type_identity<T>) {
    for (std::int64_t count : {0, 1, 4}) {
      SCOPED_TRACE(type_name<T>() + " count " + std::to_string(count));
      // Element i of the block from rank a to rank b: value_of(a, b, i).
      std::vector<T> mine(count * p()), expected(count * p());
      for (int r = 0; r < p(); ++r)
        for (std::int64_t i = 0; i < count; ++i) {
          mine[r * count + i] = value_of<T>(me(), r, i);
          expected[r * count + i] = value_of<T>(r, me(), i);
        }
      TestBuffer<T> send(comm(), mine), recv(comm(), count * p(), T{});
      comm().alltoall(send.data(), recv.data(), count);
      EXPECT_EQ(recv.read(), expected);
    }
  });
}

TEST_P(CommunicatorTest, AlltoallvUnevenEmptyAndScattered) {
  for (int pattern = 0; pattern < 3; ++pattern) {
    // How many elements rank a sends rank b: uneven with zeros; all zero; all to rank 0.
    auto count_of = [&](int a, int b) -> std::int64_t {
      if (pattern == 0) return (a * 3 + b * 5 + 1) % 4;
      if (pattern == 1) return 0;
      return b == 0 ? a + 2 : 0;
    };
    std::vector<std::int64_t> send_counts(p()), send_displs(p()), recv_counts(p()), recv_displs(p());
    std::int64_t send_extent = 0, recv_extent = 0;
    for (int r = p(); r-- > 0;) {  // send blocks in reverse rank order, one-element gaps
      send_counts[r] = count_of(me(), r);
      send_displs[r] = send_extent + 1;
      send_extent += 1 + send_counts[r];
    }
    for (int r = 0; r < p(); ++r) {  // receive blocks in rank order, three-element gaps
      recv_counts[r] = count_of(r, me());
      recv_displs[r] = recv_extent + 3;
      recv_extent += 3 + recv_counts[r];
    }
    for_each_type([&]<class T>(std::type_identity<T>) {
      SCOPED_TRACE(type_name<T>() + " pattern " + std::to_string(pattern));
      const T gap = value_of<T>(-1, 1);
      std::vector<T> mine(send_extent, gap), expected(recv_extent, gap);
      for (int r = 0; r < p(); ++r) {
        for (std::int64_t i = 0; i < send_counts[r]; ++i) mine[send_displs[r] + i] = value_of<T>(me(), r, i);
        for (std::int64_t i = 0; i < recv_counts[r]; ++i) expected[recv_displs[r] + i] = value_of<T>(r, me(), i);
      }
      TestBuffer<T> send(comm(), mine), recv(comm(), recv_extent, gap);
      comm().alltoallv(send.data(), send_counts, send_displs, recv.data(), recv_counts, recv_displs);
      EXPECT_EQ(recv.read(), expected);
    });
  }
}

TEST_P(CommunicatorTest, SplitByParityOrderedByKey) {
  // Even and odd ranks, each group ordered by descending world rank (key = -rank).
  std::unique_ptr<Communicator> part = comm().split(me() % 2, -me());
  EXPECT_TRUE(part != nullptr);
  if (!part) return;  // only on a broken split; every rank is then here
  std::vector<std::int32_t> members;
  for (int r = p() - 1; r >= 0; --r)
    if (r % 2 == me() % 2) members.push_back(r);
  EXPECT_EQ(part->size(), static_cast<int>(members.size()));
  EXPECT_EQ(part->rank(), static_cast<int>(std::find(members.begin(), members.end(), me()) - members.begin()));
  EXPECT_EQ(part->memory(), comm().memory());

  TestBuffer<std::int32_t> mine(*part, std::vector<std::int32_t>{me()});
  TestBuffer<std::int32_t> all(*part, members.size(), -1);
  part->allgather(mine.data(), all.data(), 1);
  EXPECT_EQ(all.read(), members);

  TestBuffer<std::int64_t> sum(*part, 1, 0);
  TestBuffer<std::int64_t> one(*part, std::vector<std::int64_t>{me() + 1});
  part->allreduce(one.data(), sum.data(), 1, ReduceOp::Sum);
  std::int64_t expected = 0;
  for (int r : members) expected += r + 1;
  EXPECT_EQ(sum.read(), std::vector<std::int64_t>{expected});
  part->barrier();
}

TEST_P(CommunicatorTest, SplitWithoutColorGivesNoCommunicator) {
  // Rank 0 joins no group; the others form one, in world order.
  std::unique_ptr<Communicator> part = comm().split(me() == 0 ? Communicator::kNoColor : 7, me());
  if (me() == 0) {
    EXPECT_TRUE(part == nullptr);
    return;
  }
  EXPECT_TRUE(part != nullptr);
  if (!part) return;
  EXPECT_EQ(part->size(), p() - 1);
  EXPECT_EQ(part->rank(), me() - 1);
  TestBuffer<std::uint64_t> word(*part, std::vector<std::uint64_t>{std::uint64_t(1) << me()});
  TestBuffer<std::uint64_t> all(*part, 1, 0);
  part->allreduce(word.data(), all.data(), 1, ReduceOp::BitOr);
  EXPECT_EQ(all.read(), std::vector<std::uint64_t>{((std::uint64_t(1) << p()) - 1) & ~std::uint64_t(1)});
}

TEST_P(CommunicatorTest, SplitOfASplit) {
  std::unique_ptr<Communicator> half = comm().split(me() % 2, me());
  std::unique_ptr<Communicator> alone = half->split(half->rank(), 0);  // every rank on its own
  EXPECT_EQ(alone->size(), 1);
  EXPECT_EQ(alone->rank(), 0);
  TestBuffer<double> x(*alone, std::vector<double>{1.5 * me()});
  alone->allreduce(x.data(), x.data(), 1, ReduceOp::Sum);
  EXPECT_EQ(x.read(), std::vector<double>{1.5 * me()});
}

// Refused on every rank before anything is sent, with a message that says what is wrong.
// Each collective's calls and the bytes other ranks brought here (communicator.hpp's Traffic),
// counted from the arguments; with waits measured, the barrier's seconds apart.
TEST_P(CommunicatorTest, TrafficCountsCallsAndBytesReceived) {
  const std::int64_t n = 6, others = p() - 1;
  const auto parts = [&](std::int64_t each) { return std::vector<std::int64_t>(std::size_t(p()), each); };
  std::vector<std::int64_t> displs(static_cast<std::size_t>(p()));
  for (int r = 0; r < p(); ++r) displs[std::size_t(r)] = r * n;
  TestBuffer<double> a(comm(), std::vector<double>(std::size_t(n * p()), 1.0));
  TestBuffer<double> b(comm(), std::vector<double>(std::size_t(n * p()), 0.0));
  comm().reset_traffic();
  comm().allreduce(a.data(), b.data(), n, ReduceOp::Sum);
  comm().broadcast(a.data(), n, 0);
  comm().broadcast(a.data(), n, 0);
  comm().allgather(a.data(), b.data(), n);
  comm().allgatherv(a.data(), b.data(), parts(n), displs);
  comm().reduce_scatter(a.data(), b.data(), n, ReduceOp::Sum);
  comm().reduce_scatter_v(a.data(), b.data(), parts(n), ReduceOp::Sum);
  comm().alltoall(a.data(), b.data(), n);
  comm().alltoallv(a.data(), parts(n), displs, b.data(), parts(n), displs);
  comm().synchronize();
  const Traffic& t = comm().traffic();
  const std::int64_t word = 8, gathered = others * n * word;
  const std::int64_t expected_bytes[kCollectives] = {gathered, me() == 0 ? 0 : 2 * n * word, gathered, gathered,
                                                      gathered, gathered, gathered, gathered};
  for (int c = 0; c < kCollectives; ++c) {
    SCOPED_TRACE(name_of(Collective(c)));
    EXPECT_EQ(t.by_collective[c].calls, Collective(c) == Collective::Broadcast ? 2 : 1);
    EXPECT_EQ(t.by_collective[c].bytes, expected_bytes[c]);
    EXPECT_GE(t.by_collective[c].seconds, 0.0);
  }
  EXPECT_EQ(t.total().calls, 9);
  EXPECT_EQ(t.waiting_seconds, 0.0);  // not measured

  comm().reset_traffic();
  comm().measure_waits(true);
  comm().allreduce(a.data(), b.data(), n, ReduceOp::Sum);
  comm().measure_waits(false);
  EXPECT_EQ(comm().traffic().total().calls, 1);  // the barrier is not a collective counted
  EXPECT_GT(comm().traffic().waiting_seconds, 0.0);
  comm().reset_traffic();
  EXPECT_EQ(comm().traffic().total().calls, 0);
}

TEST_P(CommunicatorTest, RefusesArgumentsThatCannotBeRight) {
  TestBuffer<double> d(comm(), 4, 1.0);
  TestBuffer<bool> b(comm(), 4, true);
  TestBuffer<std::int64_t> n(comm(), 4 * p(), 0);
  using spgraph::test::error_of;
  EXPECT_NE(error_of([&] { comm().allreduce(b.data(), b.data(), 4, ReduceOp::Sum); }).find("sum is not defined on bool"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().allreduce(d.data(), d.data(), 4, ReduceOp::BitOr); }).find("bor is not defined on float64"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().reduce_scatter(d.data(), d.data(), 1, ReduceOp::LogicalAnd); }).find("land"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().allreduce(d.data(), d.data(), -1, ReduceOp::Sum); }).find("count -1 is negative"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().broadcast(d.data(), 4, p()); }).find("root " + std::to_string(p()) + " is not a rank"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().broadcast(d.data(), 4, -1); }).find("is not a rank"), std::string::npos);
  const std::vector<std::int64_t> short_counts(p() + 1, 1), negative(p(), -2);
  EXPECT_NE(error_of([&] { comm().allgatherv(n.data(), n.data(), short_counts, short_counts); })
                .find("counts has " + std::to_string(p() + 1) + " entries for " + std::to_string(p()) + " ranks"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().reduce_scatter_v(n.data(), n.data(), negative, ReduceOp::Max); }).find("is negative"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().alltoallv(n.data(), negative, negative, n.data(), negative, negative); })
                .find("send_counts[0] = -2 is negative"),
            std::string::npos);
  EXPECT_NE(error_of([&] { comm().split(-3, 0); }).find("color -3 is negative"), std::string::npos);
  comm().barrier();  // and the communicator still works
}

// ---- the pieces that need no communicator ---------------------------------------------------

TEST(DataTypes, MapByKindAndWidth) {
  static_assert(data_type_of<bool>() == DataType::Bool);
  static_assert(data_type_of<signed char>() == DataType::Int8);
  static_assert(data_type_of<unsigned char>() == DataType::UInt8);
  static_assert(data_type_of<int>() == DataType::Int32);
  static_assert(data_type_of<unsigned>() == DataType::UInt32);
  static_assert(data_type_of<long>() == DataType::Int64);
  static_assert(data_type_of<long long>() == DataType::Int64);
  static_assert(data_type_of<unsigned long long>() == DataType::UInt64);
  static_assert(data_type_of<const float>() == DataType::Float32);
  static_assert(data_type_of<double>() == DataType::Float64);
  EXPECT_EQ(size_of(DataType::Bool), 1u);
  EXPECT_EQ(size_of(DataType::UInt64), 8u);
  EXPECT_STREQ(name_of(DataType::Float32), "float32");
  EXPECT_STREQ(name_of(ReduceOp::BitXor), "bxor");
  EXPECT_FALSE(defined_on(ReduceOp::BitAnd, DataType::Float32));
  EXPECT_TRUE(defined_on(ReduceOp::BitAnd, DataType::Bool));
  EXPECT_FALSE(defined_on(ReduceOp::Prod, DataType::Bool));
  EXPECT_TRUE(defined_on(ReduceOp::LogicalOr, DataType::UInt64));
}

TEST(ErrorChecks, MpiFailureNamesCallFileAndLine) {
  const std::string msg = spgraph::test::error_of([] { check_mpi(MPI_ERR_COUNT, "MPI_Bcast(buf, n)", "x.cpp", 12); });
  EXPECT_NE(msg.find("MPI_Bcast(buf, n) failed at x.cpp:12: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("count"), std::string::npos) << msg;  // MPI's words for MPI_ERR_COUNT
  EXPECT_EQ(spgraph::test::error_of([] { check_mpi(MPI_SUCCESS, "MPI_Barrier(c)", "x.cpp", 1); }), "");
}

#if SPGRAPH_WITH_NCCL
TEST(ErrorChecks, NcclFailureNamesCallFileAndLine) {
  const std::string msg =
      spgraph::test::error_of([] { check_nccl(ncclInvalidArgument, "ncclAllReduce(a, b)", "y.cpp", 34); });
  EXPECT_NE(msg.find("ncclAllReduce(a, b) failed at y.cpp:34: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("invalid argument"), std::string::npos) << msg;
}
#endif

}  // namespace
}  // namespace spgraph::dist::test
