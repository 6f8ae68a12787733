#include "generate_options.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "positive_option.hpp"
#include "run_app.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::apps {
namespace {

constexpr std::int64_t kGraph500EdgeFactor = 16;

// "0.57,0.19,0.19" into p.a, p.b, p.c and d = 1 - a - b - c.
void parse_abc_params(const std::string& text, io::RmatParams& p) {
  std::vector<double> x;
  bool numbers = true;
  std::stringstream in(text);
  for (std::string field; std::getline(in, field, ',');) {
    double v = 0;
    numbers = numbers && CLI::detail::lexical_cast(field, v);
    x.push_back(v);
  }
  if (!numbers || x.size() != 3 || !(x[0] >= 0 && x[1] >= 0 && x[2] >= 0) || x[0] + x[1] + x[2] > 1 + 1e-12)
    throw UsageError("--abc-params: expected three probabilities a,b,c of at least 0 and summing to at most 1 "
                     "(d = 1 - a - b - c), got '" + text + "'");
  p.a = x[0];
  p.b = x[1];
  p.c = x[2];
  p.d = std::max(0.0, 1 - x[0] - x[1] - x[2]);
}

io::LoadedGraph rmat_graph(const GenerateOptions& o) {
  if (o.scale != 0) throw UsageError("--scale is for the presets; R-MAT's size is --rmat-scale");
  if (o.rmat_scale < 0) throw UsageError("--generate rmat needs --rmat-scale N (2^N vertices)");
  io::RmatParams p;
  p.scale = o.rmat_scale;
  const std::int64_t factor = o.edge_factor == 0 ? kGraph500EdgeFactor : o.edge_factor;
  if (factor < 0 || factor > (std::int64_t{1} << 32))
    throw UsageError("--edge-factor: expected 1 to 2^32, got " + std::to_string(factor));
  p.edges = factor << o.rmat_scale;
  if (!o.abc_params.empty()) parse_abc_params(o.abc_params, p);
  p.seed = o.seed;
  io::LoadedGraph g;
  g.matrix = io::rmat(p, o.threads);
  std::ostringstream what;
  what << "generated R-MAT, scale " << p.scale << ", " << p.edges << " edges drawn, a,b,c,d " << p.a << ',' << p.b
       << ',' << p.c << ',' << p.d << ", seed " << p.seed;
  g.format = what.str();
  return g;
}

}  // namespace

void add_generate_options(CLI::App& cli, GenerateOptions& o) {
  cli.add_option("--generate", o.preset,
                 "write a generated graph instead of converting a file (then OUTPUT is the only file named): "
                 "wb-edu or cit-patents, power-law graphs shaped after those two (io::wb_edu_like, "
                 "io::cit_patents_like: size, longest row and the cost of A*A within a few percent of the real "
                 "graph's), or rmat (R-MAT, Graph500's generator). Directed, no self-loops, no repeated "
                 "edges, no weights; the same flags give the same graph on every machine and thread count")
      ->check(CLI::IsMember({"wb-edu", "cit-patents", "rmat"}).description(""))  // the type name lists them
      ->type_name("wb-edu|cit-patents|rmat");
  cli.add_option("--seed", o.seed, "--generate: the random seed")->capture_default_str();
  cli.add_option("--scale", o.scale,
                 "--generate wb-edu|cit-patents: 1/K of the vertices and edges (sites and the longest row kept; "
                 "the shape stays close to the full size's up to K = 50 for wb-edu, 100 for cit-patents)")
      ->type_name("K")
      ->default_str("1")
      ->check(greater_than_zero());
  cli.add_option("--rmat-scale", o.rmat_scale, "--generate rmat: 2^N vertices (required; ids are 32-bit)")
      ->type_name("N")
      ->check(CLI::Range(0, 30));
  cli.add_option("--edge-factor", o.edge_factor,
                 "--generate rmat: E * 2^N edges drawn; self-loops and repeats are then removed, so fewer remain")
      ->type_name("E")
      ->default_str(std::to_string(kGraph500EdgeFactor))
      ->check(greater_than_zero());
  cli.add_option("--abc-params", o.abc_params,
                 "--generate rmat: the probabilities of R-MAT's quadrants a (top left), b (top right) and c, "
                 "d = 1 - a - b - c")
      ->type_name("a,b,c")
      ->default_str("0.57,0.19,0.19");
  cli.add_option("--threads", o.threads, "--generate: threads (0: every core); the graph does not depend on it")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

io::LoadedGraph generate_graph(const GenerateOptions& o) {
  if (o.preset == "rmat") return rmat_graph(o);
  if (o.rmat_scale >= 0 || o.edge_factor != 0 || !o.abc_params.empty())
    throw UsageError("--rmat-scale, --edge-factor and --abc-params are for --generate rmat");
  const int k = o.scale == 0 ? 1 : o.scale;
  const bool wb = o.preset == "wb-edu";
  io::PowerLawParams p = io::scaled(wb ? io::wb_edu_like(o.seed) : io::cit_patents_like(o.seed), k);
  io::LoadedGraph g;
  g.matrix = io::power_law_graph(p, o.threads);
  g.format = std::string("generated ") + (wb ? "wb-edu-like" : "cit-patents-like") + ", 1/" + std::to_string(k) +
             " scale, seed " + std::to_string(o.seed);
  return g;
}

}  // namespace spgraph::apps
