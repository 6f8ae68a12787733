"""examples/python_tour.py runs from start to end and writes its figure."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import DATASETS, ROOT


def test_python_tour(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "tour.png"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "python_tour.py"),
                          str(DATASETS / "small" / "dolphins.mtx"), "--backend", "cpu", "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "triangles: 95 on 159 undirected edges" in run.stdout
    assert out.stat().st_size > 10_000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
