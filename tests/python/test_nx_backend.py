"""The networkx backend: results equal to networkx's own, the conversion cached on G."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest

import spgraph
import spgraph.nx_backend as nxb
from conftest import random_digraph, random_undirected, shared_graph


@pytest.fixture(autouse=True)
def quiet_cache_note():
    nx.config.warnings_to_ignore.add("cache")
    yield


@pytest.fixture(params=["cpu", "gpu"])
def nx_backend(request):
    """Runs on nx.config.backends.spgraph.backend = cpu, and gpu where usable."""
    from conftest import require_gpu

    if request.param == "gpu":
        require_gpu()
    cfg = nx.config.backends.spgraph
    old = cfg.get("backend", "auto")
    cfg["backend"] = request.param
    yield request.param
    cfg["backend"] = old


def graphs():
    yield "digraph", nx.from_scipy_sparse_array(random_digraph(300, 1500, 3), create_using=nx.DiGraph)
    yield "graph", nx.from_scipy_sparse_array(random_undirected(300, 1200, 4), create_using=nx.Graph)
    G = nx.relabel_nodes(nx.gnp_random_graph(120, 0.05, seed=5, directed=True), lambda v: f"n{(v * 7) % 120}")
    yield "labels", G
    yield "karate", nx.karate_club_graph()
    yield "les_miserables", nx.les_miserables_graph()


GRAPHS = dict(graphs())


def test_registered():
    assert "spgraph" in nx.utils.backends.backends
    assert nx.utils.backends.backend_info["spgraph"]["backend_name"] == "spgraph"


@pytest.mark.parametrize("name", list(GRAPHS))
def test_pagerank_equals_networkx(nx_backend, name):
    G = GRAPHS[name]
    expected = nx.pagerank(G, weight=None)
    got = nx.pagerank(G, weight=None, backend="spgraph")
    assert list(got) == list(expected)
    assert all(type(v) is float for v in got.values())
    # both stop once the L1 change is below n * tol: the ranks agree well within networkx's 1e-4
    assert max(abs(got[v] - expected[v]) for v in G) < 1e-6
    G2 = nx.DiGraph(G)
    nx.set_edge_attributes(G2, 2.5, "w")  # equal weights: the same ranks as the pattern
    got = nx.pagerank(G2, weight="w", backend="spgraph")
    assert max(abs(got[v] - nx.pagerank(G2, weight="w")[v]) for v in G) < 1e-6


def test_pagerank_refuses_what_it_does_not_define():
    G = nx.les_miserables_graph()  # weighted
    with pytest.raises(NotImplementedError) as e:
        nx.pagerank(G, backend="spgraph")
    assert "reads only the graph's pattern" in str(e.value.__cause__ or e.value)
    with pytest.raises(NotImplementedError, match="not implemented by 'spgraph' backend for the given arguments"):
        nx.pagerank(G, weight=None, personalization={"Napoleon": 1}, backend="spgraph")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, weight=None, max_iter=2, tol=1e-12, backend="spgraph")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, weight=None, max_iter=0, backend="spgraph")
    assert nx.pagerank(nx.Graph(), backend="spgraph") == {}


@pytest.mark.parametrize("name", ["graph", "karate", "les_miserables"])
def test_triangles_equal_networkx(nx_backend, name):
    G = GRAPHS[name]
    assert nx.triangles(G, backend="spgraph") == nx.triangles(G)
    v = next(iter(G))
    assert nx.triangles(G, v, backend="spgraph") == nx.triangles(G, v)
    some = list(G)[:5] + ["not a node"]
    assert nx.triangles(G, some, backend="spgraph") == nx.triangles(G, some)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.triangles(GRAPHS["digraph"], backend="spgraph")
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 2)])  # a self-loop is ignored
    assert nx.triangles(G, backend="spgraph") == {0: 1, 1: 1, 2: 1}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_bfs_equal_networkx(nx_backend, name):
    G = GRAPHS[name]
    nodes = list(G)
    for sources in (nodes[0], [nodes[1]], nodes[:3], [nodes[5], nodes[5], nodes[-1]]):
        assert list(nx.bfs_layers(G, sources, backend="spgraph")) == list(nx.bfs_layers(G, sources))
    for s in nodes[:4]:
        for cutoff in (None, 0, 1, 2, 2.5, -1):
            got = nx.single_source_shortest_path_length(G, s, cutoff=cutoff, backend="spgraph")
            assert got == nx.single_source_shortest_path_length(G, s, cutoff=cutoff)
        got = nx.single_target_shortest_path_length(G, s, backend="spgraph")
        assert dict(got) == dict(nx.single_target_shortest_path_length(G, s))
    assert dict(nx.all_pairs_shortest_path_length(G, cutoff=3, backend="spgraph")) == \
        dict(nx.all_pairs_shortest_path_length(G, cutoff=3))
    with pytest.raises(nx.NetworkXError):
        next(nx.bfs_layers(G, ["not a node"], backend="spgraph"))
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, "not a node", backend="spgraph")


def test_conversion_is_cached_on_the_graph(monkeypatch):
    G = nx.from_scipy_sparse_array(random_digraph(200, 1000, 6), create_using=nx.DiGraph)
    calls = []
    real = nxb.from_networkx
    monkeypatch.setattr(nxb, "from_networkx", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = nx.pagerank(G, weight=None, backend="spgraph")
    cached = G.__networkx_cache__["backends"]["spgraph"]
    converted = next(iter(cached.values()))
    assert isinstance(converted, nxb.SpgraphNxGraph) and converted.convert_seconds > 0
    sp_graph = converted.spgraph()
    assert nx.pagerank(G, weight=None, backend="spgraph") == first
    nx.single_source_shortest_path_length(G, 0, backend="spgraph")
    assert len(calls) == 1 and converted.spgraph() is sp_graph  # one conversion, one upload
    G.add_edge(0, 199)  # networkx clears the cache on a change: the next call sees the new graph
    assert nx.single_source_shortest_path_length(G, 0, backend="spgraph")[199] == 1
    assert len(calls) == 2


def test_backend_priority_runs_everything(monkeypatch):
    G = GRAPHS["karate"]
    with nx.config(backend_priority=["spgraph"], fallback_to_nx=True):
        assert nx.triangles(G) == nx.triangles(G, backend="networkx")
        assert nx.average_clustering(G) == pytest.approx(nx.average_clustering(G, backend="networkx"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = nx.pagerank(G)  # weighted: spgraph declines, networkx runs it
        assert r == pytest.approx(nx.pagerank(G, backend="networkx"))


def test_real_graph_cit_hepph():
    A = spgraph.load(shared_graph("cit-HepPh.txt.gz"))
    D = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    got = nx.pagerank(D, weight=None, backend="spgraph")
    expected = nx.pagerank(D, weight=None)
    assert max(abs(got[v] - expected[v]) for v in D) < 1e-6
    U = nx.Graph(D)
    assert nx.triangles(U, backend="spgraph") == nx.triangles(U)
    for s in (0, 1000):
        assert nx.single_source_shortest_path_length(D, s, backend="spgraph") == \
            nx.single_source_shortest_path_length(D, s)
    assert list(nx.bfs_layers(U, [0, 10, 20], backend="spgraph")) == list(nx.bfs_layers(U, [0, 10, 20]))
