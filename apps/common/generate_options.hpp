#pragma once
// --generate and its flags (spgraph-convert): a generated graph in place of an input file.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::apps {

struct GenerateOptions {
  std::string preset;  // "wb-edu", "cit-patents", "rmat"; empty: no --generate
  // The flags below hold 0, -1 or "" when not given, so that one given to the wrong
  // generator is refused instead of ignored.
  std::uint64_t seed = 1;
  int scale = 0;                // presets: 1/scale of the vertices and edges (io::scaled); 0: 1
  int rmat_scale = -1;          // R-MAT: 2^rmat_scale vertices; required
  std::int64_t edge_factor = 0; // R-MAT: edge_factor * 2^rmat_scale edges drawn; 0: 16 (Graph500's)
  std::string abc_params;       // R-MAT: quadrant probabilities "a,b,c", d = 1 - a - b - c; "": Graph500's
  int threads = 0;              // 0: every hardware thread
};

// Adds --generate, --seed, --scale, --rmat-scale, --edge-factor, --abc-params and --threads.
void add_generate_options(CLI::App& cli, GenerateOptions& options);

// The generated graph (no labels, id base 0), its format "generated <what>". A flag that does
// not belong to the preset, or R-MAT parameters out of range, is a UsageError.
io::LoadedGraph generate_graph(const GenerateOptions& options);

}  // namespace spgraph::apps
