"""Shared fixtures for spgraph's Python tests (pytest tests/python).

The package under test is whatever `import spgraph` finds: the installed wheel
(pip install ./python), or a --target folder on PYTHONPATH, as ctest's python.pytest sets it.

GPU tests run on backend="gpu" and skip with the reason where no GPU is usable;
SPGRAPH_REQUIRE_GPU=1 turns that skip into a failure (as for the C++ suites). Tests on the
real graphs of ../shared/datasets/real skip where it is missing; SPGRAPH_REQUIRE_SHARED_DATASETS=1
makes that a failure. SPGRAPH_SHARED_DATASETS names another folder holding real/ (as for the
C++ suites: the GPU machine has no ../shared, scripts/gpu-python.sh points it at .device/data).
"""

from __future__ import annotations

import os
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp

import spgraph

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATASETS = ROOT / "datasets"
SHARED_REAL = pathlib.Path(os.environ.get("SPGRAPH_SHARED_DATASETS") or ROOT.parent / "shared" / "datasets") / "real"


def _gpu_skip_reason() -> str | None:
    info = spgraph.build_info()
    if info["gpu_available"]:
        return None
    return f"no usable GPU: {info['no_gpu_reason']}"


GPU_SKIP = _gpu_skip_reason()


def require_gpu():
    """Skips the calling test where no GPU is usable (fails with SPGRAPH_REQUIRE_GPU=1)."""
    if GPU_SKIP is None:
        return
    if os.environ.get("SPGRAPH_REQUIRE_GPU") == "1":
        pytest.fail(f"SPGRAPH_REQUIRE_GPU=1 but {GPU_SKIP}")
    pytest.skip(GPU_SKIP)


@pytest.fixture(params=["cpu", "gpu"])
def backend(request):
    """Each test taking it runs on the CPU backend and, where a GPU is usable, on the GPU."""
    if request.param == "gpu":
        require_gpu()
    return request.param


def shared_graph(name: str) -> pathlib.Path:
    path = SHARED_REAL / name
    if not path.exists():
        msg = f"{path} is missing (the shared real graphs are not beside this checkout)"
        if os.environ.get("SPGRAPH_REQUIRE_SHARED_DATASETS") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


@pytest.fixture(scope="session")
def karate():
    return spgraph.load(DATASETS / "small" / "karate.mtx")


def random_digraph(n: int, m: int, seed: int, *, self_loops: bool = True) -> sp.csr_array:
    """A random directed pattern with n vertices and about m links, some vertices without
    out-links (dangling) and, optionally, self-loops."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, m)
    cols = rng.integers(0, n, m)
    if not self_loops:
        keep = rows != cols
        rows, cols = rows[keep], cols[keep]
    dangling = rng.choice(n, max(1, n // 10), replace=False)
    keep = ~np.isin(rows, dangling)
    A = sp.coo_array((np.ones(keep.sum()), (rows[keep], cols[keep])), shape=(n, n)).tocsr()
    A.sum_duplicates()
    A.data[:] = 1.0
    return A


def random_undirected(n: int, m: int, seed: int) -> sp.csr_array:
    A = random_digraph(n, m, seed, self_loops=False)
    S = (A + A.T).tocsr()
    S.data[:] = 1.0
    return S
