"""Every input kind gives the same graph: scipy.sparse formats and index types, dense arrays,
weight types, non-canonical CSR, networkx graphs and views."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import spgraph
from conftest import random_digraph


@pytest.fixture(scope="module")
def A():
    return random_digraph(200, 1200, 21)


@pytest.fixture(scope="module")
def reference(A):
    return (spgraph.pagerank(A, backend="cpu"), spgraph.triangle_count(A, backend="cpu"),
            spgraph.msbfs(A, [0, 5], backend="cpu"))


def check(M, reference):
    ranks, triangles, levels = reference
    np.testing.assert_allclose(spgraph.pagerank(M, backend="cpu"), ranks, rtol=1e-12)
    assert spgraph.triangle_count(M, backend="cpu") == triangles
    np.testing.assert_array_equal(spgraph.msbfs(M, [0, 5], backend="cpu"), levels)


@pytest.mark.parametrize("fmt", ["csr_array", "csr_matrix", "csc", "coo", "lil", "dok", "bsr"])
def test_scipy_formats(A, reference, fmt):
    M = {"csr_array": lambda: sp.csr_array(A), "csr_matrix": lambda: sp.csr_matrix(A),
         "csc": A.tocsc, "coo": A.tocoo, "lil": A.tolil, "dok": A.todok, "bsr": A.tobsr}[fmt]()
    check(M, reference)


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint8, np.bool_, np.float16])
def test_index_and_weight_types(A, reference, index, dtype):
    M = sp.csr_array((A.data.astype(dtype), A.indices.astype(index), A.indptr.astype(index)), shape=A.shape)
    check(M, reference)


def test_dense_array(A, reference):
    check(A.toarray(), reference)
    check(A.toarray().tolist(), reference)


def test_unsorted_and_repeated_entries(A, reference):
    # each row reversed, and every link given twice: the same graph (repeats are summed, as SciPy does)
    indices, data = A.indices.copy(), A.data.copy()
    for i in range(A.shape[0]):
        a, b = A.indptr[i], A.indptr[i + 1]
        indices[a:b] = indices[a:b][::-1]
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    M = sp.csr_array((np.r_[data, data], (np.r_[rows, rows], np.r_[indices, indices])), shape=A.shape)
    unsorted = sp.csr_array((data, indices, A.indptr), shape=A.shape)
    assert not unsorted.has_sorted_indices
    check(unsorted, reference)
    check(M, reference)
    # duplicates summed for MCL's weights, as SciPy reads them
    B = sp.csr_array(([1.0, 1.0, 2.0], [1, 1, 0], [0, 2, 3]), shape=(2, 2))
    C = sp.csr_array(([2.0, 2.0], [1, 0], [0, 1, 2]), shape=(2, 2))
    np.testing.assert_array_equal(spgraph.mcl(B, backend="cpu"), spgraph.mcl(C, backend="cpu"))


def test_networkx_graphs(A, reference):
    D = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    check(D, reference)
    # nodes that are not 0..n-1: vertex i is list(G)[i]; sources name nodes
    H = nx.relabel_nodes(D, {i: f"v{i}" for i in D})
    g = spgraph.Graph(H, backend="cpu")
    assert g.nodes == [f"v{i}" for i in range(200)]
    np.testing.assert_allclose(g.pagerank(), reference[0], rtol=1e-12)
    np.testing.assert_array_equal(g.msbfs(["v0", "v5"]), reference[2])
    np.testing.assert_array_equal(g.msbfs("v5"), reference[2][1])
    # a view (not a dict adjacency): the same through Python
    view = D.subgraph(list(D))
    check(view, reference)


def test_networkx_shuffled_adjacency_order():
    G = nx.DiGraph()
    G.add_edges_from([(0, 3), (0, 1), (0, 2), (1, 0), (2, 1), (3, 2)])
    assert list(G) == [0, 3, 1, 2]  # vertex i is list(G)[i]
    M = nx.to_scipy_sparse_array(G, nodelist=list(G))
    np.testing.assert_allclose(spgraph.pagerank(G, backend="cpu"), spgraph.pagerank(M, backend="cpu"), rtol=1e-12)


def test_networkx_weights_and_multigraph():
    G = nx.Graph()
    G.add_edge("a", "b", weight=5.0)
    G.add_edge("b", "c", weight=5.0)
    G.add_edge("a", "c", weight=5.0)
    G.add_edge("c", "d", weight=0.01)
    G.add_edge("d", "e", weight=5.0)
    G.add_edge("e", "f", weight=5.0)
    G.add_edge("d", "f", weight=5.0)
    g = spgraph.Graph(G, backend="cpu")
    A = g.to_scipy()
    assert A[0, 1] == 5.0 and A.nnz == 14
    c = g.mcl()
    assert c[0] == c[1] == c[2] != c[3] == c[4] == c[5]
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    assert spgraph.Graph(M, backend="cpu").to_scipy()[0, 1] == 2.0  # parallel edges summed
    assert spgraph.triangle_count(M, backend="cpu") == 0


def test_graph_without_weights_keeps_pattern(A):
    g = spgraph.Graph(A * 3.0, backend="cpu", weights=False)
    assert not g.weighted and g.to_scipy().data.max() == 1.0
    assert spgraph.Graph(A * 3.0, backend="cpu").weighted


def test_empty_and_tiny_graphs():
    E = sp.csr_array((5, 5))
    np.testing.assert_allclose(spgraph.pagerank(E, backend="cpu"), 0.2)
    assert spgraph.triangle_count(E, backend="cpu") == 0
    np.testing.assert_array_equal(spgraph.msbfs(E, [3], backend="cpu"), [[-1, -1, -1, 0, -1]])
    assert spgraph.msbfs(E, [], backend="cpu").shape == (0, 5)
    np.testing.assert_array_equal(np.sort(spgraph.mcl(E, backend="cpu")), np.arange(5))


def test_gpu_threshold_variable(A, monkeypatch):
    """SPGRAPH_GPU_THRESHOLD=LINKS: backend="auto" runs on the CPU below that many links, as in the apps."""
    monkeypatch.setenv("SPGRAPH_GPU_THRESHOLD", str(A.nnz + 1))
    g = spgraph.Graph(A)
    assert g.backend == "cpu"
    assert g.description.endswith(f"chosen by backend='auto': {A.nnz:,} links is below the GPU threshold of "
                                  f"{A.nnz + 1:,} (SPGRAPH_GPU_THRESHOLD)")
    monkeypatch.setenv("SPGRAPH_GPU_THRESHOLD", "0")
    assert spgraph.Graph(A).backend == ("gpu" if spgraph.gpu_available() else "cpu")
    monkeypatch.setenv("SPGRAPH_GPU_THRESHOLD", "many")
    with pytest.raises(spgraph.Error, match="^SPGRAPH_GPU_THRESHOLD=many: expected a number of links"):
        spgraph.pagerank(A)
