"""Graphs in: scipy.sparse matrices and arrays, 2-D NumPy arrays, networkx graphs -> the CSR
arrays the native module copies into libspgraph's host CSR."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import _spgraph
from ._errors import DTypeError, Error

# Weight types the native module reads as they are; any other real type is converted first.
_NATIVE_WEIGHTS = {np.dtype(t) for t in (np.float64, np.float32, np.bool_, np.int8, np.int16, np.int32,
                                         np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}


@dataclass
class CsrParts:
    """A square or rectangular matrix as scipy's CSR arrays, canonical (rows sorted, no
    repeats), plus the networkx nodes where it came from a networkx graph."""

    nrows: int
    ncols: int
    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray | None
    nodes: list | None = None  # vertex i is nodes[i]
    position: np.ndarray | None = None  # networkx adjacency order of each entry (None: sorted)


def _check_dtype(dtype: np.dtype, what: str) -> None:
    if dtype.kind not in "biuf":
        raise DTypeError(
            f"spgraph reads a graph's weights as real numbers; {what} holds {dtype} "
            "(convert it, e.g. A.astype(float), or pass its pattern)"
        )


def networkx_module():
    """networkx, if the caller has imported it (spgraph never imports it for them)."""
    return sys.modules.get("networkx")


def is_networkx_graph(A) -> bool:
    nx = networkx_module()
    return nx is not None and isinstance(A, nx.Graph)


def from_networkx(G, weight: str | None = "weight", default: float = 1.0) -> CsrParts:
    """G's adjacency as CSR in node order (list(G)): row i holds node i's out-links (its
    neighbours for an undirected graph, so the matrix is symmetric). With `weight`, each entry is
    the edge's attribute (`default` where absent; a multigraph's parallel edges summed);
    without it, no values (a multigraph's entries then count its parallel edges)."""
    multigraph = G.is_multigraph()
    adj = G._adj
    if type(adj) is dict:
        indptr, indices, data, position = _spgraph.adjacency_to_csr(adj, weight, float(default), multigraph)
        nodes = list(adj)
    else:  # a view (G.subgraph(...), reverse(copy=False), ...): the same through Python
        nodes = list(G)
        index = {v: i for i, v in enumerate(nodes)}
        counts, cols, vals = [], [], []
        for u, nbrs in G.adjacency():
            counts.append(len(nbrs))
            for v, d in nbrs.items():
                cols.append(index[v])
                if weight is not None or multigraph:
                    edges = d.values() if multigraph else (d,)
                    vals.append(sum((e.get(weight, default) if weight is not None else 1.0) for e in edges))
        indptr = np.zeros(len(nodes) + 1, np.int64)
        np.cumsum(counts, out=indptr[1:])
        indices = np.asarray(cols, np.int32)
        data = np.asarray(vals, np.float64) if (weight is not None or multigraph) else None
        rows = np.repeat(np.arange(len(nodes)), counts)
        order = np.lexsort((indices, rows))
        position = None
        if not np.array_equal(order, np.arange(len(order))):
            position = (order - indptr[rows[order]]).astype(np.int32)
            indices = indices[order]
            if data is not None:
                data = data[order]
    n = len(nodes)
    return CsrParts(n, n, indptr, indices, data, nodes=nodes, position=position)


def csr_parts(A) -> CsrParts:
    """The CSR arrays of A without a copy where A is already a canonical CSR of readable types.
    Any other sparse format is converted to CSR (a copy), repeated entries summed (SciPy's
    meaning of a repeat), a dense array's non-zeros taken."""
    if is_networkx_graph(A):
        return from_networkx(A, "weight")
    if sp.issparse(A):
        M = A
        _check_dtype(M.dtype, "this matrix")
    else:
        if isinstance(A, (str, bytes)) or not hasattr(A, "__array__") and not isinstance(A, (list, tuple)):
            raise TypeError(
                "spgraph takes a scipy.sparse matrix or array, a 2-D NumPy array, a networkx graph or an "
                f"spgraph.Graph, not {type(A).__name__}"
            )
        arr = np.asarray(A)
        if arr.ndim != 2:
            raise Error(f"a graph is a 2-D adjacency matrix; this array has {arr.ndim} dimension(s)")
        _check_dtype(arr.dtype, "this array")
        M = sp.csr_array(arr)
    if M.ndim != 2:
        raise Error(f"a graph is a 2-D adjacency matrix; this one has {M.ndim} dimension(s)")
    if M.format != "csr":
        M = M.tocsr()
    if not M.has_canonical_format:
        M = M.copy()
        M.sum_duplicates()
    data = M.data
    if data.dtype not in _NATIVE_WEIGHTS:
        data = data.astype(np.float64)
    nrows, ncols = M.shape
    return CsrParts(nrows, ncols, M.indptr, M.indices, data)
