#include <algorithm>
#include <limits>
#include <string>

#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"

// The parameters were fitted on the full-size graphs (bench_generators prints the fit). The
// out-degree tail exponents are typical values (1.5 for the web, steeper 2.5 for citations), not
// fitted; hub_fraction then moves products per edge and hub_group (with site_exponent and
// local_fraction) nnz(A*A) per product, with little effect on each other. A web graph is strongly local: 97% of links within a site of
// 1000 pages, steep rank weights (every page links to its site's index pages, which makes A*A's
// rows overlap). Citations: 78% within a class of 100, flatter weights. Several settings fit
// A*A equally well; for cit-Patents a steeper one (classes of 500) gave every class a vertex
// with ~600 in-links, 7,500 of them, where cit-Patents has only a few near its maximum of 779,
// and made A*A' cost 270 products per edge; this one costs 22.
// In-degrees are not fitted: links favour a site's top-ranked pages, so 75.5% of wb-edu-like's
// vertices have no in-link (A' has that many empty rows), while every vertex of the crawls
// cnr-2000 and web-NotreDame has one; 18.8% of cit-Patents-like's have none (cit-HepPh: 18.3%).
namespace spgraph::io {

PowerLawParams wb_edu_like(std::uint64_t seed) {
  PowerLawParams p;
  p.n = kWbEduShape.n;
  p.edges = kWbEduShape.nnz;
  p.max_out_degree = static_cast<vid_t>(kWbEduShape.max_row);
  p.out_exponent = 1.5;
  p.site_size = 1000;
  p.site_exponent = 2;
  p.local_fraction = 0.97;
  p.hub_fraction = 0.03;
  p.hub_group = 6;
  p.seed = seed;
  return p;
}

PowerLawParams cit_patents_like(std::uint64_t seed) {
  PowerLawParams p;
  p.n = kCitPatentsShape.n;
  p.edges = kCitPatentsShape.nnz;
  p.max_out_degree = static_cast<vid_t>(kCitPatentsShape.max_row);
  p.out_exponent = 2.5;
  // The 1,803,511 patents granted before 1975 have no citation data (SNAP's notes): the
  // 3,774,768 vertices less the 2,120,411 patents with data (3,923,922 - 1,803,511) cite nothing.
  p.empty_rows = 1'654'357;
  p.site_size = 100;
  p.site_exponent = 1;
  p.local_fraction = 0.78;
  p.hub_fraction = 0.02;
  p.hub_group = 2;
  p.seed = seed;
  return p;
}

PowerLawParams scaled(const PowerLawParams& p, int k) {
  if (k < 1) throw Error("scaled: the factor must be at least 1, got " + std::to_string(k));
  PowerLawParams s = p;
  s.n = p.n / k;
  s.edges = p.edges / k;
  s.empty_rows = p.empty_rows / k;
  s.max_out_degree = std::min(p.max_out_degree, s.n - 1);
  return s;
}

PowerLawParams enlarged(const PowerLawParams& p, int k) {
  if (k < 1) throw Error("enlarged: the factor must be at least 1, got " + std::to_string(k));
  if (std::int64_t(p.n) * k > std::int64_t(std::numeric_limits<vid_t>::max()))
    throw Error("enlarged: " + std::to_string(k) + " times " + std::to_string(p.n) +
                " vertices passes the generator's 32-bit vertex ids");
  PowerLawParams s = p;
  s.n = p.n * k;
  s.edges = p.edges * k;
  s.empty_rows = p.empty_rows * k;
  return s;
}

}  // namespace spgraph::io
