"""spgraph.load and spgraph.save: every format the apps read, through the same readers and
writers (io/load_graph.hpp, io/save_graph.hpp)."""

from __future__ import annotations

import os
import warnings

import numpy as np
import scipy.sparse as sp

from . import _spgraph
from ._convert import csr_parts

_FORMATS = (None, "mtx", "edges", "abc", "spgcsr")


def load(path, *, names: bool = False, duplicates: str = "error", compact_ids: bool = False,
         trust_vertex_count: bool = False, format: str | None = None,
         require_nonnegative_weights: bool = False):
    """Reads a graph as the apps read it, into a scipy.sparse.csr_array (float64; a file without
    weights gives 1 for every link). Row i lists vertex i's out-links.

    The format comes from the file name (case-insensitive, after stripping ".gz"), or `format`:
      .mtx        Matrix Market, "mtx" (general/symmetric/skew-symmetric, real/integer/pattern;
                  a symmetric file gives both directions)
      .spgcsr     spgraph's checksummed binary cache, "spgcsr"
      .abc        mcl's label pairs, "abc" (labels kept)
      otherwise   an edge list, "edges" (.txt, .tsv, .csv, .el, ...: "source target [weight]",
                  '#' and '%' comments)
    each optionally gzip-compressed. Vertices are numbered from 0 in the matrix; the file names
    them as ``names=True`` returns: (matrix, names), names[i] a str, the label or the number the
    file uses (Matrix Market ids 1-based, the edge list's own ids).

    duplicates: what a repeated link is: "error" (the default, as in the apps; for .abc mcl's rule,
    the largest weight), "sum", "max" or "first". compact_ids: number an edge list's ids by first
    appearance, keeping them as names. trust_vertex_count: accept a vertex count far beyond the
    links (otherwise refused before allocating). require_nonnegative_weights: refuse a negative
    weight (as mcl does).

    A missing file, malformed content (spgraph.ParseError "FILE:LINE: reason") and NaN or
    infinite weights raise with the apps' messages. The arrays come from the reader without a
    copy.
    """
    if format not in _FORMATS:
        raise ValueError(f"format must be None (by the file name), 'mtx', 'edges', 'abc' or 'spgcsr', not {format!r}")
    shape, indptr, indices, data, labels, id_base, _ = _spgraph.load(
        os.fspath(path), duplicates, bool(compact_ids), bool(trust_vertex_count), format,
        bool(require_nonnegative_weights))
    if data is None:
        data = np.ones(len(indices))
    A = sp.csr_array((data, indices, indptr), shape=shape, copy=False)
    if not names:
        return A
    if labels is None:
        labels = [str(i + id_base) for i in range(shape[0])]
    return A, labels


def save(A, path, *, names=None, id_base: int = 0, format: str | None = None, weights: bool | None = None) -> dict:
    """Writes A in any format load reads, so that load gives the same graph back.

    The format comes from the file name or `format` ("mtx", "edges", "abc", "spgcsr"): .mtx
    Matrix Market, .abc mcl's label pairs, .spgcsr the binary cache (never compressed), .txt
    .tsv .csv .el .edges .edgelist .snap an edge list (commas for .csv); text is gzip-compressed
    when the name ends in ".gz". The file appears only when complete.

    names: one str per vertex (e.g. from ``load(..., names=True)``): .abc and .spgcsr keep them,
    edge lists and Matrix Market write them as ids where all are decimal integers; without
    names vertex v is v + id_base in .abc, v in an edge list and v + 1 in Matrix Market.
    weights: None writes the values unless every one is 1 (then the pattern alone, as a file
    without weights was read); True or False forces either.

    Returns a dict: vertices and edges as load will count them, notes (what the format could
    not keep, e.g. vertices without links in .abc), each also given as a UserWarning.
    Raises spgraph.Error, before any file is created, where the format cannot hold the graph
    (a rectangular matrix in an edge list, NaN weights in text, ...).
    """
    if format not in _FORMATS:
        raise ValueError(f"format must be None (by the file name), 'mtx', 'edges', 'abc' or 'spgcsr', not {format!r}")
    parts = csr_parts(A)
    if names is None and parts.nodes is not None:
        names = [str(v) for v in parts.nodes]
    data = parts.data
    if weights is None:
        weights = data is not None and not bool(np.all(data == 1))
    if not weights:
        data = None
    if names is not None:
        names = [str(x) for x in names]
    vertices, edges, notes = _spgraph.save(os.fspath(path), parts.nrows, parts.ncols, parts.indptr,
                                           parts.indices, data, names, int(id_base), format)
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return {"vertices": vertices, "edges": edges, "notes": list(notes)}
