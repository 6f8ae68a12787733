"""spgraph.Graph and the four algorithms."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp

from . import _spgraph
from ._convert import CsrParts, csr_parts
from ._errors import ConvergenceWarning, Error

_BACKENDS = ("auto", "gpu", "cpu")


def _check_backend(backend: str) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"backend must be 'auto', 'gpu' or 'cpu', not {backend!r}")


class Graph:
    """A graph built once on a backend and reused by every call on it.

    ``Graph(A, backend="auto")`` copies A's CSR arrays once into spgraph's host CSR and picks the
    backend; the first algorithm run on it builds what it needs there (on the GPU: the upload of
    the pattern, its transpose, the degrees, the undirected form) and keeps it, so later calls
    pay neither the GPU's start nor the upload again. Row i of A lists vertex i's out-links.

    A: a square scipy.sparse matrix or array (any format; CSR is read without conversion), a
       2-D NumPy array (its non-zeros are the links), or a networkx graph (vertex i is
       ``graph.nodes[i]``, i.e. ``list(G)[i]``; each edge's ``weight`` attribute, 1 where
       absent, is its weight).
    backend: "auto" (the GPU when one is usable, else SuiteSparse:GraphBLAS on the CPU), "gpu"
       (an error where there is no usable GPU) or "cpu". ``description`` says what runs, as the
       apps' ``backend:`` line does.
    weights: keep the weights (MCL uses them; PageRank, triangle counting and BFS read only the
       pattern). False keeps the pattern alone, which saves 8 bytes a link. Weights must be
       finite: a NaN or infinite one is an spgraph.Error naming its link, as in every file format.

    Calls on one Graph run one at a time, with the GIL released: other Python threads run
    meanwhile. The algorithms are also methods: ``g.pagerank()`` is ``spgraph.pagerank(g)``.
    """

    def __init__(self, A, backend: str = "auto", *, weights: bool = True):
        _check_backend(backend)
        if isinstance(A, Graph):
            raise TypeError("A is already an spgraph.Graph; use it as it is")
        parts = A if isinstance(A, CsrParts) else csr_parts(A)
        self.why_chosen = ""
        if backend == "auto":
            backend, self.why_chosen = _by_threshold(len(parts.indices))
        self._native = _spgraph.make_graph(
            parts.nrows, parts.ncols, parts.indptr, parts.indices, parts.data, bool(weights), backend
        )
        self.nodes = parts.nodes
        self._index = None

    # ---- what it is -------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Vertices."""
        return self._native.vertices

    @property
    def nnz(self) -> int:
        """Stored links (an undirected edge stored both ways counts twice)."""
        return self._native.edges

    @property
    def shape(self) -> tuple[int, int]:
        return (self.n, self.n)

    @property
    def backend(self) -> str:
        """"gpu" or "cpu": where this graph's calls run."""
        return "gpu" if self._native.on_gpu else "cpu"

    @property
    def description(self) -> str:
        """What runs, as the apps print it: "gpu (NVIDIA H200 (sm_90, 139.8 GiB))" or "cpu
        (SuiteSparse:GraphBLAS 7.4.0, 16 threads; no NVIDIA driver found)", and why auto chose
        it where SPGRAPH_GPU_THRESHOLD decided."""
        d = self._native.description
        return f"{d}, chosen by backend='auto': {self.why_chosen}" if self.why_chosen else d

    @property
    def weighted(self) -> bool:
        return self._native.weighted

    def __repr__(self) -> str:
        return f"<spgraph.Graph: {self.n} vertices, {self.nnz} links, {self.description}>"

    def to_scipy(self) -> sp.csr_array:
        """The host CSR this graph was built from (a copy), as a scipy.sparse.csr_array."""
        indptr, indices, data = self._native.host_arrays()
        if data is None:
            data = np.ones(len(indices))
        return sp.csr_array((data, indices, indptr), shape=self.shape)

    def vertex_ids(self, vertices) -> np.ndarray:
        """Vertex numbers (int64) of `vertices`: networkx nodes for a graph built from networkx,
        else the numbers themselves."""
        if self.nodes is None:
            if not isinstance(vertices, np.ndarray):
                vertices = list(vertices)
            ids = np.asarray(vertices)
            if ids.size == 0:
                return np.zeros(0, np.int64)
            if ids.dtype.kind not in "iu":
                raise TypeError(f"sources must be vertex numbers (integers), not {ids.dtype} values")
            return ids.astype(np.int64, copy=False).reshape(-1)
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        try:
            return np.fromiter((self._index[v] for v in vertices), np.int64)
        except KeyError as e:
            raise Error(f"source {e.args[0]!r} is not a node of the graph") from None

    # ---- algorithms -------------------------------------------------------------------
    def pagerank(self, damping: float = 0.85, tol: float = 1e-6, max_iter: int = 100, *,
                 precision: str = "double", tol_mode: str = "l1", iterations: int | None = None,
                 loop: str = "auto", return_info: bool = False, warn: bool = True):
        """See :func:`spgraph.pagerank`."""
        if isinstance(precision, type) or isinstance(precision, np.dtype):
            precision = {np.dtype(np.float64): "double", np.dtype(np.float32): "float"}.get(
                np.dtype(precision), str(np.dtype(precision)))
        ranks, info = _spgraph.pagerank(self._native, float(damping), float(tol), _int(max_iter, "max_iter"),
                                        0 if iterations is None else _int(iterations, "iterations"),
                                        tol_mode, precision, loop)
        info["backend"] = self.description
        if warn and not info["converged"]:
            warnings.warn(
                f"PageRank did not converge: L1 change {info['change']:.3g} after {info['iterations']} "
                f"iterations is not below {info['tolerance']:.3g} (raise max_iter or tol)",
                ConvergenceWarning, stacklevel=3)
        return (ranks, info) if return_info else ranks

    def triangle_count(self, per_vertex: bool = False, method: str = "sandia-dot", *, presort: str = "auto",
                       materialize: bool = False, return_info: bool = False):
        """See :func:`spgraph.triangle_count`."""
        total, counts, info = _spgraph.triangle_count(self._native, bool(per_vertex), method, presort,
                                                      bool(materialize))
        info["backend"] = self.description
        result = counts if per_vertex else int(total)
        return (result, info) if return_info else result

    def msbfs(self, sources, parents: bool = False, *, direction: str = "out", batch: int = 64,
              form: str = "auto", return_info: bool = False):
        """See :func:`spgraph.msbfs`."""
        if self.nodes is not None:
            single = _is_node(self, sources)
        else:
            single = np.ndim(sources) == 0 and not isinstance(sources, Iterable)
        src = self.vertex_ids([sources] if single else sources)
        levels, pars, info = _spgraph.msbfs(self._native, src, bool(parents), direction, _int(batch, "batch"), form)
        info["backend"] = self.description
        if single:
            levels = levels[0]
            pars = pars[0] if pars is not None else None
        result = (levels, pars) if parents else levels
        return (result, info) if return_info else result

    def mcl(self, inflation: float = 2.0, *, scheme: int | None = None, prune: int | None = None,
            select: int | None = None, recover: int | None = None, recover_percent: int | None = None,
            max_iter: int | None = None, memory_budget: int = 0, return_info: bool = False,
            warn: bool = True):
        """See :func:`spgraph.mcl`."""
        clusters, info = _spgraph.mcl(self._native, float(inflation), _opt_int(scheme, "scheme"),
                                      _opt_int(prune, "prune"), _opt_int(select, "select"),
                                      _opt_int(recover, "recover"), _opt_int(recover_percent, "recover_percent"),
                                      _opt_int(max_iter, "max_iter"), _int(memory_budget, "memory_budget"))
        info["backend"] = self.description
        if warn and not info["converged"]:
            warnings.warn(
                f"MCL stopped after {info['iterations']} iterations (max_iter) with chaos "
                f"{info['final_chaos']:.3g}, not below 1e-4: the clusters are those of the last matrix, "
                "as mcl -L gives them", ConvergenceWarning, stacklevel=3)
        return (clusters, info) if return_info else clusters


def _by_threshold(links: int) -> tuple[str, str]:
    """backend="auto" under SPGRAPH_GPU_THRESHOLD=LINKS, as the apps read it: the CPU below that
    many links. Unset: "auto" (the GPU whenever one is usable; docs/python.md says why the apps'
    per-app thresholds do not apply here)."""
    text = os.environ.get("SPGRAPH_GPU_THRESHOLD")
    if text is None:
        return "auto", ""
    if not text.isdigit():
        raise Error(f"SPGRAPH_GPU_THRESHOLD={text}: expected a number of links, from which --backend auto runs "
                    "on the GPU (0: whenever one is usable)")
    threshold = int(text)
    if links >= threshold:
        return "auto", ""
    return "cpu", f"{links:,} links is below the GPU threshold of {threshold:,} (SPGRAPH_GPU_THRESHOLD)"


def _is_node(g: Graph, v) -> bool:
    if g._index is None:
        g._index = {u: i for i, u in enumerate(g.nodes)}
    try:
        return v in g._index
    except TypeError:
        return False


def _int(x, name: str) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        if isinstance(x, float) and x.is_integer():
            return int(x)
        raise TypeError(f"{name} must be an integer, not {x!r}")
    return int(x)


def _opt_int(x, name: str):
    return None if x is None else _int(x, name)


def graph_for(A, backend: str, *, weights: bool) -> Graph:
    """A itself when it is a Graph (then `backend` must be "auto" or its own), else a Graph
    built for this one call."""
    _check_backend(backend)
    if isinstance(A, Graph):
        if backend not in ("auto", A.backend):
            raise ValueError(f"backend={backend!r}, but this spgraph.Graph lives on the {A.backend} backend")
        return A
    return Graph(A, backend, weights=weights)


# ---- the functions ----------------------------------------------------------------------

def pagerank(A, damping: float = 0.85, tol: float = 1e-6, max_iter: int = 100, *, precision: str = "double",
             tol_mode: str = "l1", iterations: int | None = None, backend: str = "auto", loop: str = "auto",
             return_info: bool = False):
    """PageRank by power iteration, as LAGraph, networkx and LDBC Graphalytics define it.

    r_0 = 1/n;  r_{k+1}(i) = (1 - d)/n + d * dangling_k / n + d * sum_{j -> i} r_k(j) / outdeg(j)

    with d the damping factor and dangling_k the rank held by vertices without out-links, spread
    evenly over all vertices, so the ranks always sum to 1. Edge weights are ignored: only the
    graph's pattern counts (LAGraph and Graphalytics do the same; networkx would weight links).
    Self-loops are links like any other. Row i of A lists the out-links of vertex i.

    Stopping: after iteration k the L1 change is sum_i |r_k(i) - r_{k-1}(i)|; the run has
    converged when it is below `tol` (tol_mode="l1", LAGraph's rule) or below n * tol
    (tol_mode="networkx", networkx.pagerank's rule), and stops unconverged after `max_iter`
    iterations with a :class:`spgraph.ConvergenceWarning` (the app exits 3). ``iterations=K``
    instead runs exactly K iterations with no tolerance test (Graphalytics' definition).

    Parameters: A (see :class:`spgraph.Graph`; a Graph is reused), damping in [0, 1], tol > 0,
    max_iter >= 1, precision "double" or "float" (the ranks' type; sums are accumulated in double
    either way), backend "auto" | "gpu" | "cpu", loop (GPU only: "auto", "host", "device",
    "operations"; how the iterations are queued).

    Returns the ranks, a NumPy array (float64, or float32 for precision="float") indexed by
    vertex; with ``return_info=True`` also a dict: iterations, change, converged, tolerance,
    upload_seconds, solve_seconds, iterate_seconds (the library's own clocks), device_loop,
    native_seconds (the library call's wall time, without Python's), backend. Raises spgraph.Error for a graph without vertices, a matrix that is not square and
    options out of range, with the apps' messages.
    """
    g = graph_for(A, backend, weights=False)
    return g.pagerank(damping, tol, max_iter, precision=precision, tol_mode=tol_mode, iterations=iterations,
                      loop=loop, return_info=return_info)


def triangle_count(A, per_vertex: bool = False, method: str = "sandia-dot", *, presort: str = "auto",
                   materialize: bool = False, backend: str = "auto", return_info: bool = False):
    """Triangles of the undirected simple graph under A, as LAGraph's LAGr_TriangleCount counts
    them: self-loops dropped, direction ignored, repeated and reciprocal links merged; weights
    ignored. The count is 64-bit and the same by each method. With A that graph's symmetric
    pattern, L = tril(A, -1) and U = triu(A, 1), each counts with the plus-pair semiring:

        "burkhardt"   sum((A * A) .* A) / 6        "sandia"       sum((L * L) .* L)
        "cohen"       sum((L * U) .* A) / 2        "sandia2"      sum((U * U) .* U)
        "sandia-dot"  sum((L * U') .* L) (default) "sandia-dot2"  sum((U * L') .* U)

    presort: "auto" (LAGraph's rule: relabel by degree when n > 1000, the mean degree is at least
    10 and the degrees are skewed), "none", "ascending", "descending" (Sandia methods only).
    materialize: form each masked product before summing it (the reference form, slower).

    Returns the number of triangles (an int); with ``per_vertex=True`` instead a NumPy int64 array
    of the triangles through each vertex (each triangle counts at its three vertices, as
    networkx.triangles counts). ``return_info=True`` adds a dict: triangles, method, presort
    (what was done), undirected_edges, build_seconds, count_seconds, per_vertex_seconds,
    native_seconds, backend.
    """
    g = graph_for(A, backend, weights=False)
    return g.triangle_count(per_vertex, method, presort=presort, materialize=materialize,
                            return_info=return_info)


def msbfs(A, sources, parents: bool = False, *, direction: str = "out", batch: int = 64, form: str = "auto",
          backend: str = "auto", return_info: bool = False):
    """Breadth-first search from many sources at once.

    For each source, the level of every vertex (the source 0, its out-neighbours 1, ...,
    unreached -1) and, with ``parents=True``, a parent of every reached vertex: a vertex one
    level up with a link to it (-1 for the source and unreached vertices). Row i of A lists
    vertex i's out-links; direction="out" follows them, "in" the links into a vertex (for an
    undirected, symmetric graph the two agree). Weights are ignored. Sources may repeat.
    The sources run `batch` at a time (64: on the GPU, one bit per source in a 64-bit word per
    vertex, each level pushed or pulled by Beamer's rule, so 64 sources cost about what one
    does; on the CPU a frontier matrix advanced by a masked product).

    sources: a vertex number or a sequence of them (networkx nodes for a graph from networkx).
    An unknown source is an spgraph.Error naming it.

    Returns levels, a NumPy int32 array of shape (len(sources), n) (shape (n,) for a single
    source); with ``parents=True`` the pair (levels, parents), parents int32 of the same shape.
    The levels of k sources take k * n * 4 bytes. ``return_info=True`` adds a dict: reached and
    depth per source, edges_traversed (Graph500's count), seconds (the searches, by the
    backend's clock), native_seconds (the whole library call, the levels' copy included), backend.
    """
    g = graph_for(A, backend, weights=False)
    return g.msbfs(sources, parents, direction=direction, batch=batch, form=form, return_info=return_info)


def mcl(A, inflation: float = 2.0, *, scheme: int | None = None, prune: int | None = None,
        select: int | None = None, recover: int | None = None, recover_percent: int | None = None,
        max_iter: int | None = None, memory_budget: int = 0, backend: str = "auto", return_info: bool = False):
    """Markov clustering with the semantics of van Dongen's ``mcl`` program (22-282): the same
    graph and parameters give the same clusters.

    The graph is made symmetric (the larger weight of the two directions), its self-loops
    replaced by each vertex's largest weight, and normalised; then, until the chaos falls below
    1e-4: expansion (the matrix squared, each column pruned as mcl prunes: entries below 1/P
    dropped, at most S kept, up to R recovered while the kept mass is below pct percent) and
    inflation (each entry to the power `inflation`, renormalised). Clusters are read from the
    last matrix as mcl reads them (attractors and the vertices that flow to them, mcl's default
    -overlap cut). Weights must be non-negative finite numbers (zero is no link); others are an
    spgraph.Error naming the link. A graph without weights reads as 1 per link.

    Parameters, with mcl's flags: inflation (-I, 2.0), scheme (-scheme 1..7: presets of P, S, R
    and pct; default mcl's 6), prune (-P, 10000), select (-S, 1100), recover (-R, 1400),
    recover_percent (-pct, 90), max_iter (-L, 10000), memory_budget (bytes one part of the
    expansion may use: on the GPU its tiles' scratch and stage or a row panel; 0: half the free
    GPU memory up to 8 GiB, or a quarter of the host's).
    Explicit values override the scheme's.

    Returns a NumPy int32 array: the cluster of each vertex, clusters numbered 0, 1, ... from
    the largest (equal sizes by their smallest vertex). ``return_info=True`` adds a dict:
    clusters, iterations, final_chaos, converged, build_seconds, iterate_seconds,
    interpret_seconds, native_seconds, backend. Stopping at max_iter first warns (ConvergenceWarning) and
    returns the clusters of the last matrix, as mcl does.
    """
    g = graph_for(A, backend, weights=True)
    return g.mcl(inflation, scheme=scheme, prune=prune, select=select, recover=recover,
                 recover_percent=recover_percent, max_iter=max_iter, memory_budget=memory_budget,
                 return_info=return_info)


def build_info() -> dict:
    """What this spgraph holds and finds: gpu_backend (built with the CUDA kernels),
    gpu_available, gpu (the device, as the apps describe it), no_gpu_reason, cpu (GraphBLAS's
    version and threads), graphblas (its version)."""
    return _spgraph.build_info()


def gpu_available() -> bool:
    """True where backend="gpu" can run (a GPU build and a usable device)."""
    return bool(_spgraph.build_info()["gpu_available"])
