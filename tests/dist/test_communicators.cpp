// The communicators the tests of tests/dist/ share (dist_test_support.hpp).
#include <mpi.h>

#include <map>
#include <string>

#include "dist_test_support.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#if SPGRAPH_WITH_NCCL
#include "spgraph/dist/rank_gpu.hpp"
#endif

namespace spgraph::dist::test {
namespace {

struct Held {
  std::unique_ptr<MpiCommunicator> world;
  std::map<std::string, std::unique_ptr<Communicator>, std::less<>> by_kind;
  std::map<std::string, Refusal, std::less<>> refused;  // kind -> why it cannot run here
};
Held& held() {
  static Held h;
  return h;
}

// Whether every rank can run NCCL (a build with it, a GPU each); the reason where not. Agreed
// by all ranks, or some would start NCCL and wait for the rest forever.
bool nccl_possible(Refusal* refusal) {
  int ok = 1;
  std::string* why = &refusal->why;
#if SPGRAPH_WITH_NCCL
  std::string local_why;
  if (!device::gpu_available(&local_why)) {
    ok = 0;
    refusal->no_device = true;
    *why = "no CUDA device: NCCL tests need a GPU for each rank (" + local_why + ")";
  } else {
    try {  // more ranks on this host than GPUs: NCCL refuses two ranks on one GPU
      (void)device_for_local_rank(world());
    } catch (const Error& e) {
      ok = 0;
      *why = std::string("NCCL tests need a GPU for each rank: ") + e.what();
    }
  }
#else
  ok = 0;
  *why = "built without NCCL (SPGRAPH_WITH_NCCL)";
#endif
  int all = 0, none = refusal->no_device ? 1 : 0, any_without = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&none, &any_without, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  refusal->no_device = any_without == 1;
  if (all == 0 && ok == 1) *why = "another rank has no GPU for NCCL";
  return all == 1;
}

}  // namespace

MpiCommunicator& world() {
  Held& h = held();
  if (!h.world) h.world = MpiCommunicator::world();
  return *h.world;
}

Communicator* communicator(std::string_view kind, Refusal* refusal) {
  Held& h = held();
  if (auto it = h.by_kind.find(kind); it != h.by_kind.end()) return it->second.get();
  if (auto it = h.refused.find(kind); it != h.refused.end()) {
    *refusal = it->second;
    return nullptr;
  }
  std::unique_ptr<Communicator> made;
  if (kind == "mpi") {
    made = MpiCommunicator::world();
  } else if (kind == "mpi_pieces") {
    made = MpiCommunicator::world({.max_message = 3});
  } else if (kind == "nccl") {
    Refusal reason;
    if (!nccl_possible(&reason)) {
      h.refused.emplace(std::string(kind), reason);
      *refusal = reason;
      return nullptr;
    }
#if SPGRAPH_WITH_NCCL
    made = std::make_unique<NcclCommunicator>(world());
#endif
  } else {
    throw Error("no communicator kind '" + std::string(kind) + "'");
  }
  return h.by_kind.emplace(std::string(kind), std::move(made)).first->second.get();
}

void release_communicators() {
  held().by_kind.clear();
  held().world.reset();
}

}  // namespace spgraph::dist::test
