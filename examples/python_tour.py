"""A tour of spgraph from Python, written as a notebook would be: load a real graph, rank it,
count its triangles, cluster it, and plot the degree and rank distributions.

    pip install ./python matplotlib          # once (the README's install)
    python examples/python_tour.py           # datasets/small/hep-th.mtx, a co-authorship network
    python examples/python_tour.py ../shared/datasets/real/email-Enron.txt.gz --backend gpu -o enron.png

Each step prints what it found and how long the library took; the figure goes to
python_tour.png (or -o). Runs on the GPU when one is usable, else on the CPU (--backend).
"""

from __future__ import annotations

import argparse
import pathlib
import time

import matplotlib

matplotlib.use("Agg")  # no display needed: the figure goes to a file
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import spgraph  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT = HERE.parent / "datasets" / "small" / "hep-th.mtx"

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("graph", nargs="?", default=str(DEFAULT), help="any file the apps read (default: %(default)s)")
parser.add_argument("--backend", default="auto", choices=["auto", "gpu", "cpu"])
parser.add_argument("--inflation", type=float, default=2.0, help="MCL's -I")
parser.add_argument("-o", "--output", default="python_tour.png", help="the figure (PNG)")
args = parser.parse_args()

# %% 1. Load the graph: a scipy.sparse.csr_array, and what the file calls each vertex.
start = time.perf_counter()
A, names = spgraph.load(args.graph, names=True)
print(f"{args.graph}: {A.shape[0]} vertices, {A.nnz} stored links, loaded in {time.perf_counter() - start:.3f} s")

# %% 2. Put it on a backend once; every algorithm below reuses it (no second upload).
g = spgraph.Graph(A, backend=args.backend)
print(f"backend: {g.description}")

# %% 3. PageRank (damping 0.85, dangling rank spread evenly, ranks summing to 1).
ranks, info = g.pagerank(return_info=True)
print(f"pagerank: {'converged' if info['converged'] else 'NOT converged'} after {info['iterations']} iterations "
      f"in {info['solve_seconds'] * 1e3:.1f} ms")
top = np.argsort(-ranks)[:5]
print("  best ranked: " + ", ".join(f"{names[v]} ({ranks[v]:.4f})" for v in top))

# %% 4. Triangles, in all and through each vertex.
per_vertex, info = g.triangle_count(per_vertex=True, return_info=True)
total = int(per_vertex.sum() // 3)
print(f"triangles: {total} on {info['undirected_edges']} undirected edges, counted in "
      f"{(info['count_seconds'] + info['per_vertex_seconds']) * 1e3:.1f} ms")
busiest = np.argsort(-per_vertex)[:5]
print("  in most triangles: " + ", ".join(f"{names[v]} ({per_vertex[v]})" for v in busiest))

# %% 5. Markov clustering, with mcl's semantics (weights used where the file has them).
clusters, info = g.mcl(inflation=args.inflation, return_info=True)
sizes = np.bincount(clusters)
print(f"mcl -I {args.inflation}: {len(sizes)} clusters after {info['iterations']} iterations in "
      f"{info['iterate_seconds']:.2f} s; largest {sizes[:5].tolist()}, {int((sizes == 1).sum())} singletons")

# %% 6. How far the best-ranked vertex reaches, by BFS.
levels = g.msbfs(int(top[0]))
reached = levels >= 0
print(f"bfs from {names[top[0]]}: reaches {int(reached.sum())} vertices, depth {int(levels.max())}, "
      f"mean distance {levels[reached].mean():.2f}")

# %% 7. Plot the degree and rank distributions (log-log, complementary cumulative).
degree = np.diff(A.indptr)
fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 4.2))
for ax, values, what in ((left, degree[degree > 0], "degree"), (middle, ranks, "PageRank")):
    x = np.sort(values)
    ccdf = 1.0 - np.arange(len(x)) / len(x)
    ax.loglog(x, ccdf, ".", markersize=3)
    ax.set_xlabel(what)
    ax.set_ylabel(f"fraction of vertices with {what} >= x")
    ax.set_title(f"{what} distribution")
    ax.grid(True, which="both", alpha=0.3)
right.loglog(np.maximum(degree, 1), ranks, ".", markersize=3, alpha=0.5)
right.set_xlabel("degree")
right.set_ylabel("PageRank")
right.set_title("rank against degree")
right.grid(True, which="both", alpha=0.3)
fig.suptitle(f"{pathlib.Path(args.graph).name}: {A.shape[0]} vertices, {total} triangles, {len(sizes)} MCL "
             f"clusters ({g.backend})")
fig.tight_layout()
fig.savefig(args.output, dpi=110)
print(f"figure: {args.output}")
