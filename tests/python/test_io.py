"""spgraph.load and spgraph.save: every format the apps read, round trips, names."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import spgraph
from conftest import DATASETS, random_digraph


def same(A, B):
    A, B = sp.csr_array(A), sp.csr_array(B)
    return A.shape == B.shape and (A != B).nnz == 0


def test_load_matrix_market_like_scipy():
    for name in ("karate.mtx", "west0067.mtx" if (DATASETS / "small" / "west0067.mtx").exists() else "LFAT5.mtx",
                 "ldbc-directed-example.mtx"):
        path = DATASETS / "small" / name
        A = spgraph.load(path)
        ref = sp.csr_array(scipy.io.mmread(path))
        if "pattern" in open(path).readline():
            ref.data[:] = 1
        assert isinstance(A, sp.csr_array) and A.dtype == np.float64
        assert same(A, ref), name


def test_load_names(tmp_path):
    A, names = spgraph.load(DATASETS / "small" / "karate.mtx", names=True)
    assert names[:3] == ["1", "2", "3"]  # Matrix Market ids are 1-based
    abc = tmp_path / "g.abc"
    abc.write_text("cat\that\t2\nhat\tbat\t1\n")
    B, names = spgraph.load(abc, names=True)
    assert names == ["cat", "hat", "bat"] and B.shape == (3, 3)
    assert B[0, 1] == 2.0 and B[1, 2] == 1.0  # links as listed (MCL makes them symmetric itself)


@pytest.mark.parametrize("suffix", [".mtx", ".mtx.gz", ".txt", ".tsv.gz", ".csv", ".el", ".spgcsr", ".abc"])
def test_round_trip_every_format(tmp_path, suffix):
    A = random_digraph(60, 300, 8)
    A.data = np.round(np.random.default_rng(1).uniform(0.5, 9, A.nnz), 3)
    if suffix == ".abc":  # mcl's format: undirected, every vertex in some link
        A = (A + A.T).tocsr()
        A.setdiag(1.0)
        A = sp.csr_array(A)
    path = tmp_path / f"g{suffix}"
    info = spgraph.save(A, path)
    assert path.exists() and info["vertices"] == 60 and info["edges"] > 0
    if suffix.endswith(".gz"):
        with gzip.open(path) as f:
            f.read(10)
    B = spgraph.load(path)
    if suffix == ".abc":
        B, names = spgraph.load(path, names=True)
        order = np.argsort([int(x) for x in names])
        B = B[order][:, order]
    np.testing.assert_allclose(B.toarray(), A.toarray())


def test_save_pattern_and_names(tmp_path):
    A = spgraph.load(DATASETS / "small" / "karate.mtx")
    spgraph.save(A, tmp_path / "k.mtx")
    assert "pattern" in (tmp_path / "k.mtx").read_text().splitlines()[0]  # all ones: written as a pattern
    spgraph.save(A, tmp_path / "k-real.mtx", weights=True)
    assert "real" in (tmp_path / "k-real.mtx").read_text().splitlines()[0]
    names = [f"member{i}" for i in range(34)]
    spgraph.save(A, tmp_path / "k.spgcsr", names=names)
    B, back = spgraph.load(tmp_path / "k.spgcsr", names=True)
    assert back == names and same(A, B)
    spgraph.save(A, tmp_path / "k.abc", names=names)
    assert (tmp_path / "k.abc").read_text().startswith("member")


def test_save_notes_warn(tmp_path):
    A = sp.csr_array(([1.0], [1], [0, 1, 1, 1]), shape=(3, 3))  # vertex 2 has no links
    with pytest.warns(UserWarning):
        info = spgraph.save(A, tmp_path / "g.abc")
    assert info["notes"]


def test_load_options(tmp_path):
    p = tmp_path / "dup.txt"
    p.write_text("0 1 1\n0 1 2\n")
    with pytest.raises(spgraph.ParseError):
        spgraph.load(p)
    assert spgraph.load(p, duplicates="sum")[0, 1] == 3
    assert spgraph.load(p, duplicates="max")[0, 1] == 2
    assert spgraph.load(p, duplicates="first")[0, 1] == 1
    big = tmp_path / "big.txt"
    big.write_text("0 1\n1 200000000\n")
    with pytest.raises(spgraph.Error, match="compact"):
        spgraph.load(big)
    A, names = spgraph.load(big, compact_ids=True, names=True)
    assert A.shape == (3, 3) and names == ["0", "1", "200000000"]
    neg = tmp_path / "neg.txt"
    neg.write_text("0 1 -1\n")
    assert spgraph.load(neg)[0, 1] == -1
    with pytest.raises(spgraph.ParseError, match="negative"):
        spgraph.load(neg, require_nonnegative_weights=True)
    assert spgraph.load(tmp_path / "dup.txt", format="edges", duplicates="sum").shape == (2, 2)
