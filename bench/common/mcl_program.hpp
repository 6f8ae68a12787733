#pragma once
// Van Dongen's mcl program (release 22-282, Debian's package) run as a child process on a graph
// of ours, its clusters read back: the program bench_mcl compares our MCL with.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "spgraph/csr.hpp"

namespace spgraph::bench {

inline constexpr const char* kMclVersion = "mcl 22-282";  // the first line of `mcl --version`
inline constexpr const char* kDebianMcl = "/usr/bin/mcl";

struct MclProgram {
  std::string path;  // empty: not run
  int threads = 1;   // mcl -te
  double timeout_s = 600;
  std::string logs;  // folder to keep its stderr in, one file per input; "" for none
};

// $MCL_PROGRAM, else Debian's /usr/bin/mcl where it exists (not a PATH lookup: our own app is
// called mcl too); empty when none.
std::string default_mcl_program();

// Throws Error unless `program --version` says kMclVersion first: mcl's results are those of
// one release, and our own app is called mcl too.
void check_mcl_version(const std::string& program, const TempDir& dir);

// What mcl reported on stderr: the last row of its iteration table (" ite chaos time ..."; a
// row starts with the iteration number and has eight or more fields; progress dots that mcl
// prints on large graphs may stand in front), "[mcl] N clusters found" and its jury's verdict
// on the pruning.
struct MclLog {
  int iterations = -1;
  std::int64_t clusters = -1;
  std::string jury;  // "<87.2 or cracking>"
};

// mcl's output with --abc, one cluster a line, its labels (our vertex ids) separated by tabs, as
// vertex ids below n (the CombBLAS anchor writes its clusters so too). Throws Error for a label
// that is not one.
std::vector<std::vector<vid_t>> read_mcl_clusters(const std::string& path, vid_t n);

struct MclRun {
  std::string status = "not run";  // "ok", "skipped: why", "timed out ...", "failed: ..."
  double seconds = std::numeric_limits<double>::quiet_NaN();
  MclLog log;
  std::vector<std::vector<vid_t>> clusters;
  std::vector<std::int64_t> cluster_of;  // per vertex
  bool ok() const { return status == "ok"; }
  bool failed() const { return status.starts_with("failed"); }
};

// `mcl FILE --abc -I inflation -te threads -o OUT` on `g` written as mcl's label input (.abc:
// labels our vertex ids, weights as loaded, a vertex in no link given a loop line so that mcl
// knows it), its files in `dir`, timed by the wall clock from start to exit and killed after
// program.timeout_s; its iterations read from its stderr, its clusters from OUT. Never throws:
// a failure is in the status.
MclRun run_mcl(const MclProgram& program, const Csr<double>& g, const std::string& name, double inflation,
               const TempDir& dir);

}  // namespace spgraph::bench
