"""Scale proof: ingest 10k, 100k and 1M synthesised hands with the local engine (1 and 2 workers)
and with Dask (a LocalCluster of 2 workers); the same run's read+split floor.

Inputs are the shared cached histories (`bench_store.synthesised_files(1_000_000)`: 100 files
of 10,000 hands, the six games in turn); a smaller size takes the first files. Every import
goes into a fresh DuckDB file, each in a process of its own so its peak memory is its own: the
client (the importing process; with Dask it also hosts the scheduler) and the sum over its
worker processes (with Dask: the nannies and the workers), sampled with psutil every 0.2 s,
and the CPU seconds of each. The local engine writes DuckDB only; Dask's workers always write
Parquet parts, loaded into DuckDB by the client, so its runs keep them (`--parquet`) at no
extra cost, and the sizes of both on disk are reported.

Targets: cost linear in hands (hands/s between consecutive sizes flat: a fixed start-up plus a
constant cost a hand); 2 workers >= 1.8x one; the client's
peak RSS < 1 GB at 1M hands. The table is printed; the figures are saved as JSON and drawn as a
PNG (benchmarks/results/scale.{json,png}).

    .venv/bin/python benchmarks/scale.py [--sizes 10000,100000,1000000] [--runs local1,...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import psutil
from bench_store import HANDS_PER_FILE, synthesised_files
from rich.console import Console
from rich.table import Table

from studdraw.parsers.reader import open_history
from studdraw.pipeline.importer.dask_engine import DaskOptions, ingest_dask
from studdraw.pipeline.importer.ingest import IngestOptions, IngestSummary, ingest

RESULTS = Path(__file__).resolve().parent / "results"
RUNS = {"local1": ("local", 1), "local2": ("local", 2), "dask2": ("dask", 2)}
LABELS = {"local1": "local, 1 worker", "local2": "local, 2 workers", "dask2": "Dask, 2 workers"}
TARGET_SCALING = 1.8
TARGET_CLIENT_RSS = 1024**3


def inputs(hands: int) -> list[Path]:
    files = synthesised_files(1_000_000)
    return files[: -(-hands // HANDS_PER_FILE)]


def floor(files: list[Path]) -> dict[str, float]:
    """Read and split every file: the floor any import pays."""
    start = time.perf_counter()
    hands = sum(1 for path in files for _ in open_history(path).hand_texts())
    return {"hands": hands, "seconds": time.perf_counter() - start}


def measure(run: Callable[[], IngestSummary]) -> dict[str, Any]:
    """Run one import here, sampling the peak RSS of this process and of its children, and the
    CPU time each used (a child's as last seen: the sampler misses its final 0.2 s at most)."""
    me = psutil.Process()
    peak = {"client": 0, "workers": 0}
    cpu: dict[int, float] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            try:
                children = me.children(recursive=True)
                client = me.memory_info().rss
                workers = sum(c.memory_info().rss for c in children)
                for c in children:
                    times = c.cpu_times()
                    cpu[c.pid] = times.user + times.system
            except psutil.Error:
                continue
            peak["client"] = max(peak["client"], client)
            peak["workers"] = max(peak["workers"], workers)
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    summary = run()
    done.set()
    sampler.join()
    times = me.cpu_times()
    seconds = {"client": times.user + times.system, "workers": sum(cpu.values())}
    return {"summary": summary.as_dict(), "rss": peak, "cpu": seconds}


def child(name: str, hands: int, folder: Path) -> dict[str, Any]:
    """One import into `folder`/store.duckdb (Dask: with its parts kept in `folder`/parquet)."""
    engine, workers = RUNS[name]
    files = inputs(hands)
    db, parquet = folder / "store.duckdb", folder / "parquet"
    if engine == "dask":
        options = IngestOptions(db, parquet, workers=workers)
        result = measure(lambda: ingest_dask(files, options, DaskOptions()))
        result["parquet_bytes"] = sum(p.stat().st_size for p in parquet.rglob("*.parquet"))
    else:
        result = measure(lambda: ingest(files, IngestOptions(db, workers=workers)))
    result["db_bytes"] = db.stat().st_size
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--runs", default=",".join(RUNS))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--replot", action="store_true", help="table and chart again from the saved JSON"
    )
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:  # child mode: one import, its figures as JSON on stdout
        name, hands, folder = args.measure
        print(json.dumps(child(name, int(hands), Path(folder))))
        return
    console = Console(width=170)
    if args.replot:
        report = json.loads((args.out / "scale.json").read_text())
        show(report, args.out, console)
        return
    sizes = [int(size) for size in args.sizes.split(",")]
    runs = args.runs.split(",")
    inputs(max(sizes))  # built once, shared (and waited for, if another run is building it)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as temp:
        for hands in sizes:
            load = os.getloadavg()[0]
            found = floor(inputs(hands))
            after = os.getloadavg()[0]
            results.append({"run": "floor", "hands": hands, "load": load, "load_after": after})
            results[-1] |= found
            console.print(f"{hands:,}: read+split {found['seconds']:.1f} s", style="dim")
            for name in runs:
                folder = Path(temp) / f"{name}-{hands}"
                folder.mkdir()
                load = os.getloadavg()[0]
                command = [sys.executable, __file__, "--measure", name, str(hands), str(folder)]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                result = json.loads(out.splitlines()[-1])
                after = os.getloadavg()[0]
                results.append({"run": name, "hands": hands, "load": load, "load_after": after})
                results[-1] |= result
                console.print(
                    f"{hands:,}: {LABELS[name]} {result['summary']['seconds']:.1f} s "
                    f"(load {load:.2f} before, {after:.2f} after)",
                    style="dim",
                )
                shutil.rmtree(folder)
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"cores": os.cpu_count(), "results": results}
    (args.out / "scale.json").write_text(json.dumps(report, indent=1) + "\n")
    show(report, args.out, console)


def show(report: dict[str, Any], out: Path, console: Console) -> None:
    results = report["results"]
    console.print(table(results, report))
    verdicts(results, console)
    chart(results, out / "scale.png")
    console.print(f"chart: {out / 'scale.png'}")


def cpu_ms(result: dict[str, Any]) -> float:
    """CPU milliseconds a hand, client and workers together: the work done, which, unlike the
    wall clock, other jobs on the machine barely change."""
    seconds = result["cpu"]["client"] + result["cpu"]["workers"]
    return float(1000 * seconds / result["summary"]["hands_seen"])


def rate(result: dict[str, Any]) -> float:
    if result["run"] == "floor":
        return float(result["hands"] / result["seconds"])
    summary = result["summary"]
    return float(summary["hands_seen"] / summary["seconds"])


def table(results: list[dict[str, Any]], report: dict[str, Any]) -> Table:
    out = Table(
        title=f"Ingest at scale ({report['cores']} cores; 1-minute load average before and "
        "after each run, its own processes included)"
    )
    for column in (
        "hands",
        "run",
        "hands/s",
        "vs 1 worker",
        "vs read+split",
        "seconds",
        "stored",
        "peak RSS client",
        "peak RSS workers",
        "CPU s client",
        "CPU s workers",
        "CPU ms/hand",
        "load",
    ):
        out.add_column(column, justify="left" if column == "run" else "right")
    for hands in sorted({r["hands"] for r in results}):
        rows = [r for r in results if r["hands"] == hands]
        base = next((rate(r) for r in rows if r["run"] == "local1"), None)
        top = next(rate(r) for r in rows if r["run"] == "floor")
        for r in rows:
            name = r["run"]
            cells = [
                f"{hands:,}",
                "read+split" if name == "floor" else LABELS[name],
                f"{rate(r):,.0f}",
                f"{rate(r) / base:.2f}x" if base and name != "floor" else "",
                f"{rate(r) / top:.3f}",
            ]
            if name == "floor":
                cells += [f"{r['seconds']:.1f}", "", "", "", "", "", ""]
            else:
                cells += [
                    f"{r['summary']['seconds']:.1f}",
                    f"{r['summary']['stored']:,}",
                    _mb(r["rss"]["client"]),
                    _mb(r["rss"]["workers"]) if r["rss"]["workers"] else "",
                    f"{r['cpu']['client']:.0f}",
                    f"{r['cpu']['workers']:.0f}" if r["cpu"]["workers"] else "",
                    f"{cpu_ms(r):.2f}",
                ]
            out.add_row(*cells, f"{r['load']:.2f} / {r['load_after']:.2f}")
        out.add_section()
    return out


def verdicts(results: list[dict[str, Any]], console: Console) -> None:
    """The targets, each met or missed."""
    for name in sorted({r["run"] for r in results} - {"floor"}):
        runs = sorted((r["hands"], r["summary"]["seconds"]) for r in results if r["run"] == name)
        if len(runs) < 2:
            continue
        # Linear cost is seconds = start-up + hands x cost a hand: the hands/s between
        # consecutive sizes (the start-up cancels out) is then flat, while the plain hands/s
        # of a small run also pays the start-up (a pool or a cluster to start).
        marginal = [(h2 - h1) / (s2 - s1) for (h1, s1), (h2, s2) in pairwise(runs)]
        spread = max(marginal) / min(marginal)
        startup = runs[-1][1] - runs[-1][0] / marginal[-1]
        console.print(
            f"{LABELS[name]}: hands/s between consecutive sizes "
            + ", ".join(f"{x:,.0f}" for x in marginal)
            + f" (max/min {spread:.2f}: {'linear' if spread < 1.25 else 'NOT linear'}; "
            f"start-up about {startup:.1f} s)"
        )
    for r in results:
        by = {x["run"]: rate(x) for x in results if x["hands"] == r["hands"]}
        if r["run"] in ("local2", "dask2") and "local1" in by:
            ratio = rate(r) / by["local1"]
            verdict = "met" if ratio >= TARGET_SCALING else "MISSED"
            one = next(x for x in results if x["hands"] == r["hands"] and x["run"] == "local1")
            console.print(
                f"{r['hands']:,} hands, {LABELS[r['run']]} >= {TARGET_SCALING}x one worker: "
                f"{ratio:.2f}x {verdict}; CPU a hand {cpu_ms(r):.2f} ms vs {cpu_ms(one):.2f} ms "
                f"(on two idle cores at most {2 * cpu_ms(one) / cpu_ms(r):.2f}x)"
            )
        if r["run"] != "floor" and r["hands"] >= 1_000_000:
            client = r["rss"]["client"]
            verdict = "met" if client < TARGET_CLIENT_RSS else "MISSED"
            console.print(
                f"{r['hands']:,} hands, {LABELS[r['run']]}: client peak RSS {_mb(client)} "
                f"< 1 GB {verdict}; workers {_mb(r['rss']['workers'])}"
            )
        if "db_bytes" in r:
            sizes = f"DuckDB {_mb(r['db_bytes'])}"
            if "parquet_bytes" in r:
                sizes += f", Parquet {_mb(r['parquet_bytes'])}"
            console.print(f"{r['hands']:,} hands, {LABELS[r['run']]}: {sizes}")


def chart(results: list[dict[str, Any]], path: Path) -> None:
    """hands/s and peak memory against hands, one line per run."""
    import matplotlib  # noqa: PLC0415 - a dev dependency, needed only here

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    figure, (speed, memory) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=100)
    styles = {"floor": ("read+split", "0.6", ":"), "local1": ("", "C0", "-")}
    styles |= {"local2": ("", "C1", "-"), "dask2": ("", "C2", "-")}
    for name, (floor_label, colour, line) in styles.items():
        points = sorted((r["hands"], r) for r in results if r["run"] == name)
        if not points:
            continue
        xs = [hands for hands, _ in points]
        label = floor_label or LABELS[name]
        speed.plot(xs, [rate(r) for _, r in points], line, color=colour, marker="o", label=label)
        if name == "floor":
            continue
        client = [r["rss"]["client"] / 2**20 for _, r in points]
        total = [(r["rss"]["client"] + r["rss"]["workers"]) / 2**20 for _, r in points]
        memory.plot(xs, client, line, color=colour, marker="o", label=f"{label}: client")
        if any(r["rss"]["workers"] for _, r in points):
            memory.plot(xs, total, "--", color=colour, marker="s", label=f"{label}: + workers")
    memory.axhline(1024, color="red", linewidth=0.8, linestyle=":", label="1 GB client target")
    for axis, title, unit in (
        (speed, "Throughput", "hands/s"),
        (memory, "Peak memory (RSS)", "MB"),
    ):
        axis.set_xscale("log")
        axis.set_xlabel("hands ingested")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
    speed.set_yscale("log")  # the read+split floor is an order of magnitude above the rest
    memory.set_ylim(bottom=0)
    speed.legend(fontsize=8)
    memory.legend(fontsize=7)
    figure.suptitle("studdraw ingest: local engine vs Dask LocalCluster (synthesised hands)")
    figure.tight_layout()
    figure.savefig(path)


def _mb(value: int) -> str:
    return f"{value / 2**20:,.0f} MB"


if __name__ == "__main__":
    main()
