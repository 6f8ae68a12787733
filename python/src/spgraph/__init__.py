"""spgraph: graph analytics on sparse-matrix primitives, on NVIDIA GPUs or SuiteSparse:GraphBLAS.

Four algorithms on a graph given as a scipy.sparse matrix or array, a 2-D NumPy array, a
networkx graph or an :class:`spgraph.Graph` (a graph kept on a backend across calls):

    pagerank(A, damping=0.85, tol=1e-6, max_iter=100)   -> ranks, a NumPy array
    triangle_count(A, per_vertex=False)                  -> the count, or per-vertex counts
    msbfs(A, sources, parents=False)                     -> levels (and parents) per source
    mcl(A, inflation=2.0)                                -> the cluster of each vertex

and ``load(path)`` / ``save(A, path)`` for every format the apps read. ``backend="auto"``
runs on the GPU when one is usable, else on the CPU; ``"gpu"`` and ``"cpu"`` choose. The work
runs with the GIL released; failures raise :class:`spgraph.Error` (a ValueError) carrying the
message the command-line apps print. ``nx.pagerank(G, backend="spgraph")`` and friends run
through the networkx backend (:mod:`spgraph.nx_backend`).
"""

from ._errors import ConvergenceWarning, DTypeError, Error, ParseError, ResourceError
from . import _spgraph  # noqa: E402  (after _errors, which the native module imports)
from ._graph import Graph, build_info, gpu_available, mcl, msbfs, pagerank, triangle_count
from ._io import load, save

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning",
    "DTypeError",
    "Error",
    "Graph",
    "ParseError",
    "ResourceError",
    "build_info",
    "gpu_available",
    "load",
    "mcl",
    "msbfs",
    "pagerank",
    "save",
    "triangle_count",
]
