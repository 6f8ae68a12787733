#!/usr/bin/env python3
"""Tables for scripts/gpu-compare.sh (standard library only: runs on the GPU machine's python3).

  gpu-compare.py compare LOGS OUT_PREFIX [TITLE]
      LOGS/base/<bench>.json and LOGS/head/<bench>.json (bench: spmv spgemm tricount msbfs mcl
      e2e), as the benchmarks' --json wrote them in one device run. Prints one table
      (benchmark, baseline ms, HEAD ms, ratio = HEAD / baseline: above 1 is slower at HEAD), the
      headline rows of each benchmark, and a summary per benchmark; writes every row to
      OUT_PREFIX.csv and the printed text to OUT_PREFIX.txt.
  gpu-compare.py sweep SWEEP_DIR GRAPH_DIR THRESHOLDS_HPP OUT_PREFIX [TITLE]
      SWEEP_DIR/<app>-rmat<N>.json (bench_end_to_end, one app and graph, --backends gpu,cpu),
      the links of GRAPH_DIR/rmat<N>.spgcsr (header, byte 32), the thresholds in use
      (apps/common/backend_rule.hpp). Prints the GPU and CPU wall times per app and graph and
      the threshold the rule of docs/performance/backend-choice.md derives: the GPU from the
      smallest links count at which the GPU's wall time is below the CPU's.
  gpu-compare.py verdict FILE
      'gpu' when the GPU's wall time in FILE (bench_end_to_end JSON) is below the CPU's, or the
      CPU's run failed (timed out) while the GPU's did not; 'cpu' when the CPU's is at or below
      the GPU's; '?' otherwise. For the sweep's early stop.
"""
import csv
import json
import math
import os
import re
import struct
import sys

BENCHES = ["spmv", "spgemm", "tricount", "msbfs", "mcl", "e2e"]
SLOWER = 1.10  # a ratio at or above this is flagged; the cuSPARSE rows show the run's own noise


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def ms(x, scale=1.0):
    return None if x is None else float(x) * scale


def rows_spmv(d):
    """(label, ms, kind, headline); kind: ours | control (a library the change did not touch)."""
    out = []
    for r in d.get("results", []):
        cfg = f"{r['input']} {r['precision']} {r['values']}"
        for i in r.get("implementations", []):
            if i.get("status") != "ok" or i.get("median_ms") is None:
                continue
            name = i["implementation"]
            auto = bool(i.get("automatic"))
            if auto:
                name = "ours auto"  # 'ours auto -> csr-stream': the pick may differ between trees
            out.append((f"spmv {cfg} {name}", i["median_ms"], "ours" if i.get("ours") else "control", auto))
        if r.get("cusparse_best_ms") is not None:
            out.append((f"spmv {cfg} cuSPARSE best", r["cusparse_best_ms"], "control", False))
    for p in d.get("summary", {}).get("pagerank", []):
        if p.get("status") != "ok":
            continue
        cfg = f"{p['input']} {p['precision']}"
        if p.get("iteration_ms") is not None:
            out.append((f"pagerank iteration {cfg} (auto: {p.get('loop')} loop)", p["iteration_ms"], "ours", True))
        for k, loop in (("host_loop_iteration_ms", "host"), ("device_loop_iteration_ms", "device")):
            if p.get(k) is not None:
                out.append((f"pagerank iteration {cfg} {loop} loop", p[k], "ours", False))
        if p.get("value_free_spmv_ms") is not None:
            out.append((f"pagerank value-free SpMV {cfg}", p["value_free_spmv_ms"], "ours", False))
    return out


def rows_spgemm(d):
    out = []
    for r in d.get("results", []):
        cfg = f"{r['input']} {r['operation']} {r['precision']}"
        for i in r.get("implementations", []):
            if i.get("status") != "ok" or i.get("median_ms") is None:
                continue
            ours = bool(i.get("ours"))
            out.append((f"spgemm {cfg} {i['implementation']}", i["median_ms"], "ours" if ours else "control", ours))
    return out


def rows_tricount(d):
    out = []
    for r in d.get("results", []):
        name = r["input"]
        for key, backend in (("gpu_build", "gpu"), ("graphblas_build", "cpu")):
            b = r.get(key) or {}
            if b.get("total_s") is not None:
                out.append((f"tricount {name} build ({backend})", ms(b["total_s"], 1e3), "ours", backend == "gpu"))
        for row in r.get("rows", []):
            if row.get("status") != "ok" or row.get("median_s") is None:
                continue
            headline = row["label"] == "sandia-dot"  # the default method, on either backend
            out.append((f"tricount {name} {row['label']} ({row['backend']})", ms(row["median_s"], 1e3), "ours",
                        headline))
    return out


def rows_msbfs(d):
    out = []
    for r in d.get("results", []):
        for row in r.get("rows", []):
            if row.get("status") != "ok" or row.get("measured_median_s") is None:
                continue
            run = row.get("sources_run", row.get("sources"))
            label = f"msbfs {r['input']} k={row['sources']} {row['contender']}"
            if run != row.get("sources"):
                label += f" ({run} run)"
            out.append((label, ms(row["measured_median_s"], 1e3), "ours" if row["contender"] != "boost-bfs" else "control",
                        row["contender"] == "gpu-msbfs"))
    return out


def rows_mcl(d):
    out = []
    for r in d.get("results", []):
        for o in r.get("ours", []):
            if o.get("status") != "ok" or o.get("median_s") is None:
                continue
            out.append((f"mcl {r['input']} ({o['backend']})", ms(o["median_s"], 1e3), "ours", True))
            if o.get("iterate_median_s") is not None:
                out.append((f"mcl {r['input']} iterations ({o['backend']})", ms(o["iterate_median_s"], 1e3), "ours",
                            False))
    return out


def rows_e2e(d):
    out = []
    for r in d.get("results", []):
        if r.get("status") != "ok" or r.get("wall_s") is None:
            continue
        cfg = f"{r['app']} {r['input']} --backend {r['backend']}"
        out.append((f"app {cfg}: wall", ms(r["wall_s"], 1e3), "ours", True))
        for phase in ("startup_s", "device_init_s", "load_s", "compute_s"):
            v = (r.get("phases") or {}).get(phase)
            if v is not None:
                out.append((f"app {cfg}: {phase[:-2]}", ms(v, 1e3), "ours", False))
    return out


EXTRACT = {"spmv": rows_spmv, "spgemm": rows_spgemm, "tricount": rows_tricount, "msbfs": rows_msbfs,
           "mcl": rows_mcl, "e2e": rows_e2e}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt_ms(x):
    if x is None:
        return "-"
    return f"{x:.4f}" if x < 1 else f"{x:.3f}" if x < 100 else f"{x:.1f}"


def compare(logs, prefix, title=""):
    lines, csv_rows, summary = ([title] if title else []), [], []
    width = 56
    lines.append(f"{'benchmark':<{width}} {'baseline ms':>11} {'HEAD ms':>10} {'ratio':>6}")
    for bench in BENCHES:
        base = load(os.path.join(logs, "base", bench + ".json"))
        head = load(os.path.join(logs, "head", bench + ".json"))
        if base is None or head is None:
            missing = " and ".join(t for t, d in (("baseline", base), ("HEAD", head)) if d is None)
            summary.append(f"{bench}: no comparison ({missing} JSON missing: see its log)")
            continue
        b = {label: (v, kind, hl) for label, v, kind, hl in EXTRACT[bench](base)}
        h = {label: (v, kind, hl) for label, v, kind, hl in EXTRACT[bench](head)}
        ours, control, flagged = [], [], []
        for label in b:
            if label not in h:
                continue
            bv, kind, hl = b[label]
            hv = h[label][0]
            ratio = hv / bv if bv and bv > 0 and hv is not None else None
            csv_rows.append([bench, label, kind, bv, hv, ratio])
            if ratio is None:
                continue
            (ours if kind == "ours" else control).append((ratio, label))
            if kind == "ours" and ratio >= SLOWER:
                flagged.append((ratio, label))
            if hl:
                mark = " slower?" if kind == "ours" and ratio >= SLOWER else ""
                lines.append(f"{label[:width]:<{width}} {fmt_ms(bv):>11} {fmt_ms(hv):>10} {ratio:>6.3f}{mark}")
        only = sorted(set(b) ^ set(h))
        g, gc = geomean([r for r, _ in ours]), geomean([r for r, _ in control])
        s = f"{bench}: {len(ours)} rows of ours, geometric mean ratio {g:.3f}" if g else f"{bench}: no common rows"
        if ours:
            worst = max(ours)
            s += f", highest {worst[0]:.3f} ({worst[1]})"
        s += f", {len(flagged)} at or above {SLOWER:.2f}"
        if flagged:
            s += " (" + "; ".join(f"{l} {r:.2f}" for r, l in sorted(flagged, reverse=True)[:3]) + \
                 ("; ..." if len(flagged) > 3 else "") + ")"
        if gc:
            s += f"; control (cuSPARSE or Boost: code the change did not touch) {len(control)} rows, geometric mean {gc:.3f}"
        if only:
            s += f"; {len(only)} rows in one tree only"
        summary.append(s)
        lines.append("")
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "row", "kind", "baseline_ms", "head_ms", "ratio_head_over_baseline"])
        w.writerows(csv_rows)
    text = "\n".join(lines + ["summary (ratio = HEAD / baseline; every row in " + os.path.basename(prefix) +
                              ".csv):"] + ["  " + s for s in summary])
    with open(prefix + ".txt", "w") as f:
        f.write(text + "\n")
    print(text)


# ---- the sweep

def spgcsr_links(path):
    try:
        with open(path, "rb") as f:
            header = f.read(40)
        return struct.unpack_from("<q", header, 32)[0]
    except (OSError, struct.error):
        return None


def walls(d):
    """{backend: (wall_s or None, status)} of a bench_end_to_end report for one app and input."""
    out = {}
    for r in (d or {}).get("results", []):
        out[r["backend"]] = (r.get("wall_s") if r.get("status") == "ok" else None, r.get("status", "?"))
    return out


def gpu_wins(w):
    g, c = w.get("gpu", (None, "")), w.get("cpu", (None, ""))
    if g[0] is not None and c[0] is not None:
        return g[0] < c[0]
    if g[0] is not None and c[0] is None and c[1] not in ("", "?") and c[1].startswith("failed"):
        return True  # the CPU ran past --timeout (or failed) where the GPU finished
    return None


def verdict(path):
    r = gpu_wins(walls(load(path)))
    print("?" if r is None else "gpu" if r else "cpu")


def current_thresholds(hpp):
    out = {}
    try:
        text = open(hpp).read()
    except OSError:
        return out
    for app, links in re.findall(r'\{"(\w+)",\s*([0-9\']+)\}', text):
        out[app] = int(links.replace("'", ""))
    return out


def sweep(sweep_dir, graph_dir, hpp, prefix, title=""):
    current = current_thresholds(hpp)
    runs = {}
    for name in os.listdir(sweep_dir) if os.path.isdir(sweep_dir) else []:
        m = re.fullmatch(r"(\w+)-rmat(\d+)\.json", name)
        if m:
            runs.setdefault(m.group(1), {})[int(m.group(2))] = walls(load(os.path.join(sweep_dir, name)))
    lines = ([title] if title else []) + [f"{'app':<9} {'graph':<8} {'links':>12} {'GPU wall s':>11} {'CPU wall s':>11} {'CPU/GPU':>8}  faster"]
    csv_rows, verdicts = [], []
    for app in ("pagerank", "tricount", "msbfs", "mcl"):
        points = []
        for scale in sorted(runs.get(app, {})):
            w = runs[app][scale]
            links = spgcsr_links(os.path.join(graph_dir, f"rmat{scale}.spgcsr"))
            g, c = w.get("gpu", (None, "not run")), w.get("cpu", (None, "not run"))
            win = gpu_wins(w)
            ratio = c[0] / g[0] if g[0] and c[0] else None
            faster = "?" if win is None else "GPU" if win else "CPU"
            def cell(x):
                return f"{x[0]:.3f}" if x[0] is not None else x[1][:11]
            links_s = f"{links:,}" if links is not None else "?"
            ratio_s = f"{ratio:.2f}" if ratio else "-"
            lines.append(f"{app:<9} {'R-MAT ' + str(scale):<8} {links_s:>12} {cell(g):>11} {cell(c):>11} "
                         f"{ratio_s:>8}  {faster}")
            csv_rows.append([app, scale, links, g[0], g[1], c[0], c[1], faster])
            points.append((links, win))
        lines.append("")
        # The rule: the GPU from the smallest links count at which the GPU's wall time is below
        # the CPU's (docs/performance/backend-choice.md).
        wins = [l for l, win in points if win and l is not None]
        now = current.get(app)
        now_s = f"{now:,}" if now is not None else "?"
        if not points:
            verdicts.append(f"{app}: not measured (threshold in use {now_s})")
            continue
        if not wins:
            top = max((l for l, _ in points if l is not None), default=None)
            verdicts.append(f"{app}: the CPU was faster on every graph up to {top:,} links: no crossover in the "
                            f"sweep (threshold in use {now_s})" if top else f"{app}: no usable points")
            continue
        first = min(wins)
        below = [l for l, win in points if win is False and l is not None and l < first]
        above_cpu = [l for l, win in points if win is False and l is not None and l > first]
        v = f"{app}: GPU from {first:,} links (rule: smallest links where GPU wall < CPU wall)"
        v += f"; CPU faster up to {max(below):,}" if below else "; the GPU already won on the smallest graph"
        if above_cpu:
            v += f"; NOT monotonic: the CPU won again at {', '.join(f'{l:,}' for l in above_cpu)}"
        v += f"; threshold in use {now_s}"
        verdicts.append(v)
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["app", "rmat_scale", "links", "gpu_wall_s", "gpu_status", "cpu_wall_s", "cpu_status", "faster"])
        w.writerows(csv_rows)
    text = "\n".join(lines + ["crossovers (wall time spawn to exit, median of the sweep's repeats):"] +
                     ["  " + v for v in verdicts])
    with open(prefix + ".txt", "w") as f:
        f.write(text + "\n")
    print(text)


def main(argv):
    if len(argv) >= 4 and argv[1] == "compare":
        compare(argv[2], argv[3], argv[4] if len(argv) > 4 else "")
    elif len(argv) >= 6 and argv[1] == "sweep":
        sweep(argv[2], argv[3], argv[4], argv[5], argv[6] if len(argv) > 6 else "")
    elif len(argv) >= 3 and argv[1] == "verdict":
        verdict(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
