"""Every error path raises a Python exception carrying the message the apps print."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import spgraph
from conftest import GPU_SKIP, ROOT


def test_exception_classes():
    assert issubclass(spgraph.Error, ValueError)
    assert issubclass(spgraph.ParseError, spgraph.Error)
    assert issubclass(spgraph.ResourceError, spgraph.Error) and issubclass(spgraph.ResourceError, MemoryError)
    assert issubclass(spgraph.DTypeError, spgraph.Error) and issubclass(spgraph.DTypeError, TypeError)
    assert issubclass(spgraph.ConvergenceWarning, RuntimeWarning)


@pytest.mark.parametrize("call", ["pagerank", "triangle_count", "msbfs", "mcl", "Graph"])
def test_non_square_matrix(call):
    A = sp.random(3, 4, density=0.5, format="csr", random_state=1)
    args = {"msbfs": (A, [0])}.get(call, (A,))
    with pytest.raises(spgraph.Error, match=r"^a graph needs a square adjacency matrix; this one is 3 x 4$"):
        getattr(spgraph, call)(*args, backend="cpu")


@pytest.mark.parametrize("source", [34, -1, 2**40])
def test_bad_source(karate, source):
    with pytest.raises(spgraph.Error, match=rf"^msbfs: source {source} \(sources\[1\]\) is not a vertex of the graph "
                                            r"\(0\.\.33\)$"):
        spgraph.msbfs(karate, [0, source], backend="cpu")
    with pytest.raises(TypeError, match="sources must be vertex numbers"):
        spgraph.msbfs(karate, [0.5], backend="cpu")
    import networkx as nx

    with pytest.raises(spgraph.Error, match="source 'nobody' is not a node of the graph"):
        spgraph.msbfs(nx.karate_club_graph(), ["nobody"], backend="cpu")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("call", ["pagerank", "triangle_count", "mcl", "Graph", "save"])
def test_nan_or_infinite_weight(karate, bad, call, tmp_path):
    B = karate.copy()
    B.data = B.data.copy()
    B.data[3] = bad
    text = {np.nan: "nan", np.inf: "inf", -np.inf: "-inf"}[bad]
    msg = (rf"^the link from vertex 0 to vertex 4 has weight {text}, which is not a finite number; NaN and infinite "
           r"values are refused in every format$")
    with pytest.raises(spgraph.Error, match=msg):
        if call == "save":
            spgraph.save(B, tmp_path / "x.mtx")
        else:
            getattr(spgraph, call)(B, backend="cpu")
    if call == "save":
        assert not (tmp_path / "x.mtx").exists()


def test_nan_weight_in_a_file(tmp_path):
    path = tmp_path / "nan.txt"
    path.write_text("0 1 1.5\n1 2 nan\n")
    with pytest.raises(spgraph.ParseError, match=rf"^{path}:2: weight 'nan' is not a finite number; NaN and "
                                                 r"infinite values are refused in every format$"):
        spgraph.load(path)


def test_negative_weight_for_mcl(karate):
    B = karate.copy()
    B.data = B.data.copy()
    B.data[3] = -1
    with pytest.raises(spgraph.Error, match=r"^mcl: the link from vertex 0 to vertex 4 has weight -1.000000; MCL "
                                            r"needs weights that are positive numbers$"):
        spgraph.mcl(B, backend="cpu")


@pytest.mark.parametrize("make", [
    lambda A: A.astype(np.complex128),
    lambda A: np.array([["a", "b"], ["c", "d"]]),
    lambda A: np.array([[None, 1], [1, None]], dtype=object),
])
def test_wrong_dtype(karate, make):
    with pytest.raises(spgraph.DTypeError, match="^spgraph reads a graph's weights as real numbers; this"):
        spgraph.pagerank(make(karate), backend="cpu")


def test_wrong_input_kind():
    with pytest.raises(TypeError, match="spgraph takes a scipy.sparse matrix or array"):
        spgraph.pagerank("karate.mtx")
    with pytest.raises(spgraph.Error, match="a graph is a 2-D adjacency matrix; this array has 1 dimension"):
        spgraph.pagerank(np.zeros(3))


@pytest.mark.skipif(GPU_SKIP is None, reason="a GPU is usable here: backend='gpu' runs")
def test_gpu_asked_where_none_exists(karate):
    reason = spgraph.build_info()["no_gpu_reason"]
    msg = f"backend='gpu': no usable GPU: {reason} (backend='cpu' or 'auto' runs on the CPU)"
    for call in (lambda: spgraph.pagerank(karate, backend="gpu"), lambda: spgraph.Graph(karate, backend="gpu"),
                 lambda: spgraph.mcl(karate, backend="gpu")):
        with pytest.raises(spgraph.Error) as e:
            call()
        assert str(e.value) == msg
    # auto falls back to the CPU and says why, as the apps' backend line does
    g = spgraph.Graph(karate)
    assert g.backend == "cpu" and g.description.endswith(f"; {reason})")
    assert not spgraph.gpu_available()


def test_options_out_of_range(karate):
    cases = [
        (lambda: spgraph.pagerank(karate, damping=2), r"^PageRank: damping must be in \[0, 1\]; got 2.000000$"),
        (lambda: spgraph.pagerank(karate, tol=0), r"^PageRank: the tolerance must be a positive number; got 0"),
        (lambda: spgraph.pagerank(karate, max_iter=0), r"^PageRank: the maximum number of iterations must be at least 1"),
        (lambda: spgraph.pagerank(sp.csr_array((0, 0))), r"^PageRank needs a graph with at least one vertex"),
        (lambda: spgraph.mcl(karate, scheme=9), r"^mcl: -scheme 9 does not exist; the schemes are 1 to 7$"),
        (lambda: spgraph.mcl(karate, inflation=0), r"^mcl: the inflation \(-I\) must be a positive number"),
        (lambda: spgraph.mcl(karate, recover_percent=101), r"^mcl: -pct must be between 0 and 100"),
        (lambda: spgraph.msbfs(karate, [0], batch=0), r"^msbfs: the batch size must be at least 1, got 0$"),
    ]
    for call, msg in cases:
        with pytest.raises(spgraph.Error, match=msg):
            call()
    for call, msg in [(lambda: spgraph.pagerank(karate, backend="tpu"), "backend must be 'auto', 'gpu' or 'cpu'"),
                      (lambda: spgraph.pagerank(karate, precision="half"), "precision must be"),
                      (lambda: spgraph.triangle_count(karate, method="magic"), "method must be one of"),
                      (lambda: spgraph.msbfs(karate, [0], direction="up"), "direction must be"),
                      (lambda: spgraph.load("x.mtx", format="png"), "format must be")]:
        with pytest.raises(ValueError, match=msg):
            call()
    g = spgraph.Graph(karate, backend="cpu")
    with pytest.raises(ValueError, match="this spgraph.Graph lives on the cpu backend"):
        spgraph.pagerank(g, backend="gpu")


def test_file_errors(tmp_path):
    with pytest.raises(spgraph.Error, match=r"^cannot open .*missing\.mtx: No such file or directory$"):
        spgraph.load(tmp_path / "missing.mtx")
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 1\n")
    with pytest.raises(spgraph.ParseError, match=rf"^{bad}:4: "):
        spgraph.load(bad)
    with pytest.raises(spgraph.Error, match="the file name does not say which format to write"):
        spgraph.save(sp.eye(3, format="csr"), tmp_path / "x.unknown")
    with pytest.raises(spgraph.Error, match="the matrix is 3 x 4 and an edge list holds a square adjacency matrix"):
        spgraph.save(sp.random(3, 4, density=0.5, format="csr", random_state=1), tmp_path / "x.txt")


def _app(name: str) -> pathlib.Path | None:
    for d in (os.environ.get("SPGRAPH_BUILD_DIR"), ROOT / "build", ROOT / "build-py"):
        if d and (pathlib.Path(d) / name).exists():
            return pathlib.Path(d) / name
    return shutil.which(name) and pathlib.Path(shutil.which(name))


@pytest.mark.parametrize("content,app", [
    ("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 1\n", "pagerank"),
    ("0 1 1.5\n1 2 nan\n", "tricount"),
])
def test_same_message_as_the_app(tmp_path, content, app):
    """The message of spgraph.load is the app's, after "NAME: error: "."""
    binary = _app(app)
    if binary is None:
        pytest.skip(f"the {app} app is not built (SPGRAPH_BUILD_DIR, build/ or PATH)")
    path = tmp_path / ("bad.mtx" if content.startswith("%%") else "bad.txt")
    path.write_text(content)
    run = subprocess.run([str(binary), str(path), "--backend", "cpu"], capture_output=True, text=True)
    assert run.returncode == 1
    line = run.stderr.strip().splitlines()[-1]
    with pytest.raises(spgraph.Error) as e:
        spgraph.load(path)
    assert line == f"{app}: error: {e.value}"
