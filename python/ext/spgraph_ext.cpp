// spgraph._spgraph: the Python module's native half (nanobind), over libspgraph.
//
// What lives here and what in Python (src/spgraph/*.py):
//   here      the host CSR built from NumPy arrays (one pass, the GIL released), the graph on a
//             backend (spgraph::Graph<B>) kept across calls, the algorithms, load/save, and
//             the networkx adjacency (dict of dicts) read into CSR arrays without Python loops;
//   Python    argument checking and conversion of scipy.sparse / networkx inputs, docstrings,
//             warnings, and the networkx backend.
// Every spgraph::Error reaches Python as spgraph.Error (spgraph._errors) carrying what() as
// the apps print it; a ResourceError as spgraph.ResourceError, an io ParseError as
// spgraph.ParseError, std::bad_alloc as MemoryError("out of host memory").
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/algorithms/backend.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/config.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/graphblas/grb.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/save_graph.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/gpu/backend.hpp"
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace spgraph::python {
namespace {

using algorithms::Backend;

// ---- exceptions -------------------------------------------------------------------------

// The Python classes, from spgraph._errors (imported when the module loads).
PyObject* py_error = nullptr;
PyObject* py_resource_error = nullptr;
PyObject* py_parse_error = nullptr;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const ResourceError& e) {
    PyErr_SetString(py_resource_error, e.what());
  } catch (const ParseError& e) {
    PyErr_SetString(py_parse_error, e.what());
  } catch (const Error& e) {
    PyErr_SetString(py_error, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "out of host memory");
  }
}

// ---- arrays -----------------------------------------------------------------------------

// A 1-D array of any dtype, read-only, contiguous, in host memory.
using AnyArray = nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <class T>
bool is(const AnyArray& a) {
  return a.dtype() == nb::dtype<T>();
}

std::string dtype_name(const AnyArray& a) {
  const auto d = a.dtype();
  const char* kind = d.code == (uint8_t)nb::dlpack::dtype_code::Int     ? "int"
                     : d.code == (uint8_t)nb::dlpack::dtype_code::UInt  ? "uint"
                     : d.code == (uint8_t)nb::dlpack::dtype_code::Float ? "float"
                     : d.code == (uint8_t)nb::dlpack::dtype_code::Bool  ? "bool"
                                                                          : "complex";
  return std::string(kind) + std::to_string(d.bits);
}

// Calls f(const T* data) for the array's element type, one of the integer types.
template <class F>
void with_integers(const AnyArray& a, const char* what, F&& f) {
  if (is<std::int32_t>(a)) return f(static_cast<const std::int32_t*>(a.data()));
  if (is<std::int64_t>(a)) return f(static_cast<const std::int64_t*>(a.data()));
  if (is<std::uint32_t>(a)) return f(static_cast<const std::uint32_t*>(a.data()));
  if (is<std::uint64_t>(a)) return f(static_cast<const std::uint64_t*>(a.data()));
  if (is<std::int16_t>(a)) return f(static_cast<const std::int16_t*>(a.data()));
  if (is<std::uint16_t>(a)) return f(static_cast<const std::uint16_t*>(a.data()));
  if (is<std::int8_t>(a)) return f(static_cast<const std::int8_t*>(a.data()));
  if (is<std::uint8_t>(a)) return f(static_cast<const std::uint8_t*>(a.data()));
  throw nb::type_error((std::string(what) + " must hold integers, not " + dtype_name(a)).c_str());
}

// Calls f(const T* data) for the array's element type, a real number type (or bool).
template <class F>
void with_reals(const AnyArray& a, F&& f) {
  if (is<double>(a)) return f(static_cast<const double*>(a.data()));
  if (is<float>(a)) return f(static_cast<const float*>(a.data()));
  if (is<bool>(a)) return f(static_cast<const bool*>(a.data()));
  with_integers(a, "the weights", f);
}

// An owned vector handed to NumPy without a copy: the array keeps the vector alive.
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(std::vector<T>&& v) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(heap->data(), {heap->size()}, owner);
}
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<2>> to_numpy_2d(std::vector<T>&& v, std::size_t rows, std::size_t cols) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<2>>(heap->data(), {rows, cols}, owner);
}

std::string number(double w) {
  if (std::isnan(w)) return "nan";
  if (std::isinf(w)) return w > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", w);
  return buf;
}

// The host CSR from scipy's three arrays. Column indices are narrowed to 32 bits and row
// offsets widened to 64 where they come in another width (scipy keeps both in one type); values
// are converted to double, or left out when `values` is false (algorithms that read only the
// pattern). Every value is checked finite either way, as the file readers check theirs.
// Columns must be sorted within rows without repeats (the caller canonicalises); validate()
// names the first violation. Runs without the GIL.
Csr<double> csr_from_arrays(std::int64_t nrows, std::int64_t ncols, const AnyArray& indptr, const AnyArray& indices,
                            const std::optional<AnyArray>& data, bool values) {
  constexpr std::int64_t kMaxVertices = std::numeric_limits<vid_t>::max();
  if (nrows < 0 || ncols < 0) throw Error("a matrix cannot have negative dimensions");
  if (nrows > kMaxVertices || ncols > kMaxVertices)
    throw Error("the matrix is " + std::to_string(nrows) + " x " + std::to_string(ncols) +
                "; spgraph's vertex ids are 32-bit, so a graph has at most 2^31 - 1 vertices");
  if (indptr.shape(0) != static_cast<std::size_t>(nrows) + 1)
    throw Error("indptr has " + std::to_string(indptr.shape(0)) + " entries; a matrix of " + std::to_string(nrows) +
                " rows needs " + std::to_string(nrows + 1));
  const std::size_t nnz = indices.shape(0);
  if (data && data->shape(0) != nnz)
    throw Error("data has " + std::to_string(data->shape(0)) + " entries but indices has " + std::to_string(nnz));

  Csr<double> a;
  a.nrows = static_cast<vid_t>(nrows);
  a.ncols = static_cast<vid_t>(ncols);
  a.rowptr.resize(static_cast<std::size_t>(nrows) + 1);
  with_integers(indptr, "indptr", [&](const auto* p) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    if constexpr (std::is_same_v<T, eid_t>) {
      std::memcpy(a.rowptr.data(), p, a.rowptr.size() * sizeof(eid_t));
    } else {
      for (std::size_t i = 0; i < a.rowptr.size(); ++i) a.rowptr[i] = static_cast<eid_t>(p[i]);
    }
  });
  a.col.resize(nnz);
  with_integers(indices, "indices", [&](const auto* p) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    if constexpr (std::is_same_v<T, vid_t>) {
      std::memcpy(a.col.data(), p, nnz * sizeof(vid_t));
    } else {
      for (std::size_t k = 0; k < nnz; ++k) {
        const auto c = p[k];
        if constexpr (std::is_signed_v<T>) {
          if (c < 0 || static_cast<std::int64_t>(c) >= ncols)
            throw Error("column index " + std::to_string(static_cast<long long>(c)) + " (entry " +
                        std::to_string(k) + ") out of range [0, " + std::to_string(ncols) + ")");
        } else if (static_cast<std::uint64_t>(c) >= static_cast<std::uint64_t>(ncols)) {
          throw Error("column index " + std::to_string(static_cast<unsigned long long>(c)) + " (entry " +
                      std::to_string(k) + ") out of range [0, " + std::to_string(ncols) + ")");
        }
        a.col[k] = static_cast<vid_t>(c);
      }
    }
  });
  a.validate(/*require_sorted=*/true);  // offsets, column range, sorted rows: names the first fault

  if (data) {
    auto refuse = [&](std::size_t k, double w) {
      const auto row = std::upper_bound(a.rowptr.begin(), a.rowptr.end(), static_cast<eid_t>(k)) - a.rowptr.begin() - 1;
      throw Error("the link from vertex " + std::to_string(row) + " to vertex " + std::to_string(a.col[k]) +
                  " has weight " + number(w) + ", which is not a finite number; NaN and infinite values are refused " +
                  "in every format");
    };
    with_reals(*data, [&](const auto* p) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
      if constexpr (std::is_floating_point_v<T>) {
        for (std::size_t k = 0; k < nnz; ++k)
          if (!std::isfinite(p[k])) refuse(k, static_cast<double>(p[k]));
      }
      if (values) {
        a.val.resize(nnz);
        if constexpr (std::is_same_v<T, double>) {
          std::memcpy(a.val.data(), p, nnz * sizeof(double));
        } else {
          for (std::size_t k = 0; k < nnz; ++k) a.val[k] = static_cast<double>(p[k]);
        }
      }
    });
  }
  return a;
}

// ---- backends ---------------------------------------------------------------------------

struct Selected {
  Backend backend = Backend::Cpu;
  std::string description;  // as the apps' "backend: ..." line
};

// backend="auto"|"gpu"|"cpu", resolved as the apps resolve --backend (apps/common/backend_option):
// auto runs on the GPU when one is usable, else on the CPU and says why.
// The machine, probed once per process (a Graph per call must not pay for it again).
struct Probe {
  bool gpu = false;
  std::string gpu_description;  // "NVIDIA H200 (sm_90, 139.8 GiB)"
  std::string why;              // why there is no GPU
  std::string cpu_description;  // "cpu (SuiteSparse:GraphBLAS 7.4.0, 16 threads"
};

const Probe& probe() {
  static const Probe p = [] {
    Probe q;
    q.gpu = device::gpu_available(&q.why);
    if (q.gpu) q.gpu_description = device::device_description();
    q.cpu_description = graphblas::description();
    return q;
  }();
  return p;
}

Selected select_backend(const std::string& choice) {
  if (choice != "auto" && choice != "gpu" && choice != "cpu")
    throw nb::value_error(("backend must be 'auto', 'gpu' or 'cpu', not '" + choice + "'").c_str());
  const Probe* p;
  {
    nb::gil_scoped_release release;  // the first call starts CUDA and GraphBLAS
    p = &probe();
  }
  Selected s;
  if (choice == "cpu") {
    s.description = p->cpu_description + ")";
    return s;
  }
  if (p->gpu) {
    s.backend = Backend::Gpu;
    s.description = "gpu (" + p->gpu_description + ")";
    return s;
  }
  if (choice == "gpu")
    throw Error("backend='gpu': no usable GPU: " + p->why + " (backend='cpu' or 'auto' runs on the CPU)");
  s.description = p->cpu_description + "; " + p->why + ")";  // as the apps say it
  return s;
}

// ---- the graph object -------------------------------------------------------------------

// A graph on one backend, built once and taken by every algorithm: spgraph::Graph<B> keeps the
// pattern, its transpose, the undirected form and the degrees there after first use. Calls
// run with the GIL released and one at a time per graph (the parts are built lazily).
class PyGraph {
 public:
  // Throws Error for a matrix that is not square (Graph's own message).
  PyGraph(Csr<double>&& host, Selected selected) : host_(std::move(host)), selected_(std::move(selected)) {
    if (selected_.backend == Backend::Gpu) {
#if SPGRAPH_HAVE_GPU
      gpu_.emplace(host_);
#else
      throw Error("backend='gpu': this build of spgraph has no GPU backend");
#endif
    } else {
      cpu_.emplace(host_);
    }
  }
  PyGraph(const PyGraph&) = delete;
  PyGraph& operator=(const PyGraph&) = delete;

  vid_t vertices() const { return host_.nrows; }
  eid_t edges() const { return host_.nnz(); }
  bool weighted() const { return !host_.is_pattern(); }
  bool on_gpu() const { return selected_.backend == Backend::Gpu; }
  const std::string& description() const { return selected_.description; }

  // Runs f(graph) on this graph's backend, the GIL released, one call at a time; *seconds gets
  // the call's wall time (the library's work and the result's copy into the arrays handed to
  // Python, without the GIL's release and re-acquisition or Python's own work). A GPU
  // ResourceError gets the apps' hint that the CPU backend runs it.
  template <class F>
  auto run(double* seconds, F&& f) {
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto start = std::chrono::steady_clock::now();
    auto stop = [&] { *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    try {
#if SPGRAPH_HAVE_GPU
      if (gpu_) {
        auto r = f(*gpu_);
        stop();
        return r;
      }
#endif
      auto r = f(*cpu_);
      stop();
      return r;
    } catch (const ResourceError& e) {
      if (!on_gpu()) throw;
      throw ResourceError(std::string(e.what()) +
                          "; the graph does not fit the GPU (backend='cpu' runs it on the CPU)");
    }
  }

  // The host arrays (what the graph was built from), for Python: copies.
  nb::tuple host_arrays() const {
    std::vector<eid_t> rowptr = host_.rowptr;
    std::vector<vid_t> col = host_.col;
    nb::object val = nb::none();
    if (!host_.is_pattern()) val = nb::cast(to_numpy(std::vector<double>(host_.val)));
    return nb::make_tuple(to_numpy(std::move(rowptr)), to_numpy(std::move(col)), val);
  }

 private:
  Csr<double> host_;  // before the graphs, which point to it
  Selected selected_;
  std::mutex mutex_;
#if SPGRAPH_HAVE_GPU
  std::optional<Graph<gpu::GpuBackend>> gpu_;
#endif
  std::optional<Graph<graphblas::GraphBlasBackend>> cpu_;
};

std::unique_ptr<PyGraph> make_graph(std::int64_t nrows, std::int64_t ncols, const AnyArray& indptr,
                                    const AnyArray& indices, const std::optional<AnyArray>& data, bool values,
                                    const std::string& backend) {
  Selected selected = select_backend(backend);  // the GPU's start, when it is chosen
  Csr<double> host;
  {
    nb::gil_scoped_release release;
    host = csr_from_arrays(nrows, ncols, indptr, indices, data, values);
  }
  return std::make_unique<PyGraph>(std::move(host), std::move(selected));
}

// ---- algorithms -------------------------------------------------------------------------

algorithms::ToleranceMode tolerance_mode(const std::string& s) {
  if (s == "l1") return algorithms::ToleranceMode::L1;
  if (s == "networkx") return algorithms::ToleranceMode::NetworkX;
  throw nb::value_error(("tol_mode must be 'l1' or 'networkx', not '" + s + "'").c_str());
}

algorithms::PageRankLoop pagerank_loop(const std::string& s) {
  if (s == "auto") return algorithms::PageRankLoop::Auto;
  if (s == "host") return algorithms::PageRankLoop::Host;
  if (s == "device") return algorithms::PageRankLoop::Device;
  if (s == "operations") return algorithms::PageRankLoop::Operations;
  throw nb::value_error(("loop must be 'auto', 'host', 'device' or 'operations', not '" + s + "'").c_str());
}

template <class V>
nb::tuple pagerank_as(PyGraph& g, const algorithms::PageRankOptions& o) {
  double native = 0;
  auto r = g.run(&native, [&](auto& graph) { return algorithms::pagerank<V>(graph, o); });
  nb::dict info;
  info["native_seconds"] = native;
  info["iterations"] = r.iterations;
  info["change"] = r.change;
  info["converged"] = r.converged;
  info["upload_seconds"] = r.upload_seconds;
  info["solve_seconds"] = r.solve_seconds;
  info["iterate_seconds"] = r.iterate_seconds;
  info["device_loop"] = r.device_loop;
  info["tolerance"] = o.tolerance_mode == algorithms::ToleranceMode::NetworkX ? o.tolerance * g.vertices()
                                                                                 : o.tolerance;
  return nb::make_tuple(to_numpy(std::move(r.rank)), info);
}

nb::tuple pagerank(PyGraph& g, double damping, double tol, int max_iter, int iterations, const std::string& mode,
                   const std::string& precision, const std::string& loop) {
  algorithms::PageRankOptions o;
  o.damping = damping;
  o.tolerance = tol;
  o.tolerance_mode = tolerance_mode(mode);
  o.max_iterations = max_iter;
  o.fixed_iterations = iterations;
  o.loop = pagerank_loop(loop);
  if (precision == "double") return pagerank_as<double>(g, o);
  if (precision == "float") return pagerank_as<float>(g, o);
  throw nb::value_error(("precision must be 'double' or 'float', not '" + precision + "'").c_str());
}

nb::tuple triangle_count(PyGraph& g, bool per_vertex, const std::string& method, const std::string& presort,
                         bool materialize) {
  algorithms::TriangleCountOptions o;
  const auto m = algorithms::triangle_method_from_string(method);
  if (!m)
    throw nb::value_error(("method must be one of 'burkhardt', 'cohen', 'sandia', 'sandia2', 'sandia-dot', "
                           "'sandia-dot2', not '" + method + "'").c_str());
  o.method = *m;
  if (presort == "auto") o.presort = algorithms::TrianglePresort::Auto;
  else if (presort == "none") o.presort = algorithms::TrianglePresort::None;
  else if (presort == "ascending") o.presort = algorithms::TrianglePresort::Ascending;
  else if (presort == "descending") o.presort = algorithms::TrianglePresort::Descending;
  else
    throw nb::value_error(
        ("presort must be 'auto', 'none', 'ascending' or 'descending', not '" + presort + "'").c_str());
  o.per_vertex = per_vertex;
  o.materialize = materialize;
  double native = 0;
  auto r = g.run(&native, [&](auto& graph) { return algorithms::triangle_count(graph, o); });
  nb::dict info;
  info["native_seconds"] = native;
  info["triangles"] = r.triangles;
  info["method"] = algorithms::to_string(r.method);
  info["presort"] = algorithms::to_string(r.presort);
  info["undirected_edges"] = r.undirected_edges;
  info["build_seconds"] = r.build_seconds;
  info["count_seconds"] = r.count_seconds;
  info["per_vertex_seconds"] = r.per_vertex_seconds;
  nb::object pv = nb::none();
  if (per_vertex) pv = nb::cast(to_numpy(std::move(r.per_vertex)));
  return nb::make_tuple(r.triangles, pv, info);
}

std::vector<vid_t> checked_sources(const AnyArray& sources, vid_t n) {
  std::vector<vid_t> out(sources.shape(0));
  with_integers(sources, "sources", [&](const auto* p) {
    for (std::size_t k = 0; k < out.size(); ++k) {
      const long long s = static_cast<long long>(p[k]);
      if (s < 0 || s >= n)  // the library's own message, before narrowing to 32 bits
        throw Error("msbfs: source " + std::to_string(s) + " (sources[" + std::to_string(k) +
                    "]) is not a vertex of the graph (0.." + std::to_string(static_cast<long long>(n) - 1) + ")");
      out[k] = static_cast<vid_t>(s);
    }
  });
  return out;
}

algorithms::MsbfsOptions msbfs_options(bool parents, const std::string& direction, int batch,
                                       const std::string& form) {
  algorithms::MsbfsOptions o;
  o.parents = parents;
  if (direction == "out") o.direction = algorithms::BfsDirection::Out;
  else if (direction == "in") o.direction = algorithms::BfsDirection::In;
  else throw nb::value_error(("direction must be 'out' or 'in', not '" + direction + "'").c_str());
  o.batch = batch;
  if (form == "auto") o.form = algorithms::MsbfsForm::Auto;
  else if (form == "matrix") o.form = algorithms::MsbfsForm::Matrix;
  else throw nb::value_error(("form must be 'auto' or 'matrix', not '" + form + "'").c_str());
  return o;
}

nb::dict msbfs_info(const algorithms::MsbfsSummary& s) {
  nb::dict info;
  info["reached"] = to_numpy(std::vector<std::int64_t>(s.reached));
  info["depth"] = to_numpy(std::vector<std::int32_t>(s.depth));
  info["edges_traversed"] = s.edges_traversed;
  info["seconds"] = s.seconds;
  return info;
}

// Levels (k x n, int32; -1 unreached) and parents (k x n; -1 for none) of each source.
nb::tuple msbfs(PyGraph& g, const AnyArray& sources, bool parents, const std::string& direction, int batch,
                const std::string& form) {
  const vid_t n = g.vertices();
  std::vector<vid_t> src = checked_sources(sources, n);
  const auto o = msbfs_options(parents, direction, batch, form);
  const std::size_t k = src.size(), nn = static_cast<std::size_t>(n);
  std::vector<std::int32_t> level;
  std::vector<vid_t> parent;
  double native = 0;
  algorithms::MsbfsSummary summary = g.run(&native, [&](auto& graph) {
    level.resize(k * nn);  // allocated without the GIL: k * n * 4 bytes can be large
    if (parents) parent.resize(k * nn);
    return algorithms::msbfs(
        graph, src,
        [&](const algorithms::MsbfsBatch& b) {
          std::memcpy(level.data() + b.first * nn, b.level.data(), b.count * nn * sizeof(std::int32_t));
          if (parents) std::memcpy(parent.data() + b.first * nn, b.parent.data(), b.count * nn * sizeof(vid_t));
        },
        o);
  });
  nb::object p = nb::none();
  if (parents) p = nb::cast(to_numpy_2d(std::move(parent), k, nn));
  nb::dict info = msbfs_info(summary);
  info["native_seconds"] = native;
  return nb::make_tuple(to_numpy_2d(std::move(level), k, nn), p, info);
}

// The level of each vertex from the nearest of the sources (-1 unreached): a BFS from all of
// them at once, as networkx's bfs_layers defines one; each batch folded in as it finishes, so
// memory stays n, not k * n.
nb::tuple bfs_nearest(PyGraph& g, const AnyArray& sources, const std::string& direction) {
  const vid_t n = g.vertices();
  std::vector<vid_t> src = checked_sources(sources, n);
  const auto o = msbfs_options(false, direction, 64, "auto");
  const std::size_t nn = static_cast<std::size_t>(n);
  std::vector<std::int32_t> nearest;
  double native = 0;
  algorithms::MsbfsSummary summary = g.run(&native, [&](auto& graph) {
    nearest.assign(nn, algorithms::kUnreached);
    return algorithms::msbfs(
        graph, src,
        [&](const algorithms::MsbfsBatch& b) {
          for (std::size_t s = 0; s < b.count; ++s) {
            const std::int32_t* l = b.level.data() + s * nn;
            for (std::size_t v = 0; v < nn; ++v)
              if (l[v] >= 0 && (nearest[v] < 0 || l[v] < nearest[v])) nearest[v] = l[v];
          }
        },
        o);
  });
  return nb::make_tuple(to_numpy(std::move(nearest)), msbfs_info(summary));
}

nb::tuple mcl(PyGraph& g, double inflation, std::optional<int> scheme, std::optional<std::int64_t> prune,
              std::optional<std::int64_t> select, std::optional<std::int64_t> recover,
              std::optional<int> recover_percent, std::optional<std::int64_t> max_iter, std::size_t memory_budget) {
  algorithms::MclOptions o;
  if (scheme) o = algorithms::mcl_scheme(*scheme, o);
  o.inflation = inflation;
  if (prune) o.prune_number = *prune;
  if (select) o.select_number = *select;
  if (recover) o.recover_number = *recover;
  if (recover_percent) o.recover_percent = *recover_percent;
  if (max_iter) o.max_iterations = *max_iter;
  o.memory_budget = memory_budget;
  const vid_t n = g.vertices();
  std::vector<std::int32_t> cluster;
  double native = 0;
  algorithms::MclResult r = g.run(&native, [&](auto& graph) {
    auto result = algorithms::mcl(graph, o);
    cluster.assign(static_cast<std::size_t>(n), -1);
    for (std::size_t c = 0; c < result.clusters.size(); ++c)
      for (vid_t v : result.clusters[c]) {
        if (v < 0 || v >= n || cluster[v] != -1)
          throw Error("mcl: the clusters name vertex " + std::to_string(v) + " out of range or twice, in a graph of " +
                      std::to_string(n) + " vertices (an internal error; please report it)");
        cluster[v] = static_cast<std::int32_t>(c);
      }
    return result;
  });
  nb::dict info;
  info["native_seconds"] = native;
  info["clusters"] = r.clusters.size();
  info["iterations"] = r.iterations;
  info["final_chaos"] = r.final_chaos;
  info["converged"] = r.converged;
  info["build_seconds"] = r.build_seconds;
  info["iterate_seconds"] = r.iterate_seconds;
  info["interpret_seconds"] = r.interpret_seconds;
  info["max_iter"] = o.max_iterations;
  return nb::make_tuple(to_numpy(std::move(cluster)), info);
}

// ---- load and save ----------------------------------------------------------------------

Duplicates duplicates_policy(const std::string& s) {
  if (s == "error") return Duplicates::Error;
  if (s == "sum") return Duplicates::Sum;
  if (s == "max") return Duplicates::Max;
  if (s == "first") return Duplicates::First;
  throw nb::value_error(("duplicates must be 'error', 'sum', 'max' or 'first', not '" + s + "'").c_str());
}

nb::tuple load(const std::string& path, const std::string& duplicates, bool compact_ids, bool trust_vertex_count,
               const std::optional<std::string>& format, bool require_nonnegative_weights) {
  io::LoadOptions o;
  o.duplicates = duplicates_policy(duplicates);
  o.compact_ids = compact_ids;
  o.trust_vertex_count = trust_vertex_count;
  o.require_nonnegative_weights = require_nonnegative_weights;
  if (format) {
    if (*format == "mtx") o.format = io::GraphFormat::MatrixMarket;
    else if (*format == "edges") o.format = io::GraphFormat::EdgeList;
    else if (*format == "abc") o.format = io::GraphFormat::Abc;
    else if (*format == "spgcsr") o.format = io::GraphFormat::Cache;
    else
      throw nb::value_error(
          ("format must be None (by the file name), 'mtx', 'edges', 'abc' or 'spgcsr', not '" + *format + "'")
              .c_str());
  }
  io::LoadedGraph g;
  {
    nb::gil_scoped_release release;
    g = io::load_graph(path, o);
  }
  nb::object val = nb::none();
  if (!g.matrix.is_pattern()) val = nb::cast(to_numpy(std::move(g.matrix.val)));
  nb::object labels = nb::none();
  if (!g.labels.empty()) labels = nb::cast(g.labels);
  return nb::make_tuple(nb::make_tuple(g.matrix.nrows, g.matrix.ncols), to_numpy(std::move(g.matrix.rowptr)),
                        to_numpy(std::move(g.matrix.col)), val, labels, g.id_base, g.format);
}

nb::tuple save(const std::string& path, std::int64_t nrows, std::int64_t ncols, const AnyArray& indptr,
               const AnyArray& indices, const std::optional<AnyArray>& data,
               const std::optional<std::vector<std::string>>& labels, int id_base,
               const std::optional<std::string>& format) {
  io::SaveFormat f;
  if (!format) {
    const auto by_name = io::save_format_by_name(path);
    if (!by_name)
      throw Error(path + ": the file name does not say which format to write (.mtx, .abc, .spgcsr, or an edge list: "
                         ".txt .tsv .csv .el .edges .edgelist .snap; .gz for compressed text); pass format=");
    f = *by_name;
  } else if (*format == "mtx") f = io::SaveFormat::MatrixMarket;
  else if (*format == "edges") f = io::SaveFormat::EdgeList;
  else if (*format == "abc") f = io::SaveFormat::Abc;
  else if (*format == "spgcsr") f = io::SaveFormat::Cache;
  else
    throw nb::value_error(
        ("format must be None (by the file name), 'mtx', 'edges', 'abc' or 'spgcsr', not '" + *format + "'").c_str());
  io::SaveResult r;
  {
    nb::gil_scoped_release release;
    io::LoadedGraph g;
    g.matrix = csr_from_arrays(nrows, ncols, indptr, indices, data, true);
    if (labels) {
      if (labels->size() != static_cast<std::size_t>(g.matrix.nrows))
        throw Error("names has " + std::to_string(labels->size()) + " entries for " +
                    std::to_string(g.matrix.nrows) + " vertices");
      g.labels = *labels;
    }
    g.id_base = id_base;
    r = io::save_graph(path, g, f);
  }
  return nb::make_tuple(r.vertices, r.edges, r.notes);
}

// ---- networkx adjacency -----------------------------------------------------------------

// A networkx graph's adjacency, G._adj (a dict: node -> dict: neighbour -> edge data dict; for
// a multigraph neighbour -> dict: key -> edge data dict), read into CSR arrays in node order
// (the order of G._adj) without a Python loop. Returns (indptr int64, indices int32, weights
// float64 or None, adjacency position int32 or None):
//   weights     with `weight` given: each edge's data[weight], `default` where absent, summed over
//               a multigraph's parallel edges; without it, None for a simple graph and the
//               count of parallel edges for a multigraph;
//   position    where the rows had to be sorted: for each stored entry, its place in the
//               node's adjacency as networkx iterates it (bfs_layers' order needs it).
// Raises KeyError where a neighbour is not a node (not possible for a well-formed graph).
nb::tuple adjacency_to_csr(nb::dict adj, std::optional<std::string> weight, double default_weight, bool multigraph) {
  const Py_ssize_t n = PyDict_Size(adj.ptr());
  if (n > std::numeric_limits<vid_t>::max())
    throw Error("the graph has " + std::to_string(n) + " nodes; spgraph's vertex ids are 32-bit");
  // Node ids: identity where the nodes are 0..n-1 in order (the common case), else a dict.
  bool identity = true;
  {
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (PyDict_Next(adj.ptr(), &pos, &key, &value)) {
      if (!PyLong_CheckExact(key) || PyLong_AsLongLong(key) != i) {
        PyErr_Clear();
        identity = false;
        break;
      }
      ++i;
    }
  }
  nb::dict index;
  if (!identity) {
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (PyDict_Next(adj.ptr(), &pos, &key, &value)) {
      nb::object iv = nb::int_(i++);
      if (PyDict_SetItem(index.ptr(), key, iv.ptr()) != 0) throw nb::python_error();
    }
  }
  nb::object wkey = weight ? nb::object(nb::str(weight->c_str())) : nb::object();
  const bool with_weights = weight.has_value() || multigraph;

  std::vector<eid_t> rowptr(static_cast<std::size_t>(n) + 1, 0);
  std::vector<vid_t> col;
  std::vector<double> val;
  auto edge_weight = [&](PyObject* data) -> double {
    if (!weight) return 1.0;
    if (!PyDict_Check(data)) throw nb::type_error("an edge's data is not a dict");
    PyObject* w = PyDict_GetItemWithError(data, wkey.ptr());
    if (!w) {
      if (PyErr_Occurred()) throw nb::python_error();
      return default_weight;
    }
    const double x = PyFloat_AsDouble(w);
    if (x == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return x;
  };
  {
    Py_ssize_t pos = 0, total = 0;
    PyObject *node, *nbrs;
    while (PyDict_Next(adj.ptr(), &pos, &node, &nbrs)) {
      if (!PyDict_Check(nbrs)) throw nb::type_error("G._adj[node] is not a dict");
      total += PyDict_Size(nbrs);
    }
    col.reserve(static_cast<std::size_t>(total));
    if (with_weights) val.reserve(static_cast<std::size_t>(total));
  }
  Py_ssize_t pos = 0, row = 0;
  PyObject *node, *nbrs;
  while (PyDict_Next(adj.ptr(), &pos, &node, &nbrs)) {
    Py_ssize_t p2 = 0;
    PyObject *nbr, *data;
    while (PyDict_Next(nbrs, &p2, &nbr, &data)) {
      long long c;
      if (identity) {
        c = PyLong_AsLongLong(nbr);
        if (c == -1 && PyErr_Occurred()) throw nb::python_error();
      } else {
        PyObject* iv = PyDict_GetItemWithError(index.ptr(), nbr);
        if (!iv) {
          if (PyErr_Occurred()) throw nb::python_error();
          PyErr_SetObject(PyExc_KeyError, nbr);
          throw nb::python_error();
        }
        c = PyLong_AsLongLong(iv);
      }
      if (c < 0 || c >= n) throw Error("a neighbour in G._adj is not a node of the graph");
      col.push_back(static_cast<vid_t>(c));
      if (with_weights) {
        if (multigraph) {
          if (!PyDict_Check(data)) throw nb::type_error("a multigraph's G._adj[u][v] is not a dict");
          double sum = 0;
          Py_ssize_t p3 = 0;
          PyObject *ekey, *edata;
          while (PyDict_Next(data, &p3, &ekey, &edata)) sum += edge_weight(edata);
          val.push_back(sum);
        } else {
          val.push_back(edge_weight(data));
        }
      }
    }
    rowptr[static_cast<std::size_t>(++row)] = static_cast<eid_t>(col.size());
  }

  // Sort each row by column (networkx keeps insertion order), remembering where each entry was:
  // two counting-sort transposes, linear in the links (a comparison sort per row cost 3x more).
  std::vector<std::int32_t> position;
  {
    nb::gil_scoped_release release;
    const std::size_t nn = static_cast<std::size_t>(n), m = col.size();
    bool sorted = true;
    for (std::size_t i = 0; i < nn && sorted; ++i)
      for (eid_t p = rowptr[i] + 1; p < rowptr[i + 1]; ++p)
        if (col[p] <= col[p - 1]) {
          sorted = false;
          break;
        }
    if (!sorted) {
      // A' by counting sort on the columns: its rows (our columns) list our rows ascending.
      std::vector<eid_t> tptr(nn + 1, 0);
      for (vid_t c : col) ++tptr[static_cast<std::size_t>(c) + 1];
      for (std::size_t c = 0; c < nn; ++c) tptr[c + 1] += tptr[c];
      std::vector<eid_t> next(tptr.begin(), tptr.end() - 1);
      std::vector<vid_t> trow(m);
      std::vector<eid_t> tentry(m);
      for (std::size_t i = 0; i < nn; ++i)
        for (eid_t p = rowptr[i]; p < rowptr[i + 1]; ++p) {
          const eid_t q = next[static_cast<std::size_t>(col[p])]++;
          trow[q] = static_cast<vid_t>(i);
          tentry[q] = p;
        }
      // And back: walking A' by ascending column fills each of our rows in column order.
      std::vector<vid_t> scol(m);
      std::vector<double> sval(with_weights ? m : 0);
      position.resize(m);
      std::copy(rowptr.begin(), rowptr.end() - 1, next.begin());
      for (std::size_t c = 0; c < nn; ++c)
        for (eid_t q = tptr[c]; q < tptr[c + 1]; ++q) {
          const vid_t i = trow[q];
          const eid_t p = tentry[q], r = next[static_cast<std::size_t>(i)]++;
          scol[r] = static_cast<vid_t>(c);
          position[r] = static_cast<std::int32_t>(p - rowptr[i]);
          if (with_weights) sval[r] = val[p];
        }
      col.swap(scol);
      if (with_weights) val.swap(sval);
    }
  }
  nb::object w = nb::none(), p = nb::none();
  if (with_weights) w = nb::cast(to_numpy(std::move(val)));
  if (!position.empty()) p = nb::cast(to_numpy(std::move(position)));
  return nb::make_tuple(to_numpy(std::move(rowptr)), to_numpy(std::move(col)), w, p);
}

nb::dict build_info() {
  nb::dict info;
  const Probe* p;
  {
    nb::gil_scoped_release release;
    p = &probe();
  }
  info["gpu_backend"] = static_cast<bool>(SPGRAPH_HAVE_GPU);
  info["gpu_available"] = p->gpu;
  info["gpu"] = p->gpu_description;
  info["no_gpu_reason"] = p->why;
  info["cpu"] = p->cpu_description.substr(5);  // without "cpu ("
  info["graphblas"] = std::to_string(GxB_IMPLEMENTATION_MAJOR) + "." + std::to_string(GxB_IMPLEMENTATION_MINOR) +
                      "." + std::to_string(GxB_IMPLEMENTATION_SUB);
  return info;
}

}  // namespace
}  // namespace spgraph::python

NB_MODULE(_spgraph, m) {
  using namespace spgraph::python;
  m.doc() = "spgraph's native module (nanobind over libspgraph); use the spgraph package instead.";

  nb::module_ errors = nb::module_::import_("spgraph._errors");
  py_error = errors.attr("Error").ptr();
  py_resource_error = errors.attr("ResourceError").ptr();
  py_parse_error = errors.attr("ParseError").ptr();
  Py_INCREF(py_error);
  Py_INCREF(py_resource_error);
  Py_INCREF(py_parse_error);
  nb::register_exception_translator(translate);

  nb::class_<PyGraph>(m, "NativeGraph")
      .def_prop_ro("vertices", &PyGraph::vertices)
      .def_prop_ro("edges", &PyGraph::edges)
      .def_prop_ro("weighted", &PyGraph::weighted)
      .def_prop_ro("on_gpu", &PyGraph::on_gpu)
      .def_prop_ro("description", &PyGraph::description)
      .def("host_arrays", &PyGraph::host_arrays);

  m.def("make_graph", &make_graph, "nrows"_a, "ncols"_a, "indptr"_a, "indices"_a, "data"_a.none(), "values"_a,
        "backend"_a);
  m.def("pagerank", &pagerank, "graph"_a, "damping"_a, "tol"_a, "max_iter"_a, "iterations"_a, "tol_mode"_a,
        "precision"_a, "loop"_a);
  m.def("triangle_count", &triangle_count, "graph"_a, "per_vertex"_a, "method"_a, "presort"_a, "materialize"_a);
  m.def("msbfs", &msbfs, "graph"_a, "sources"_a, "parents"_a, "direction"_a, "batch"_a, "form"_a);
  m.def("bfs_nearest", &bfs_nearest, "graph"_a, "sources"_a, "direction"_a);
  m.def("mcl", &mcl, "graph"_a, "inflation"_a, "scheme"_a.none(), "prune"_a.none(), "select"_a.none(),
        "recover"_a.none(), "recover_percent"_a.none(), "max_iter"_a.none(), "memory_budget"_a);
  m.def("load", &load, "path"_a, "duplicates"_a, "compact_ids"_a, "trust_vertex_count"_a, "format"_a.none(),
        "require_nonnegative_weights"_a);
  m.def("save", &save, "path"_a, "nrows"_a, "ncols"_a, "indptr"_a, "indices"_a, "data"_a.none(), "labels"_a.none(),
        "id_base"_a, "format"_a.none());
  m.def("adjacency_to_csr", &adjacency_to_csr, "adj"_a, "weight"_a.none(), "default"_a, "multigraph"_a);
  m.def("build_info", &build_info);
}
