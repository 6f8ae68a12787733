"""The four algorithms against networkx, SciPy and published answers, on random and real graphs,
on each backend."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import spgraph
from conftest import DATASETS, random_digraph, random_undirected, shared_graph


def scipy_pagerank(A, damping=0.85, tol=1e-12, max_iter=1000):
    """The definition, by SciPy: r <- (1-d)/n + d*(dangling mass)/n + d * A' (r / outdeg)."""
    A = sp.csr_array(A, dtype=float)
    A.data[:] = 1.0
    n = A.shape[0]
    out = np.asarray(A.sum(axis=1)).ravel()
    dangling = out == 0
    inv = np.where(dangling, 0.0, 1.0 / np.where(dangling, 1.0, out))
    At = A.T.tocsr()
    r = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        new = (1 - damping) / n + damping * r[dangling].sum() / n + damping * (At @ (r * inv))
        if np.abs(new - r).sum() < tol:
            return new
        r = new
    return r


def nx_graph(A, directed=True):
    return nx.from_scipy_sparse_array(A, create_using=nx.DiGraph if directed else nx.Graph)


# ---- PageRank ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pagerank_matches_scipy_and_networkx_on_random_digraphs(backend, seed):
    A = random_digraph(300, 1500, seed)
    ranks = spgraph.pagerank(A, tol=1e-10, max_iter=500, backend=backend)
    assert ranks.dtype == np.float64 and ranks.shape == (300,)
    assert ranks.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(ranks, scipy_pagerank(A), atol=1e-9)
    expected = nx.pagerank(nx_graph(A), weight=None, tol=1e-12, max_iter=1000)
    np.testing.assert_allclose(ranks, [expected[i] for i in range(300)], atol=1e-9)


def test_pagerank_karate_matches_lagraph(backend, karate):
    expected = np.loadtxt(DATASETS / "expected" / "karate.pagerank.tsv", comments="#")[:, 1]
    ranks = spgraph.pagerank(karate, backend=backend)
    np.testing.assert_allclose(ranks, expected, atol=1e-4)  # LAGraph's own check of this vector


def test_pagerank_networkx_tolerance_and_float(backend):
    A = random_digraph(500, 4000, 7)
    ranks, info = spgraph.pagerank(A, tol_mode="networkx", backend=backend, return_info=True)
    assert info["converged"] and info["tolerance"] == pytest.approx(500 * 1e-6)
    expected = nx.pagerank(nx_graph(A), weight=None)
    np.testing.assert_allclose(ranks, [expected[i] for i in range(500)], atol=1e-4)  # networkx's own test tolerance
    r32 = spgraph.pagerank(A, precision="float", backend=backend)
    assert r32.dtype == np.float32
    np.testing.assert_allclose(r32, scipy_pagerank(A), atol=1e-6)


def test_pagerank_fixed_iterations_and_info(backend):
    A = random_digraph(100, 600, 4)
    ranks, info = spgraph.pagerank(A, iterations=3, backend=backend, return_info=True)
    assert info["iterations"] == 3 and info["converged"]
    assert info["solve_seconds"] >= 0 and info["backend"].startswith(backend)
    with pytest.warns(spgraph.ConvergenceWarning, match="did not converge"):
        _, info = spgraph.pagerank(A, tol=1e-15, max_iter=2, backend=backend, return_info=True)
    assert not info["converged"] and info["iterations"] == 2


# ---- triangles --------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["burkhardt", "cohen", "sandia", "sandia2", "sandia-dot", "sandia-dot2"])
def test_triangle_count_every_method_matches_networkx(backend, method):
    A = random_digraph(400, 5000, 11)  # directed, self-loops, reciprocal links: the simple graph under it
    G = nx.Graph(nx_graph(A))
    G.remove_edges_from(nx.selfloop_edges(G))
    per = nx.triangles(G)
    assert spgraph.triangle_count(A, method=method, backend=backend) == sum(per.values()) // 3
    counts = spgraph.triangle_count(A, per_vertex=True, method=method, backend=backend)
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(counts, [per[i] for i in range(400)])


def test_triangle_count_karate_and_info(backend, karate):
    total, info = spgraph.triangle_count(karate, backend=backend, return_info=True)
    assert total == 45 and info["undirected_edges"] == 78 and info["method"] == "sandia-dot"


# ---- BFS --------------------------------------------------------------------------------

def test_msbfs_levels_match_scipy(backend):
    A = random_digraph(500, 1500, 5)
    sources = [0, 7, 7, 499, 250]
    levels = spgraph.msbfs(A, sources, backend=backend)
    assert levels.shape == (5, 500) and levels.dtype == np.int32
    dist = csgraph.shortest_path(A, unweighted=True, indices=sources)
    expected = np.where(np.isinf(dist), -1, dist).astype(np.int32)
    np.testing.assert_array_equal(levels, expected)
    # in-links: the distances in the transpose
    levels_in = spgraph.msbfs(A, sources, direction="in", backend=backend)
    dist = csgraph.shortest_path(A.T.tocsr(), unweighted=True, indices=sources)
    np.testing.assert_array_equal(levels_in, np.where(np.isinf(dist), -1, dist))


def test_msbfs_parents_are_one_level_up(backend):
    A = random_digraph(400, 2000, 9)
    sources = np.arange(0, 400, 5)  # 80 sources: two batches of 64
    levels, parents = spgraph.msbfs(A, sources, parents=True, backend=backend)
    assert parents.shape == levels.shape
    dense = A.toarray() != 0
    for k, s in enumerate(sources):
        lev, par = levels[k], parents[k]
        assert lev[s] == 0 and par[s] == -1
        reached = np.flatnonzero(lev > 0)
        assert np.all(par[lev == -1] == -1)
        assert np.all(lev[par[reached]] == lev[reached] - 1)
        assert np.all(dense[par[reached], reached])


def test_msbfs_single_source_and_info(backend, karate):
    levels, info = spgraph.msbfs(karate, 30, backend=backend, return_info=True)  # LAGraph's answer, 0-based
    assert levels.shape == (34,)
    expected = np.loadtxt(DATASETS / "expected" / "karate.bfs-from-30.tsv", comments="#", usecols=(0, 1),
                          dtype=np.int64)
    np.testing.assert_array_equal(levels[expected[:, 0]], expected[:, 1])
    assert info["reached"].tolist() == [34] and info["edges_traversed"] > 0


# ---- MCL --------------------------------------------------------------------------------

def _clusters_file(path):
    """mcl's output: one cluster per line, 1-based vertex names -> cluster id per vertex."""
    lines = [line.split() for line in open(path) if line.strip()]
    n = sum(len(c) for c in lines)
    out = np.full(n, -1)
    for k, members in enumerate(lines):
        out[[int(v) - 1 for v in members]] = k
    return out


def _partition(cluster_of):
    """The clusters as a set of vertex sets (the numbering of equal-sized ones aside)."""
    groups = {}
    for v, c in enumerate(np.asarray(cluster_of).tolist()):
        groups.setdefault(c, []).append(v)
    return {frozenset(g) for g in groups.values()}


@pytest.mark.parametrize("graph,inflation", [("karate", 2.0), ("karate", 1.4), ("dolphins", 2.0), ("polbooks", 3.0)])
def test_mcl_gives_mcl_programs_clusters(backend, graph, inflation):
    A = spgraph.load(DATASETS / "small" / f"{graph}.mtx")
    tag = f"I{str(inflation).replace('.', '')}"
    expected = _clusters_file(DATASETS / "mcl" / f"{graph}.{tag}.clusters")
    clusters = spgraph.mcl(A, inflation=inflation, backend=backend)
    assert clusters.dtype == np.int32 and clusters.shape == (A.shape[0],)
    assert _partition(clusters) == _partition(expected)
    sizes = np.bincount(clusters)
    assert np.all(sizes[:-1] >= sizes[1:])  # numbered largest first


def test_mcl_options_and_info(backend, karate):
    clusters, info = spgraph.mcl(karate, inflation=2.0, scheme=7, backend=backend, return_info=True)
    assert info["converged"] and info["clusters"] == clusters.max() + 1
    with pytest.warns(spgraph.ConvergenceWarning, match="stopped after 1 iterations"):
        spgraph.mcl(karate, max_iter=1, backend=backend)


def test_mcl_uses_weights():
    # two triangles joined by a light link: the heavy links decide
    rows = [0, 0, 1, 3, 3, 4, 2]
    cols = [1, 2, 2, 4, 5, 5, 3]
    w = [5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 0.1]
    A = sp.coo_array((w, (rows, cols)), shape=(6, 6)).tocsr()
    c = spgraph.mcl(A, backend="cpu")
    assert c[0] == c[1] == c[2] and c[3] == c[4] == c[5] and c[0] != c[3]


# ---- the Graph object -------------------------------------------------------------------

def test_graph_object_reused(backend, karate):
    g = spgraph.Graph(karate, backend=backend)
    assert g.n == 34 and g.nnz == 156 and g.backend == backend and repr(g).startswith("<spgraph.Graph")
    r1 = g.pagerank()
    assert g.triangle_count() == 45
    np.testing.assert_array_equal(g.pagerank(), r1)
    np.testing.assert_array_equal(spgraph.pagerank(g), r1)
    assert spgraph.msbfs(g, [0]).shape == (1, 34)
    assert spgraph.mcl(g).shape == (34,)
    assert (g.to_scipy() != karate).nnz == 0


def test_cpu_and_gpu_agree(karate):
    from conftest import require_gpu

    require_gpu()
    A = random_digraph(2000, 20000, 3)
    np.testing.assert_allclose(spgraph.pagerank(A, backend="gpu"), spgraph.pagerank(A, backend="cpu"), atol=1e-9)
    assert spgraph.triangle_count(A, backend="gpu") == spgraph.triangle_count(A, backend="cpu")
    np.testing.assert_array_equal(spgraph.msbfs(A, range(100), backend="gpu"),
                                  spgraph.msbfs(A, range(100), backend="cpu"))
    np.testing.assert_array_equal(spgraph.mcl(karate, backend="gpu"), spgraph.mcl(karate, backend="cpu"))


# ---- a real graph -----------------------------------------------------------------------

def test_real_graph_email_enron(backend):
    A = spgraph.load(shared_graph("email-Enron.txt.gz"))
    G = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    ranks = spgraph.pagerank(A, tol_mode="networkx", backend=backend)
    expected = nx.pagerank(G, weight=None)
    np.testing.assert_allclose(ranks, [expected[i] for i in range(A.shape[0])], atol=1e-6)
    U = nx.Graph(G)
    U.remove_edges_from(nx.selfloop_edges(U))
    per = nx.triangles(U)
    counts = spgraph.triangle_count(A, per_vertex=True, backend=backend)
    np.testing.assert_array_equal(counts, [per[i] for i in range(A.shape[0])])
    sources = [0, 100, 5000]
    levels = spgraph.msbfs(A, sources, backend=backend)
    for k, s in enumerate(sources):
        d = nx.single_source_shortest_path_length(G, s)
        expected_levels = np.full(A.shape[0], -1)
        expected_levels[list(d)] = list(d.values())
        np.testing.assert_array_equal(levels[k], expected_levels)
