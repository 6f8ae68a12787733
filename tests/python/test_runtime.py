"""How calls behave in a long-running session: no memory growth over 1,000 calls, the GIL
released while the work runs, one Graph shared by threads."""

from __future__ import annotations

import gc
import threading
import time

import networkx as nx
import numpy as np
import pytest

import spgraph
from conftest import DATASETS, random_digraph, random_undirected


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_no_leak_across_1000_calls(tmp_path, backend):
    """Each call builds its graph, runs and frees everything: after warming up, 1,000 more calls
    of every entry point leave the resident memory where it was. A leak of the graph's CSR
    (about 90 KB here) or of a result would grow it by tens of megabytes."""
    A = random_undirected(2000, 6000, 13)
    path = tmp_path / "g.spgcsr"
    spgraph.save(A, path)
    G = nx.from_scipy_sparse_array(A)
    g = spgraph.Graph(A, backend=backend)

    def calls():  # a few iterations each: what a call allocates does not depend on how many
        spgraph.pagerank(A, iterations=3, backend=backend)
        spgraph.triangle_count(A, per_vertex=True, backend=backend)
        spgraph.msbfs(A, [0, 1, 2], parents=True, backend=backend)
        spgraph.load(path)
        g.pagerank(iterations=3, return_info=True)
        g.msbfs(range(10))
        spgraph.Graph(G, backend=backend)
        try:
            spgraph.msbfs(A, [5000], backend=backend)  # the error path too
        except spgraph.Error:
            pass

    for _ in range(100):
        calls()
    gc.collect()
    before = rss_bytes()
    for _ in range(1000):
        calls()
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 8 * 2**20, f"resident memory grew by {grown / 2**20:.1f} MiB over 1,000 calls"


def test_mcl_no_leak(backend):
    A = spgraph.load(DATASETS / "small" / "karate.mtx")
    for _ in range(50):
        spgraph.mcl(A, backend=backend)
    gc.collect()
    before = rss_bytes()
    for _ in range(1000):
        spgraph.mcl(A, backend=backend)
    gc.collect()
    assert rss_bytes() - before < 8 * 2**20


def test_gil_released_while_work_runs():
    """A thread keeps counting while another runs PageRank: the native call does not hold the GIL."""
    A = random_digraph(200_000, 2_000_000, 2)
    g = spgraph.Graph(A, backend="cpu")
    g.pagerank(iterations=1)  # the first call's set-up, out of the timing
    counted = []
    stop = threading.Event()

    def count():
        n = 0
        while not stop.is_set():
            n += 1
        counted.append(n)

    t = threading.Thread(target=count)
    t.start()
    time.sleep(0.05)
    start = time.perf_counter()
    _, info = g.pagerank(iterations=40, return_info=True)
    took = time.perf_counter() - start
    stop.set()
    t.join()
    assert info["iterations"] == 40 and took > 0.1
    # Without the release the counting thread would get the GIL only at Python's switch
    # interval around the one call; with it, it counts all the while.
    assert counted[0] > 100_000, counted


def test_graph_shared_by_threads():
    A = random_digraph(3000, 30000, 4)
    g = spgraph.Graph(A, backend="cpu")
    expected = (g.pagerank(), g.triangle_count(), g.msbfs([0, 1]))
    errors = []

    def work():
        try:
            for _ in range(10):
                np.testing.assert_array_equal(g.pagerank(), expected[0])
                assert g.triangle_count() == expected[1]
                np.testing.assert_array_equal(g.msbfs([0, 1]), expected[2])
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_python_overhead_on_a_small_graph():
    """What Python adds to a call on a reused Graph, against the library's own clock: the issue's
    target is 2 ms on small graphs; here the bound is loose, for busy CI machines."""
    A = spgraph.load(DATASETS / "small" / "karate.mtx")
    g = spgraph.Graph(A, backend="cpu")
    g.pagerank()
    overheads = []
    for _ in range(50):
        start = time.perf_counter()
        _, info = g.pagerank(return_info=True)
        overheads.append(time.perf_counter() - start - info["upload_seconds"] - info["solve_seconds"])
    assert np.median(overheads) < 2e-3, np.median(overheads)
