#!/usr/bin/env python3
"""Renders the benchmarks' JSON reports (--json of spmv, spgemm, bench_tricount, bench_msbfs,
bench_mcl, bench_end_to_end, bench_graph_build) into figures, one or two per report.

usage: python3 scripts/plot-benchmarks.py DATA_DIR FIGURES_DIR

Every *.json in DATA_DIR is read; its "benchmark" field picks the figure (bench_graph_build's
report has none: its rows of upload_s and transpose_s name it). A figure is FIGURES_DIR/<the
JSON's name>.svg (spmv also <name>-pagerank.svg), titled with the report's device, so a report
named by its card (spmv-bench-h100.json) gives that card's figure. Needs python3-matplotlib
(Debian); draws headless (Agg). Reports of another kind are listed and skipped.
"""
import json
import math
import os
import pathlib
import sys

try:
    import matplotlib
except ImportError:
    # Debian's python3-matplotlib belongs to /usr/bin/python3; a python3 earlier on PATH (pyenv,
    # a virtual environment) may not see it.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("plot-benchmarks: needs matplotlib (Debian: apt-get install python3-matplotlib)")

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "spgraph"  # the same report gives the same file
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller files, searchable
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the headless backend)

PHASES = ["startup", "device_init", "load", "build", "compute", "write"]
PHASE_COLOURS = ["#9e9e9e", "#bc80bd", "#80b1d3", "#fdb462", "#e41a1c", "#b3de69"]


def ok(entry):
    return entry.get("status", "ok") == "ok"


def new_figure(doc, title, width=10, height=5):
    fig, ax = plt.subplots(figsize=(width, height))
    ax.set_title(f"{title}\n{doc.get('device', 'device not recorded')}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return fig, ax


def grouped_bars(ax, groups, series, values, log=False):
    """Bars of values[s][g] for each series s beside each other in each group g; NaN is left out."""
    width = 0.8 / max(1, len(series))
    for i, name in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values[name][g] for g in range(len(groups))], width, label=name)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    if log:
        ax.set_yscale("log")
    ax.legend(fontsize=8)


def plot_spmv(doc):
    """GB/s of our automatic choice and of cuSPARSE's best per configuration, against the copy
    bandwidth; then PageRank's iteration against one value-free SpMV."""
    groups, ours, cusparse = [], [], []
    for c in doc.get("results", []):
        impls = [i for i in c.get("implementations", []) if ok(i) and "gb_per_s" in i]
        auto = [i["gb_per_s"] for i in impls if i.get("automatic")]
        best = [i["gb_per_s"] for i in impls if not i.get("ours")]
        if not auto or not best:
            continue
        groups.append(f"{c['input']} {c['precision']} {c['values']}")
        ours.append(auto[0])
        cusparse.append(max(best))
    figures = []
    if groups:
        fig, ax = new_figure(doc, "SpMV: effective GB/s, ours (automatic choice) against cuSPARSE's best", 12)
        grouped_bars(ax, groups, ["ours auto", "cuSPARSE best"], {"ours auto": ours, "cuSPARSE best": cusparse})
        copy = doc.get("copy_bandwidth", {}).get("gb_per_s")
        if copy:
            ax.axhline(copy, color="black", linestyle="--", linewidth=1, label=f"device copy {copy:.0f} GB/s")
            ax.legend(fontsize=8)
        ax.set_ylabel("GB/s (bytes an SpMV must move / median time)")
        figures.append(("", fig))
    pagerank = [p for p in doc.get("summary", {}).get("pagerank", []) if ok(p) and "iteration_ms" in p]
    if pagerank:
        fig, ax = new_figure(doc, "PageRank: one iteration against one value-free SpMV (ms)")
        groups = [f"{p['input']} {p['precision']}" for p in pagerank]
        grouped_bars(ax, groups, ["PageRank iteration", "value-free SpMV"],
                     {"PageRank iteration": [p["iteration_ms"] for p in pagerank],
                      "value-free SpMV": [p["value_free_spmv_ms"] for p in pagerank]}, log=True)
        ax.set_ylabel("ms (log)")
        figures.append(("-pagerank", fig))
    return figures


def plot_spgemm(doc):
    """Per case, the fastest of ours and of cuSPARSE's (median ms)."""
    groups, ours, cusparse = [], [], []
    for c in doc.get("results", []):
        impls = [i for i in c.get("implementations", []) if ok(i) and "median_ms" in i]
        mine = [i["median_ms"] for i in impls if i.get("ours")]
        theirs = [i["median_ms"] for i in impls if not i.get("ours")]
        if not mine:
            continue
        groups.append(f"{c['input']} {c['operation']} {c['precision']}")
        ours.append(min(mine))
        cusparse.append(min(theirs) if theirs else math.nan)
    if not groups:
        return []
    fig, ax = new_figure(doc, "SpGEMM: fastest of ours against fastest of cuSPARSE (median ms)", 12)
    grouped_bars(ax, groups, ["ours best", "cuSPARSE best"], {"ours best": ours, "cuSPARSE best": cusparse}, log=True)
    ax.set_ylabel("ms (log)")
    return [("", fig)]


def plot_tricount(doc):
    """Per input: our default method, our best one and GraphBLAS (seconds)."""
    rows = [r for r in doc.get("summary", {}).get("inputs", []) if "default_s" in r]
    if not rows:
        return []
    fig, ax = new_figure(doc, "Triangle counting: seconds per input (GPU methods against GraphBLAS)")
    series = {"ours default": [r["default_s"] for r in rows],
              "ours best method": [r.get("best_s", math.nan) for r in rows],
              "GraphBLAS": [r.get("graphblas_s", math.nan) for r in rows]}
    grouped_bars(ax, [r["input"] for r in rows], list(series), series, log=True)
    ax.set_ylabel("seconds (log)")
    return [("", fig)]


def plot_msbfs(doc):
    """Per input, seconds against the number of sources for each contender (log-log)."""
    rows = doc.get("summary", {}).get("inputs", [])
    inputs = list(dict.fromkeys(r["input"] for r in rows))
    if not inputs:
        return []
    fig, axes = plt.subplots(1, len(inputs), figsize=(4.5 * len(inputs), 4.2), squeeze=False)
    fig.suptitle(f"Multi-source BFS: seconds against sources k\n{doc.get('device', '')}", fontsize=10)
    for ax, name in zip(axes[0], inputs):
        mine = [r for r in rows if r["input"] == name]
        for key, label in [("ours_s", "ours (batched)"), ("gpu-single_s", "ours one source at a time"),
                           ("graphblas-msbfs_s", "GraphBLAS"), ("boost-bfs_s", "Boost.Graph")]:
            points = [(r["sources"], r[key]) for r in mine if key in r]
            if points:
                ax.plot(*zip(*points), marker="o", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("sources k")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("seconds (log)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return [("", fig)]


def plot_mcl(doc):
    """Per input: ours on each backend and van Dongen's mcl (seconds)."""
    groups, series = [], {"ours gpu": [], "ours cpu": [], "mcl (this run)": [], "mcl (reference)": []}
    for r in doc.get("results", []):
        groups.append(r["input"])
        by_backend = {o["backend"]: o.get("median_s", math.nan) for o in r.get("ours", []) if ok(o)}
        series["ours gpu"].append(by_backend.get("gpu", math.nan))
        series["ours cpu"].append(by_backend.get("cpu", math.nan))
        mcl = r.get("mcl", {})
        series["mcl (this run)"].append(mcl.get("seconds", math.nan) if ok(mcl) else math.nan)
        series["mcl (reference)"].append(r.get("reference_mcl", {}).get("seconds", math.nan))
    if not groups:
        return []
    fig, ax = new_figure(doc, "Markov clustering: seconds per input")
    grouped_bars(ax, groups, list(series), series, log=True)
    ax.set_ylabel("seconds (log)")
    return [("", fig)]


def plot_end_to_end(doc):
    """One panel an input (their times differ by orders of magnitude), one bar a run (app,
    backend): its phases stacked from process start, and the wall time (spawn to exit) as a tick."""
    runs = [r for r in doc.get("results", []) if ok(r)]
    inputs = list(dict.fromkeys(r["input"] for r in runs))
    if not inputs:
        return []
    heights = [sum(r["input"] == name for r in runs) for name in inputs]
    fig, axes = plt.subplots(len(inputs), 1, figsize=(10, 0.3 * sum(heights) + 0.9 * len(inputs) + 1),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    fig.suptitle(f"End to end: where each run's time goes (median of {doc.get('timing', {}).get('repeats', '?')})"
                 f"\n{doc.get('device', '')}", fontsize=10)
    for ax, name in zip(axes[:, 0], inputs):
        mine = [r for r in runs if r["input"] == name]
        ys = range(len(mine))
        left = [0.0] * len(mine)
        for phase, colour in zip(PHASES + ["other"], PHASE_COLOURS + ["#ffffb3"]):
            widths = [r["other_s"] if phase == "other" else r["phases"][phase + "_s"] for r in mine]
            ax.barh(ys, widths, left=left, color=colour, label=phase)
            left = [a + b for a, b in zip(left, widths)]
        ax.scatter([r["wall_s"] for r in mine], ys, marker="|", s=200, color="black", label="wall (spawn to exit)")
        ax.set_yticks(list(ys))
        ax.set_yticklabels([f"{r['app']} {r['backend']}" for r in mine], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(name, fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("seconds from process start")
    axes[0, 0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return [("", fig)]


def plot_graph_build(doc):
    """Per input and backend: building the graph (upload, transpose, degrees, formats)."""
    rows = doc.get("results", [])
    if not rows:
        return []
    fig, ax = new_figure(doc, "Building the graph on the backend: seconds by part")
    labels = [f"{r['input']} {r['backend']}" for r in rows]
    bottom = [0.0] * len(rows)
    for part in ["upload_s", "transpose_s", "degrees_s", "formats_s"]:
        heights = [r.get(part, 0.0) for r in rows]
        ax.bar(range(len(rows)), heights, bottom=bottom, label=part[:-2])
        bottom = [a + b for a, b in zip(bottom, heights)]
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("seconds")
    ax.legend(fontsize=8)
    return [("", fig)]


PLOTTERS = {"spmv": plot_spmv, "spgemm": plot_spgemm, "tricount": plot_tricount, "msbfs": plot_msbfs,
            "mcl": plot_mcl, "end_to_end": plot_end_to_end, "graph_build": plot_graph_build}


def kind_of(doc):
    if "benchmark" in doc:
        return doc["benchmark"]
    rows = doc.get("results", [])
    if rows and "upload_s" in rows[0] and "transpose_s" in rows[0]:
        return "graph_build"
    return None


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    data, figures = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    if not data.is_dir():
        sys.exit(f"plot-benchmarks: {data}: no such folder of JSON reports")
    figures.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(data.glob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"plot-benchmarks: {path}: not a JSON report ({e})")
        kind = kind_of(doc)
        if kind not in PLOTTERS:
            print(f"{path}: skipped (a report of kind {kind!r}; known: {', '.join(PLOTTERS)})")
            continue
        made = PLOTTERS[kind](doc)
        if not made:
            print(f"{path}: skipped (no completed results to draw)")
        for suffix, fig in made:
            out = figures / f"{path.stem}{suffix}.svg"
            fig.savefig(out, bbox_inches="tight", metadata={"Date": None})
            plt.close(fig)
            print(f"{path} -> {out}")
            written += 1
    print(f"{written} figures in {figures}")


if __name__ == "__main__":
    main(sys.argv)
