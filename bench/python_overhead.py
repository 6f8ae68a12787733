#!/usr/bin/env python3
"""What Python costs on top of spgraph, and spgraph from Python against the Python graph tools.

    python bench/python_overhead.py GRAPH [GRAPH ...] [--backend auto|gpu|cpu] [--json out.json]

For each graph (any file the apps read) it measures, on the backend asked:

1. Overhead. Each algorithm on a reused spgraph.Graph (the session case) and as a one-shot
   function call (a Graph built per call): the wall time of the Python call against the
   library's own time for the same work, from the result's fields (PageRank upload_seconds +
   solve_seconds; triangle_count build + count + per_vertex seconds; msbfs seconds; MCL build +
   iterate + interpret seconds: CUDA events on the GPU, the host clock on the CPU). Overhead =
   wall - library; the issue's targets: at most 5% of the compute on wb-edu-like with a reused
   graph, at most 2 ms on small graphs. It splits into what the library does outside its own
   clock (native_seconds, the library call's wall time measured in C++, less the library's:
   fetching results to the host) and what Python and the binding add (python_s = wall -
   native: argument checks, the GIL, wrapping the arrays; for a one-shot call also building the
   Graph, i.e. the copy into the host CSR). With --apps DIR, the apps' own compute time
   (--timings) is measured on the same graph too (its row: wall = the app's total_s, process
   start to output written; library = its compute_s).
2. Against other tools, same definitions, same graph: networkx's own (pagerank weight=None, its
   SciPy implementation; triangles; single_source_shortest_path_length for the BFS sources),
   the networkx backends 'spgraph' and, where installed, 'graphblas' (graphblas-algorithms),
   and a SciPy power-iteration PageRank. Through a networkx backend it reports the first call
   on a fresh graph (conversion included), the conversion alone, and a cached call (networkx's
   backend cache on G). Targets (cit-HepPh): nx.triangles via spgraph >= 100x networkx with the
   conversion included; nx.pagerank via spgraph >= 10x networkx once the conversion is cached.

Prints a table and writes every number as JSON (--json). Times are the median of --repeat runs
after one warm-up run (the GPU's start and first upload are reported separately, as "start").
networkx and the backends are skipped above --nx-max-links links (their Python graphs take
minutes and gigabytes there).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pathlib
import platform
import statistics
import subprocess
import shutil
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp

import spgraph

ALGORITHMS = ("pagerank", "triangles", "msbfs", "mcl")


def median_time(fn, repeat):
    """(median seconds, last result) of fn() over `repeat` runs after one warm-up."""
    result = fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def library_seconds(algorithm, info):
    if algorithm == "pagerank":
        return info["upload_seconds"] + info["solve_seconds"]
    if algorithm == "triangles":
        return info["build_seconds"] + info["count_seconds"] + info["per_vertex_seconds"]
    if algorithm == "msbfs":
        return info["seconds"]
    return info["build_seconds"] + info["iterate_seconds"] + info["interpret_seconds"]


def scipy_pagerank(A, damping=0.85, tol=1e-6, max_iter=100):
    """PageRank by power iteration in SciPy, spgraph's definition and L1 stopping rule."""
    A = sp.csr_array(A, dtype=np.float64)
    A.data[:] = 1.0
    n = A.shape[0]
    out = np.asarray(A.sum(axis=1)).ravel()
    dangling = out == 0
    inv = np.zeros(n)
    inv[~dangling] = 1.0 / out[~dangling]
    At = A.T.tocsr()
    r = np.full(n, 1.0 / n)
    for k in range(1, max_iter + 1):
        new = damping * (At @ (r * inv))
        new += (1 - damping) / n + damping * r[dangling].sum() / n
        change = np.abs(new - r).sum()
        r = new
        if change < tol:
            break
    return r, k


def run_app(apps_dir, app, path, extra, backend):
    """The app's own compute time (--timings -: one JSON line on stderr), or None."""
    binary = pathlib.Path(apps_dir) / app
    if not binary.exists():
        return None
    run = subprocess.run([str(binary), str(path), "--backend", backend, "--timings", "-", *extra],
                         capture_output=True, text=True)
    for line in run.stderr.splitlines():
        if line.startswith("timings:"):
            t = json.loads(line.split(":", 1)[1])
            phases = t.get("phases", t)
            return {"compute_s": phases.get("compute_s"), "build_s": phases.get("build_s"), "total_s": t.get("total_s")}
    return {"error": (run.stderr.strip().splitlines() or ["no timings"])[-1]}


def overhead_rows(g, A, algorithm, args, sources):
    """Reused Graph and one-shot call: wall, library, overhead."""
    calls = {
        "pagerank": (lambda G: G.pagerank(tol=args.tol, return_info=True, warn=False),
                     lambda: spgraph.pagerank(A, tol=args.tol, backend=g.backend, return_info=True)),
        "triangles": (lambda G: G.triangle_count(return_info=True),
                      lambda: spgraph.triangle_count(A, backend=g.backend, return_info=True)),
        "msbfs": (lambda G: G.msbfs(sources, return_info=True),
                  lambda: spgraph.msbfs(A, sources, backend=g.backend, return_info=True)),
        "mcl": (lambda G: G.mcl(inflation=2.0, return_info=True, warn=False),
                lambda: spgraph.mcl(A, inflation=2.0, backend=g.backend, return_info=True)),
    }
    reused, oneshot = calls[algorithm]
    rows = {}
    for mode, fn in (("reused", lambda: reused(g)), ("one-shot", oneshot)):
        if mode == "one-shot" and algorithm == "mcl" and A.nnz > 100_000:
            continue  # the same work as the reused graph's, plus the copy: not worth minutes
        walls, natives, libs = [], [], []
        fn()  # warm-up
        for _ in range(args.repeat):
            gc.collect()
            start = time.perf_counter()
            _, info = fn()
            walls.append(time.perf_counter() - start)
            natives.append(info["native_seconds"])
            libs.append(library_seconds(algorithm, info))
        wall, native, lib = statistics.median(walls), statistics.median(natives), statistics.median(libs)
        over = statistics.median([w - l for w, l in zip(walls, libs)])
        python = statistics.median([w - x for w, x in zip(walls, natives)])
        rows[mode] = {"wall_s": wall, "native_s": native, "library_s": lib, "overhead_s": over,
                      "overhead_pct": 100.0 * over / lib if lib > 0 else None, "python_s": python,
                      "python_pct": 100.0 * python / lib if lib > 0 else None}
    return rows


def networkx_rows(A, algorithm, args, sources):
    """networkx's own, and the networkx backends spgraph and graphblas: first call on a fresh G
    (conversion included), conversion alone, cached call."""
    import networkx as nx

    nx.config.warnings_to_ignore.add("cache")
    directed = algorithm != "triangles"
    make = (lambda: nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)) if directed else \
        (lambda: nx.Graph(nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)))
    G = make()
    if not directed:
        G.remove_edges_from(list(nx.selfloop_edges(G)))
    call = {
        "pagerank": lambda H, **kw: nx.pagerank(H, weight=None, tol=args.tol / A.shape[0], **kw),
        "triangles": lambda H, **kw: nx.triangles(H, **kw),
        "msbfs": lambda H, **kw: [nx.single_source_shortest_path_length(H, s, **kw) for s in sources],
    }[algorithm]
    rows = {}
    start = time.perf_counter()
    call(G)
    rows["networkx"] = {"seconds": time.perf_counter() - start}
    backends = ["spgraph"]
    try:
        import graphblas_algorithms  # noqa: F401

        backends.append("graphblas")
    except ImportError:
        rows["graphblas"] = {"skipped": "graphblas-algorithms is not installed (pip install graphblas-algorithms)"}
    for name in backends:
        H = G.copy()
        try:
            start = time.perf_counter()
            call(H, backend=name)
            first = time.perf_counter() - start
            converted = next(iter(H.__networkx_cache__.get("backends", {}).get(name, {}).values()), None)
            conversion = getattr(converted, "convert_seconds", None)
            if conversion is None and name != "spgraph":  # time the backend's conversion on its own
                from networkx.utils.backends import backends as eps

                iface = eps[name].load()
                K = G.copy()
                start = time.perf_counter()
                iface.convert_from_nx(K, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                                      preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                                      graph_name="G")
                conversion = time.perf_counter() - start
            cached, _ = median_time(lambda: call(H, backend=name), args.repeat)
            rows[name] = {"first_s": first, "conversion_s": conversion, "cached_s": cached,
                          "speedup_first": rows["networkx"]["seconds"] / first,
                          "speedup_cached": rows["networkx"]["seconds"] / cached}
        except Exception as e:  # a backend that cannot run this call: say why, go on
            rows[name] = {"skipped": f"{type(e).__name__}: {e}"}
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="+", help="graph files (any format the apps read)")
    ap.add_argument("--backend", default="auto", choices=["auto", "gpu", "cpu"])
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS), help="of " + ",".join(ALGORITHMS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tol", type=float, default=1e-6, help="PageRank's L1 tolerance (networkx: tol/n)")
    ap.add_argument("--sources", type=int, default=64, help="BFS sources (random, seed 1)")
    ap.add_argument("--nx-max-links", type=int, default=5_000_000,
                    help="skip networkx, its backends and one-shot MCL above this many links")
    ap.add_argument("--scipy-max-links", type=int, default=None,
                    help="skip the SciPy power-iteration PageRank above this many links (default: never; it is "
                         "single-threaded, the longest row on a generated graph)")
    ap.add_argument("--mcl-max-links", type=int, default=None,
                    help="skip MCL above this many links (default 2,000,000 on the GPU, 50,000 on the CPU, where "
                         "MCL on cit-HepPh's 421,578 takes minutes)")
    ap.add_argument("--apps", metavar="DIR", help="a build folder with the apps: their --timings compute time too")
    ap.add_argument("--json", metavar="FILE", help="write every measurement here")
    args = ap.parse_args()
    algorithms = [a for a in args.algorithms.split(",") if a]
    for a in algorithms:
        if a not in ALGORITHMS:
            ap.error(f"unknown algorithm {a!r}")

    scratch = tempfile.mkdtemp(prefix="python_overhead.")
    report = {"spgraph": spgraph.__version__, "build": spgraph.build_info(), "python": sys.version.split()[0],
              "machine": platform.node(), "cpus": os.cpu_count(), "backend_asked": args.backend,
              "repeat": args.repeat, "graphs": []}
    table = []
    for path in args.graphs:
        start = time.perf_counter()
        A = spgraph.load(path)
        load_s = time.perf_counter() - start
        start = time.perf_counter()
        g = spgraph.Graph(A, backend=args.backend, weights="mcl" in algorithms)
        build_s = time.perf_counter() - start
        n = A.shape[0]
        sources = np.random.default_rng(1).choice(n, min(args.sources, n), replace=False)
        entry = {"path": str(path), "vertices": n, "links": int(A.nnz), "backend": g.description,
                 "load_s": load_s, "graph_s": build_s, "algorithms": {}}
        name = pathlib.Path(path).name
        print(f"{name}: {n} vertices, {A.nnz} links; {g.description}", flush=True)
        mcl_max = args.mcl_max_links if args.mcl_max_links is not None else (
            2_000_000 if g.backend == "gpu" else 50_000)
        for alg in algorithms:
            if alg == "mcl" and A.nnz > mcl_max:
                print(f"  mcl: skipped ({A.nnz} links > --mcl-max-links {mcl_max})", flush=True)
                continue
            print(f"  {alg} ...", flush=True)
            start = time.perf_counter()
            {"pagerank": lambda: g.pagerank(tol=args.tol, warn=False), "triangles": g.triangle_count,
             "msbfs": lambda: g.msbfs(sources), "mcl": lambda: g.mcl(warn=False)}[alg]()
            res = {"start_s": time.perf_counter() - start, "python": overhead_rows(g, A, alg, args, sources)}
            for mode, r in res["python"].items():
                table.append((name, alg, f"spgraph {mode} (python {r['python_s'] * 1e3:.3f} ms)", r["wall_s"],
                              r["library_s"], r["overhead_s"], r["overhead_pct"], None))
            if args.apps:
                app, extra = {"pagerank": ("pagerank", ["--tol", str(args.tol)]), "triangles": ("tricount", []),
                              "msbfs": ("msbfs", ["--random", str(len(sources)), "--seed", "1"]),
                              # a real file: the apps write beside it and rename (never over /dev/null)
                              "mcl": ("mcl", ["-o", os.path.join(scratch, "clusters.txt")])}[alg]
                res["app"] = run_app(args.apps, app, path, extra, g.backend)
                if res["app"] and res["app"].get("compute_s") is not None:
                    table.append((name, alg, f"app {app}", res["app"]["total_s"], res["app"]["compute_s"],
                                  None, None, None))
            if alg == "pagerank" and args.scipy_max_links is not None and A.nnz > args.scipy_max_links:
                res["scipy_power_iteration"] = {"skipped": f"more than --scipy-max-links={args.scipy_max_links} links"}
            elif alg == "pagerank":
                t, (_, iters) = median_time(lambda: scipy_pagerank(A, tol=args.tol), args.repeat)
                res["scipy_power_iteration"] = {"seconds": t, "iterations": iters}
                table.append((name, alg, "scipy power iteration", t, None, None, None, None))
            if alg != "mcl":
                if A.nnz <= args.nx_max_links:
                    try:
                        res["networkx"] = networkx_rows(A, alg, args, sources)
                    except ImportError as e:
                        res["networkx"] = {"skipped": str(e)}
                else:
                    res["networkx"] = {"skipped": f"more than --nx-max-links={args.nx_max_links} links"}
                nxr = res["networkx"]
                if "networkx" in nxr:
                    table.append((name, alg, "networkx", nxr["networkx"]["seconds"], None, None, None, 1.0))
                    for b in ("spgraph", "graphblas"):
                        r = nxr.get(b, {})
                        if "first_s" in r:
                            table.append((name, alg, f"nx backend {b}: first (conversion {r['conversion_s']:.3f} s)"
                                          if r["conversion_s"] is not None else f"nx backend {b}: first",
                                          r["first_s"], None, None, None, r["speedup_first"]))
                            table.append((name, alg, f"nx backend {b}: cached", r["cached_s"], None, None, None,
                                          r["speedup_cached"]))
                        elif "skipped" in r:
                            print(f"  {alg}: {b} skipped: {r['skipped']}")
            entry["algorithms"][alg] = res
        report["graphs"].append(entry)

    print()
    header = f"{'graph':<22} {'algorithm':<10} {'what':<48} {'wall s':>10} {'library s':>10} {'overhead':>10} " \
             f"{'% of lib':>9} {'x networkx':>10}"
    print(header)
    print("-" * len(header))
    for name, alg, what, wall, lib, over, pct, speedup in table:
        def f(x, fmt):
            return format(x, fmt) if x is not None else "-"
        print(f"{name[:22]:<22} {alg:<10} {what[:48]:<48} {f(wall, '10.5f')} {f(lib, '10.5f')} "
              f"{f(over * 1e3 if over is not None else None, '8.3f') + ' ms' if over is not None else '-':>10} "
              f"{f(pct, '8.1f') + '%' if pct is not None else '-':>9} {f(speedup, '9.1f') + 'x' if speedup else '-':>10}")
    shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
        print(f"\nJSON: {args.json}")


if __name__ == "__main__":
    main()
