"""spgraph as a networkx backend (networkx 3.x's dispatch, entry point group
``networkx.backends``, name ``spgraph``):

    nx.pagerank(G, backend="spgraph")
    nx.triangles(G, backend="spgraph")
    nx.bfs_layers(G, sources, backend="spgraph")
    nx.single_source_shortest_path_length(G, source, backend="spgraph")
    nx.single_target_shortest_path_length(G, target, backend="spgraph")
    nx.all_pairs_shortest_path_length(G, backend="spgraph")

or for every call, ``NETWORKX_BACKEND_PRIORITY=spgraph`` (networkx then converts each graph
and runs what spgraph implements, the rest in networkx). Results are networkx's: the same dicts,
keys and iteration order, ranks within networkx's tolerance, counts and levels exact.

networkx caches the converted graph on G (``G.__networkx_cache__``, by default: the config
``nx.config.cache_converted_graphs``), as it does for nx-cugraph: a second call on the same G
converts nothing, and the spgraph.Graph inside the converted graph keeps its device copy, so
it uploads nothing either. networkx warns on each cache hit unless told not to
(``nx.config.warnings_to_ignore.add("cache")``). The conversion's time is the converted graph's
``convert_seconds``.

Where spgraph's definition differs from networkx's, the call is not run here (NotImplementedError,
or can_run's reason; networkx then runs its own where it may): PageRank with personalization or
dangling weights, or with edge weights that are not all equal and positive (spgraph's PageRank
reads only the pattern; a multigraph's parallel edges count as weights). PageRank's nstart is
accepted and not used: it changes only where the iteration starts, not the ranks within tol. The
backend to run on is ``nx.config.backends.spgraph.backend``
("auto", "gpu" or "cpu").
"""

from __future__ import annotations

import time

import networkx as nx
import numpy as np

from . import _spgraph
from ._convert import CsrParts, from_networkx
from ._graph import Graph

__all__ = ["BackendInterface", "SpgraphNxGraph", "get_info"]

BACKEND_NAME = "spgraph"


def _config_backend() -> str:
    try:
        return nx.config.backends[BACKEND_NAME].get("backend", "auto")
    except (AttributeError, KeyError, TypeError):
        return "auto"


class SpgraphNxGraph:
    """A networkx graph converted for spgraph: its nodes (vertex i is ``nodes[i]``, G's order),
    its adjacency as CSR (row i: node i's successors, or neighbours for an undirected graph),
    the weights of one attribute where asked, and the spgraph.Graph built from them on first
    use (kept, with whatever it uploaded)."""

    __networkx_backend__ = BACKEND_NAME

    def __init__(self, parts: CsrParts, *, directed: bool, multigraph: bool, weight: str | None,
                 graph_attrs: dict | None = None, convert_seconds: float = 0.0):
        self.parts = parts
        self.nodes = parts.nodes
        self.weight = weight
        self.directed = directed
        self.multigraph = multigraph
        self.graph = dict(graph_attrs or {})
        self.convert_seconds = convert_seconds
        self.__networkx_cache__ = {}
        self._index = None
        self._graph = None
        self._backend = None
        self._uniform = None
        self._is_identity = None

    # ---- what networkx asks of a graph ------------------------------------------------
    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node) -> bool:
        try:
            return node in self.index
        except TypeError:
            return False

    @property
    def index(self) -> dict:
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self.nodes)}
        return self._index

    # ---- spgraph ------------------------------------------------------------------------
    def spgraph(self) -> Graph:
        """The spgraph.Graph of this graph's pattern on the configured backend, built once."""
        backend = _config_backend()
        if self._graph is None or backend not in ("auto", self._graph.backend):
            p = self.parts
            self._graph = Graph(CsrParts(p.nrows, p.ncols, p.indptr, p.indices, None), backend, weights=False)
        return self._graph

    def uniform_weights(self) -> bool:
        """Whether every stored weight is the same positive number, so that PageRank weighted
        by it is PageRank on the pattern."""
        if self._uniform is None:
            w = self.parts.data
            self._uniform = w is None or len(w) == 0 or bool(w[0] > 0 and np.all(w == w[0]))
        return self._uniform

    def node_list(self, ids) -> list:
        """The nodes of vertex numbers `ids` (a NumPy array)."""
        if self._is_identity is None:
            self._is_identity = _identity(self.nodes)
        if self._is_identity:
            return ids.tolist()
        nodes = self.nodes
        return [nodes[i] for i in ids.tolist()]

    def to_networkx(self):
        G = nx.DiGraph() if self.directed else nx.Graph()
        G.graph.update(self.graph)
        G.add_nodes_from(self.nodes)
        p = self.parts
        rows = np.repeat(np.arange(p.nrows), np.diff(p.indptr))
        nodes = self.nodes
        if p.data is not None and self.weight is not None:
            G.add_weighted_edges_from(
                ((nodes[u], nodes[v], w) for u, v, w in zip(rows.tolist(), p.indices.tolist(), p.data.tolist())),
                weight=self.weight)
        else:
            G.add_edges_from((nodes[u], nodes[v]) for u, v in zip(rows.tolist(), p.indices.tolist()))
        return G


def _identity(nodes) -> bool:
    """Nodes 0..n-1 in order (then vertex numbers are the nodes themselves)."""
    n = len(nodes)
    return n == 0 or (type(nodes[0]) is int and type(nodes[-1]) is int and nodes[0] == 0 and nodes[-1] == n - 1
                      and all(type(v) is int and v == i for i, v in enumerate(nodes)))


def _as_spgraph(G) -> SpgraphNxGraph:
    if isinstance(G, SpgraphNxGraph):
        return G
    return BackendInterface.convert_from_nx(G)


def _limit(cutoff) -> int:
    """The deepest level networkx's BFS reports for `cutoff`: it goes on while cutoff > level,
    so ceil(cutoff) (the source, level 0, always)."""
    if cutoff is None or cutoff == float("inf"):
        return np.iinfo(np.int32).max
    return max(int(np.ceil(cutoff)), 0)


# ---- the algorithms ---------------------------------------------------------------------

def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None):
    g = _as_spgraph(G)
    if len(g) == 0:
        return {}
    if max_iter < 1:  # networkx: no iteration, no convergence
        raise nx.PowerIterationFailedConvergence(max_iter)
    # nstart only says where the iteration starts; spgraph starts from 1/n, and the fixed point,
    # hence the ranks within tol, is the same.
    if (weight is not None or g.multigraph) and not g.uniform_weights():
        raise NotImplementedError(
            "spgraph's PageRank reads only the graph's pattern; this graph's weights differ, so networkx's "
            "weighted PageRank would differ (pass weight=None for the unweighted definition)")
    ranks, info = g.spgraph().pagerank(damping=alpha, tol=tol, max_iter=max_iter, tol_mode="networkx",
                                       return_info=True, warn=False)
    if not info["converged"]:
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(g.nodes, ranks.tolist()))


def triangles(G, nodes=None):
    g = _as_spgraph(G)
    if g.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if len(g) == 0:
        return {}
    counts = g.spgraph().triangle_count(per_vertex=True)
    if nodes is None:
        return dict(zip(g.nodes, counts.tolist()))
    if nodes in g:
        return int(counts[g.index[nodes]])
    if g.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    index = g.index
    out = {}
    for v in _nbunch(nodes, index):
        out[v] = int(counts[index[v]])
    return out


def _nbunch(nodes, index):
    """networkx's nbunch_iter: the nodes of `nodes` that are in the graph."""
    try:
        for v in nodes:
            try:
                if v in index:
                    yield v
            except TypeError as err:
                raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from err
    except TypeError as err:
        raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from err


def _levels(g: SpgraphNxGraph, source_ids, direction="out") -> np.ndarray:
    levels, _info = _spgraph.bfs_nearest(g.spgraph()._native, np.asarray(source_ids, np.int64), direction)
    return levels


def bfs_layers(G, sources):
    g = _as_spgraph(G)
    if sources in g:
        sources = [sources]
    visited = set(sources)
    first = list(visited)  # networkx's order for the first layer
    for s in first:
        if s not in g:
            raise nx.NetworkXError(f"The node {s} is not in the graph.")
    if not first:
        return
    index = g.index
    ids = np.fromiter((index[s] for s in first), np.int64, len(first))
    lev = _levels(g, ids)
    yield first
    depth = int(lev.max())
    if depth <= 0:
        return
    # Each later layer in networkx's order: by the first node of the layer above (in its order)
    # that links to it, then by where the link stands in that node's adjacency.
    p = g.parts
    n = p.nrows
    deg = np.diff(p.indptr)
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    cols = p.indices.astype(np.int64, copy=False)
    pos = p.position if p.position is not None else (np.arange(len(cols), dtype=np.int64) - p.indptr[rows])
    lu = lev[rows]
    keep = (lu >= 0) & (lev[cols] == lu + 1)
    eu, ev, epos, el = rows[keep], cols[keep], np.asarray(pos)[keep].astype(np.int64), lu[keep]
    order = np.argsort(el, kind="stable")
    eu, ev, epos, el = eu[order], ev[order], epos[order], el[order]
    bounds = np.searchsorted(el, np.arange(depth + 1))
    rank = np.zeros(n, dtype=np.int64)
    rank[ids] = np.arange(len(ids))
    stride = int(deg.max()) + 1
    for level in range(depth):
        a, b = bounds[level], bounds[level + 1]
        u, v = eu[a:b], ev[a:b]
        key = rank[u] * stride + epos[a:b]
        o = np.argsort(key, kind="stable")
        vs = v[o]
        _, firsts = np.unique(vs, return_index=True)
        layer = vs[np.sort(firsts)]
        rank[layer] = np.arange(len(layer))
        yield g.node_list(layer)


def _lengths(g: SpgraphNxGraph, source, cutoff, direction):
    lev = _levels(g, [g.index[source]], direction)
    limit = _limit(cutoff)
    reached = np.flatnonzero((lev >= 0) & (lev <= limit))
    reached = reached[np.argsort(lev[reached], kind="stable")]
    return dict(zip(g.node_list(reached), lev[reached].tolist()))


def single_source_shortest_path_length(G, source, cutoff=None):
    g = _as_spgraph(G)
    if source not in g:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return _lengths(g, source, cutoff, "out")


def single_target_shortest_path_length(G, target, cutoff=None):
    g = _as_spgraph(G)
    if target not in g:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return _lengths(g, target, cutoff, "in")


def all_pairs_shortest_path_length(G, cutoff=None):
    """networkx's generator of (node, {node: length}), 64 sources searched at once."""
    g = _as_spgraph(G)
    n = len(g)
    limit = _limit(cutoff)
    sp_graph = g.spgraph()
    for first in range(0, n, 64):
        ids = np.arange(first, min(first + 64, n), dtype=np.int64)
        levels = sp_graph.msbfs(ids)
        for k, s in enumerate(ids.tolist()):
            lev = levels[k]
            reached = np.flatnonzero((lev >= 0) & (lev <= limit))
            reached = reached[np.argsort(lev[reached], kind="stable")]
            yield g.nodes[s], dict(zip(g.node_list(reached), lev[reached].tolist()))


# ---- the interface networkx loads -------------------------------------------------------

def _can_run(name, args, kwargs):
    if name == "pagerank":
        bound = _bind(pagerank, args, kwargs)
        for p in ("personalization", "dangling"):
            if bound.get(p) is not None:
                return f"spgraph's PageRank has no {p} (the uniform one only)"
        max_iter = bound.get("max_iter", 100)
        if not isinstance(max_iter, int):
            return "spgraph's PageRank needs an integer max_iter"
        alpha = bound.get("alpha", 0.85)
        if not 0 <= alpha <= 1:
            return "spgraph's PageRank needs alpha in [0, 1]"
        tol = bound.get("tol", 1e-6)
        if not tol > 0:
            return "spgraph's PageRank needs tol > 0"
    return True


def _bind(func, args, kwargs) -> dict:
    import inspect

    try:
        b = inspect.signature(func).bind(*args, **kwargs)
    except TypeError:
        return {}
    return dict(b.arguments)


class BackendInterface:
    """What networkx loads from the ``networkx.backends`` entry point ``spgraph``."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None, graph_name=None):
        if isinstance(G, SpgraphNxGraph):
            return G
        weight, default = None, 1.0
        if isinstance(edge_attrs, dict) and edge_attrs:
            weight, default = next(iter(edge_attrs.items()))
            if default is None:
                default = 1.0
        elif preserve_edge_attrs is True:
            weight = "weight"
        start = time.perf_counter()
        parts = from_networkx(G, weight, default)
        seconds = time.perf_counter() - start
        return SpgraphNxGraph(parts, directed=G.is_directed(), multigraph=G.is_multigraph(), weight=weight,
                              graph_attrs=G.graph if preserve_graph_attrs else None, convert_seconds=seconds)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, SpgraphNxGraph):
            return obj.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        return _can_run(name, args, kwargs)

    @staticmethod
    def should_run(name, args, kwargs):
        return True

    @staticmethod
    def on_start_tests(items):
        """networkx's own tests with this backend (``pytest --backend spgraph`` or
        NETWORKX_TEST_BACKEND=spgraph): the ones whose expectation is not spgraph's definition
        are marked, with the reason (docs/python.md lists them)."""
        import pytest

        for item in items:
            reason = _KNOWN_TEST_DIFFERENCES.get(item.name)
            if reason is not None:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=False))

    pagerank = staticmethod(pagerank)
    triangles = staticmethod(triangles)
    bfs_layers = staticmethod(bfs_layers)
    single_source_shortest_path_length = staticmethod(single_source_shortest_path_length)
    single_target_shortest_path_length = staticmethod(single_target_shortest_path_length)
    all_pairs_shortest_path_length = staticmethod(all_pairs_shortest_path_length)


# networkx tests whose expectations spgraph does not meet on purpose: test name -> reason.
_KNOWN_TEST_DIFFERENCES: dict[str, str] = {}


def get_info() -> dict:
    """The ``networkx.backend_info`` entry point: what networkx's docs and config show."""
    pattern_note = (
        "spgraph's PageRank reads the pattern only: weighted graphs run here only where all weights are "
        "equal and positive (the same ranks); personalization and dangling are not supported; nstart is not "
        "used (the ranks agree within tol from any start).")
    return {
        "backend_name": BACKEND_NAME,
        "project": "spgraph",
        "package": "spgraph",
        "url": "",
        "short_summary": "PageRank, triangles and BFS on spgraph's GPU kernels or SuiteSparse:GraphBLAS.",
        "default_config": {"backend": "auto"},
        "functions": {
            "pagerank": {"additional_docs": pattern_note},
            "triangles": {"additional_docs": "Per-vertex counts from spgraph's triangle_count."},
            "bfs_layers": {"additional_docs": "Levels from spgraph's multi-source BFS; layers in networkx's order."},
            "single_source_shortest_path_length": {"additional_docs": "One BFS by spgraph's msbfs."},
            "single_target_shortest_path_length": {"additional_docs": "A BFS over in-links by spgraph's msbfs."},
            "all_pairs_shortest_path_length": {"additional_docs": "64 sources at a time by spgraph's msbfs."},
        },
    }
