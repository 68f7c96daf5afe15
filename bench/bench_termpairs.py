#!/usr/bin/env python3
"""Benchmark: all 20 term-pair datasets at full scale, per input and per Levenshtein kernel.

1. For each input (a synthetic SNOMED-scale RF2 release, ``bench/generate_snomed/``; MeSH from the
   mirror's tables, descriptors alone and with the supplementary concept records), reads the
   terminology, builds the positives and the 20 datasets exactly as the workflow does (the
   ``termpairs`` parameters of the default config, MeSH descriptors and surface variants joined in the
   similarity components as rule ``build_termpair_positives`` joins them, the joint first search of
   ``termpairs.joint_search``,
   ``biosem.termpairs.search.search_neighbours``, then ``biosem.termpairs.negatives.build_dataset`` with
   the workflow's seeds), and reports wall and CPU time per step, the counts (positives per kind and difficulty,
   dataset rows) and the peak RSS.
2. Each (input, kernel) pair runs in a fresh subprocess, so that its peak RSS is its own and the kernel
   is chosen at import (``BIOSEM_KERNEL=numba`` forces the numba kernels; see
   ``biosem.levenshtein.kernels.KERNEL``). Runs go input by input, the kernels of one input one after
   the other, so that both kernels of an input see much the same machine load.
3. Optionally (not with ``--skip-subset``), on a 20,000-term subset of the FSN-SYN hard pool, compares
   ``biosem.levenshtein.index.LevenshteinIndex`` with brute-force ``rapidfuzz.process.cdist`` over all
   pairs: the nearest valid distances must be equal; the figure reported is the ratio of wall times.

Usage::

    python -m bench.generate_snomed --out /tmp/snomed_scale
    python bench/bench_termpairs.py --release /tmp/snomed_scale [--workers 2] [--out bench/out/termpairs.json]
    # MeSH 2024 from the mirror, descriptors alone and with the supplementary concept records, and the
    # synthetic SNOMED CT release, each on both kernels:
    python bench/bench_termpairs.py --release /tmp/snomed_scale --mesh-dir ../shared/data/mesh \
        --mesh-supplementary --kernels avx512,numba --skip-subset --out bench/out/termpairs_mesh.json
    # one or more datasets alone:
    python bench/bench_termpairs.py --release /tmp/snomed_scale --skip-subset \
        --datasets fsn_syn_hard_levenshtein --out bench/out/termpairs_fsn_syn_hard.json

Each run writes ``<out stem>.<input>.<kernel>.json`` (rewritten after every dataset, so a run cut by
``--run-timeout`` keeps what it measured); ``--out`` gathers the runs and a step table per run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import yaml

from biosem.levenshtein.index import LevenshteinIndex, brute_force_nearest
from biosem.seeds import generator
from biosem.terminology.mesh import read_mesh
from biosem.terminology.rf2 import read_rf2
from biosem.termpairs.exclusion import concept_groups
from biosem.termpairs.negatives import build_dataset
from biosem.termpairs.params import exclusion_from_config, params_from_config
from biosem.termpairs.positives import (
    DIFFICULTIES,
    POSITIVE_KINDS,
    STRATEGIES,
    build_positive_pairs,
    similarity_components,
)
from biosem.termpairs.search import search_neighbours

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = REPO / "config" / "config.yaml"
KERNELS = ("avx512", "numba")


class Input(NamedTuple):
    """One terminology to benchmark: ``name`` (the source name of its tables and of its output file),
    ``reader`` (``rf2`` or ``mesh``, a key of :data:`READERS`), ``path`` (an RF2 release folder, or the
    folder holding the MeSH source files) and, for MeSH, whether the supplementary concept records are
    read."""

    name: str
    reader: str
    path: str
    supplementary: bool = False


# --- pure helpers ------------------------------------------------------------------------------------


def parse_kernels(text: str) -> list[str]:
    """``"avx512,numba"`` -> ``["avx512", "numba"]`` (order kept, duplicates dropped).

    Raises:
        ValueError: empty, or a name other than those of :data:`KERNELS`.
    """
    names = list(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    unknown = [k for k in names if k not in KERNELS]
    if not names or unknown:
        raise ValueError(f"kernels {text!r}: expected a comma-separated list of {', '.join(KERNELS)}")
    return names


def mesh_files(config: Mapping[str, object], mesh_dir: str | Path, terminology: str = "mesh") -> dict[str, Path]:
    """The MeSH source file of each role (``terminologies.<terminology>.sources``: role -> source name),
    found in ``mesh_dir`` by the source's ``filename`` (config ``sources``), as rule ``ingest_mesh``
    gets them.

    Raises:
        KeyError: the terminology or one of its sources is not in the config.
    """
    spec = config["terminologies"][terminology]  # type: ignore[index]
    sources = config["sources"]
    return {role: Path(mesh_dir) / sources[name]["filename"] for role, name in spec["sources"].items()}  # type: ignore[index]


def dataset_names(selected: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
    """The 20 datasets as (kind, difficulty, strategy), or those of ``selected`` (``kind_difficulty_strategy``).

    Raises:
        ValueError: a selected name that is not one of the 20.
    """
    names = [(k, d, s) for k in POSITIVE_KINDS for d in DIFFICULTIES for s in STRATEGIES]
    if not selected:
        return names
    every = {"_".join(n) for n in names}
    unknown = sorted(set(selected) - every)
    if unknown:
        raise ValueError(f"unknown dataset(s): {', '.join(unknown)}; choose from {', '.join(sorted(every))}")
    return [n for n in names if "_".join(n) in selected]


def positive_counts(positives: pd.DataFrame) -> dict[str, int]:
    """Positives per ``<kind>_<difficulty>``, every kind and difficulty listed (0 where there are none)."""
    size = positives.groupby(["kind", "difficulty"]).size()
    return {f"{k}_{d}": int(size.get((k, d), 0)) for k in POSITIVE_KINDS for d in DIFFICULTIES}


def step_times(report: Mapping[str, object], joint_kinds: Sequence[str], cpu: bool = False) -> dict[str, float]:
    """Wall seconds (``cpu``: CPU seconds, the ``*_cpu_s`` and ``cpu_seconds`` fields) of one run grouped
    into the steps of docs/benchmarks.md.

    ``report`` is a run's report (:func:`run_input`): ``ingest_s``, ``positives_s``, ``joint_search``
    (difficulty -> {"seconds": ...}) and ``datasets`` (name -> stats with ``kind``, ``difficulty``,
    ``strategy``, ``seconds``). Steps: ``ingest``, ``positives`` (+ similarity components), ``random``
    (the random-negative datasets), ``association_levenshtein`` (the Levenshtein datasets of kinds not
    searched jointly), and per difficulty ``<difficulty>_search`` (the joint first search) and
    ``<difficulty>_levenshtein`` (the jointly searched datasets: their second searches); ``total`` is
    their sum (warm-up and the brute-force subset excluded). Steps with nothing measured are absent.
    """
    steps: dict[str, float] = {}
    field, suffix = ("cpu_seconds", "_cpu_s") if cpu else ("seconds", "_s")

    def add(key: str, seconds: float) -> None:
        steps[key] = steps.get(key, 0.0) + float(seconds)

    for key in ("ingest", "positives"):
        if f"{key}{suffix}" in report:
            add(key, report[f"{key}{suffix}"])  # type: ignore[arg-type]
    datasets: Mapping[str, Mapping[str, object]] = report.get("datasets", {})  # type: ignore[assignment]
    for stats in datasets.values():
        if stats["strategy"] == "random":
            add("random", stats[field])  # type: ignore[arg-type]
        elif stats["kind"] in joint_kinds:
            add(f"{stats['difficulty']}_levenshtein", stats[field])  # type: ignore[arg-type]
        else:
            add("association_levenshtein", stats[field])  # type: ignore[arg-type]
    joint: Mapping[str, Mapping[str, object]] = report.get("joint_search", {})  # type: ignore[assignment]
    for difficulty, counts in joint.items():
        add(f"{difficulty}_search", counts[field])  # type: ignore[arg-type]
    steps["total"] = sum(steps.values())
    return {key: round(seconds, 1) for key, seconds in steps.items()}


AGREEMENT_STATS = ("positives", "negatives", "rows", "mean_levenshtein_positive", "mean_levenshtein_negative")
"""Dataset stats that must be equal on every kernel (both kernels find the same rows)."""


def kernels_disagree(runs: Sequence[Mapping[str, object]]) -> list[str]:
    """The datasets whose :data:`AGREEMENT_STATS` differ between runs of one input on different kernels
    (``<input> <dataset>``, sorted); only datasets every run of the input built are compared."""
    by_input: dict[str, list[Mapping[str, Mapping[str, object]]]] = {}
    for run in runs:
        by_input.setdefault(str(run["input"]), []).append(run.get("datasets", {}))  # type: ignore[arg-type]
    differ = []
    for name, datasets in by_input.items():
        common = set.intersection(*(set(d) for d in datasets))
        for dataset in sorted(common):
            values = {tuple(d[dataset].get(k) for k in AGREEMENT_STATS) for d in datasets}
            if len(values) > 1:
                differ.append(f"{name} {dataset}")
    return differ


# --- one input, in this process ------------------------------------------------------------------------


class Clock:
    """Wall and CPU seconds (of this process, every thread) since the clock was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self) -> tuple[float, float]:
        """(wall seconds, CPU seconds), to 0.1 s."""
        return round(time.perf_counter() - self.wall, 1), round(time.process_time() - self.cpu, 1)


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read_snomed_input(inp: Input, config: Mapping[str, object]) -> dict[str, pa.Table]:
    """An RF2 release folder, read as rule ``ingest_snomed`` reads one (default release type and
    language refsets)."""
    return read_rf2(inp.path, inp.name)


def read_mesh_input(inp: Input, config: Mapping[str, object]) -> dict[str, pa.Table]:
    """MeSH from its source files in ``inp.path`` (:func:`mesh_files`), read as rule ``ingest_mesh``
    reads it, with the config's ``permuted_terms`` and the input's ``supplementary``."""
    spec = config["terminologies"]["mesh"]  # type: ignore[index]
    return read_mesh(
        mesh_files(config, inp.path),
        inp.name,
        supplementary=inp.supplementary,
        permuted_terms=bool(spec["permuted_terms"]),
    )


READERS = {"rf2": read_snomed_input, "mesh": read_mesh_input}


def warm_up(workers: int) -> float:
    """Run the search once on a few hundred strings of 3 to 250 characters (every word width of the
    kernels), so that loading or compiling the numba kernels is not timed; returns its seconds."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghij "))
    pool = ["".join(rng.choice(letters, size=n)) for n in rng.integers(3, 250, size=600)]
    index = LevenshteinIndex(pool, workers=workers)
    n = len(pool)
    index.nearest(pool[:100], np.ones(100, dtype=np.int64), np.arange(100), np.arange(n), np.random.default_rng(1))
    return round(time.perf_counter() - t0, 1)


def subset_ratio(
    positives: pd.DataFrame, components: pd.DataFrame, n_terms: int, n_queries: int, workers: int
) -> dict[str, float]:
    """Exact nearest search vs brute-force cdist on a subset; asserts identical minimum distances."""
    sel = positives[(positives["kind"] == "fsn_syn") & (positives["difficulty"] == "hard")]
    lower = np.unique(np.concatenate([sel["term1"].str.lower(), sel["term2"].str.lower()]))
    rng = np.random.default_rng(0)
    pool = sorted(rng.choice(lower, size=min(n_terms, lower.size), replace=False).tolist())
    comp = components.set_index("term_lower")["component"].reindex(pool).to_numpy()
    qi = np.sort(rng.choice(len(pool), size=min(n_queries, len(pool)), replace=False))
    queries = [pool[i] for i in qi]
    t0 = time.perf_counter()
    index = LevenshteinIndex(pool, workers=workers)
    res = index.nearest(queries, np.ones(len(queries), dtype=np.int64), comp[qi], comp, np.random.default_rng(1))
    t_biosem = time.perf_counter() - t0
    t0 = time.perf_counter()
    best, _ = brute_force_nearest(queries, pool, comp[qi], comp, workers=workers)
    t_brute = time.perf_counter() - t0
    first = np.searchsorted(res.query, np.arange(len(queries)))
    got = np.where(first < res.query.size, res.distance[np.minimum(first, res.query.size - 1)], -1)
    if not np.array_equal(got, best):
        raise AssertionError("exact search disagrees with brute force")
    return {
        "subset_terms": len(pool),
        "subset_queries": len(queries),
        "biosem_s": round(t_biosem, 2),
        "brute_cdist_s": round(t_brute, 2),
        "speedup_brute_over_biosem": round(t_brute / t_biosem, 2),
        "pairs_verified": int(res.pairs_verified),
        "pairs_brute": len(pool) * len(queries),
    }


def run_input(inp: Input, kernel: str, args: argparse.Namespace, config: Mapping[str, object], out: Path) -> dict:
    """Benchmark one input on the kernel this process imported; the report is rewritten to ``out``
    after each step and returned."""
    from biosem.levenshtein.kernels import KERNEL

    if KERNEL != kernel:
        raise RuntimeError(f"kernel {kernel} asked for, but this process uses {KERNEL}")
    termpairs = config["termpairs"]
    joint_kinds = list(termpairs["joint_search"] if args.joint_search is None else args.joint_search)  # type: ignore[index]
    report: dict[str, object] = {
        "input": inp.name,
        "path": inp.path,
        "supplementary": inp.supplementary,
        "kernel": kernel,
        "workers": args.workers,
        "joint_search_kinds": joint_kinds,
        "complete": False,
    }
    out.parent.mkdir(parents=True, exist_ok=True)

    def save() -> None:
        report["peak_rss_mb"] = round(peak_rss_mb(), 0)
        report["steps"] = step_times(report, joint_kinds)
        report["steps_cpu"] = step_times(report, joint_kinds, cpu=True)
        out.write_text(json.dumps(report, indent=1) + "\n")

    report["warm_up_s"] = warm_up(args.workers)
    whole = clock = Clock()
    tables = READERS[inp.reader](inp, config)
    concepts, terms, assoc = (tables[k].to_pandas() for k in ("concepts", "terms", "associations"))
    del tables
    report["ingest_s"], report["ingest_cpu_s"] = clock.read()
    report["concepts"], report["terms"], report["associations"] = len(concepts), len(terms), len(assoc)
    clock = Clock()
    positives, counts = build_positive_pairs(concepts, terms, assoc, params_from_config(termpairs))  # type: ignore[arg-type]
    # As rule build_termpair_positives: MeSH descriptors and surface variants joined (termpairs config).
    exclusion = exclusion_from_config(termpairs)  # type: ignore[arg-type]
    groups = concept_groups(concepts, exclusion.exclude_same_group, inp.reader)
    components = similarity_components(positives, groups, exclusion.exclude_surface_variants)
    report["positives_s"], report["positives_cpu_s"] = clock.read()
    report["positive_counts"] = {k: int(v) for k, v in counts.items()}
    report["positives"] = positive_counts(positives)
    report["similarity_terms"] = len(components)
    del concepts, terms, assoc
    save()
    print(inp.name, kernel, json.dumps(report), flush=True)
    if not args.skip_subset:
        report["subset"] = subset_ratio(positives, components, args.subset_terms, args.subset_queries, args.workers)
        save()
    names = dataset_names(args.datasets)
    # Smallest first, so that the figures of every other dataset are in hand before the largest
    # Levenshtein datasets run.
    size = report["positives"]
    names.sort(key=lambda x: (x[2] == "levenshtein", size[f"{x[0]}_{x[1]}"], x))  # type: ignore[index]
    datasets: dict[str, dict[str, object]] = {}
    joint: dict[str, dict[str, object]] = {}
    report["datasets"], report["joint_search"] = datasets, joint
    neighbours: dict[str, pd.DataFrame] = {}
    seed = int(config["seed"])  # type: ignore[call-overload]
    for kind, difficulty, strategy in names:
        name = f"{kind}_{difficulty}_{strategy}"
        nb = None
        if strategy == "levenshtein" and kind in joint_kinds:
            if difficulty not in neighbours:
                clock = Clock()
                neighbours[difficulty], counts = search_neighbours(
                    positives, components, joint_kinds, difficulty, workers=args.workers
                )
                wall, cpu = clock.read()
                joint[difficulty] = {
                    **counts,
                    "seconds": wall,
                    "cpu_seconds": cpu,
                    "peak_rss_mb_so_far": round(peak_rss_mb(), 0),
                }
                print(inp.name, kernel, "joint search", difficulty, json.dumps(joint[difficulty]), flush=True)
                save()
            nb = neighbours[difficulty]
        clock = Clock()
        # The workflow's generator of this dataset (rule sample_termpair_negatives), by the input's name.
        rng = generator(seed, "termpairs", inp.name, kind, difficulty, strategy)
        dataset, stats = build_dataset(
            positives,
            components,
            kind,
            difficulty,
            strategy,
            rng,
            workers=args.workers,
            random_rounds=int(termpairs["random_rounds"]),  # type: ignore[index]
            neighbours=nb,
        )
        stats["seconds"], stats["cpu_seconds"] = clock.read()
        stats["rows"] = len(dataset)
        stats["peak_rss_mb_so_far"] = round(peak_rss_mb(), 0)
        datasets[name] = stats
        print(inp.name, kernel, name, json.dumps(stats), flush=True)
        save()
    report["dataset_rows"] = int(sum(int(s["rows"]) for s in datasets.values()))  # type: ignore[call-overload]
    report["joint_search_total_s"] = round(sum(float(j["seconds"]) for j in joint.values()), 1)  # type: ignore[arg-type]
    report["datasets_total_s"] = round(sum(float(s["seconds"]) for s in datasets.values()), 1)  # type: ignore[arg-type]
    report["total_s"], report["total_cpu_s"] = whole.read()
    report["complete"] = True
    save()
    return report


# --- the runs, one subprocess each ---------------------------------------------------------------------


def run_path(out: Path, inp: Input, kernel: str) -> Path:
    """The report file of one run: ``<out stem>.<input>.<kernel>.json`` beside ``out``."""
    return out.with_name(f"{out.stem}.{inp.name}.{kernel}.json")


def child_argv(args: argparse.Namespace, inp: Input, kernel: str) -> list[str]:
    """The command line of the subprocess that benchmarks ``inp`` on ``kernel``."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--run", f"{inp.name}:{kernel}"]
    argv += ["--workers", str(args.workers), "--config", str(args.config), "--out", str(args.out)]
    argv += ["--subset-terms", str(args.subset_terms), "--subset-queries", str(args.subset_queries)]
    if args.release:
        argv += ["--release", args.release]
    if args.mesh_dir:
        argv += ["--mesh-dir", args.mesh_dir]
    if args.mesh_supplementary:
        argv.append("--mesh-supplementary")
    if args.skip_subset:
        argv.append("--skip-subset")
    if args.joint_search is not None:
        argv += ["--joint-search", *args.joint_search]
    if args.datasets:
        argv += ["--datasets", *args.datasets]
    return argv


def run_subprocess(args: argparse.Namespace, inp: Input, kernel: str) -> dict:
    """Benchmark ``inp`` on ``kernel`` in a fresh process (``BIOSEM_KERNEL`` set for numba, unset for
    AVX-512); its output goes to this process's. A run cut by ``--run-timeout`` keeps the report it
    had written, marked incomplete."""
    env = dict(os.environ)
    env.pop("BIOSEM_KERNEL", None)
    if kernel == "numba":
        env["BIOSEM_KERNEL"] = "numba"
    path = run_path(Path(args.out), inp, kernel)
    path.unlink(missing_ok=True)
    t0 = time.perf_counter()
    status = "ok"
    try:
        proc = subprocess.run(child_argv(args, inp, kernel), env=env, timeout=args.run_timeout, check=False)
        if proc.returncode != 0:
            status = f"exit status {proc.returncode}"
    except subprocess.TimeoutExpired:
        status = f"stopped after --run-timeout {args.run_timeout} s"
    report = json.loads(path.read_text()) if path.exists() else {"input": inp.name, "kernel": kernel}
    report["status"] = status
    report["process_wall_s"] = round(time.perf_counter() - t0, 1)
    return report


def inputs_from_args(args: argparse.Namespace) -> list[Input]:
    """The inputs asked for, in the order they run: the RF2 release, MeSH descriptors, MeSH with SCRs."""
    inputs = []
    if args.release:
        inputs.append(Input("snomed_scale", "rf2", args.release))
    if args.mesh_dir:
        inputs.append(Input("mesh", "mesh", args.mesh_dir))
        if args.mesh_supplementary:
            inputs.append(Input("mesh_supplementary", "mesh", args.mesh_dir, supplementary=True))
    return inputs


def build_parser(default_kernel: str) -> argparse.ArgumentParser:
    """The command line (``default_kernel``: the kernel of ``--kernels`` when none is given)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", help="folder of an RF2 release (e.g. the generated one)")
    ap.add_argument("--mesh-dir", help="folder of the MeSH source files (the mirror's mesh/)")
    ap.add_argument(
        "--mesh-supplementary",
        action="store_true",
        help="also run MeSH with the supplementary concept records (supplementary: true)",
    )
    ap.add_argument(
        "--kernels",
        default=default_kernel,
        help=f"comma-separated Levenshtein kernels to run each input on, of {','.join(KERNELS)} "
        f"(default: this machine's, {default_kernel})",
    )
    ap.add_argument("--config", default=str(DEFAULT_CONFIG), help="config whose termpairs section is used")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--subset-terms", type=int, default=20_000)
    ap.add_argument("--subset-queries", type=int, default=20_000)
    ap.add_argument("--out", default="bench/out/termpairs.json")
    ap.add_argument(
        "--datasets",
        nargs="+",
        metavar="NAME",
        help="build only these datasets (e.g. fsn_syn_hard_levenshtein); default: all 20",
    )
    ap.add_argument("--skip-subset", action="store_true", help="skip the brute-force comparison on the subset")
    ap.add_argument(
        "--joint-search",
        nargs="*",
        metavar="KIND",
        help="kinds whose Levenshtein datasets share one first search per difficulty (default: the config's "
        "termpairs.joint_search, fsn_syn syn_syn; none: each dataset searches alone)",
    )
    ap.add_argument("--run-timeout", type=float, help="stop a run (one input, one kernel) after this many seconds")
    ap.add_argument("--run", metavar="INPUT:KERNEL", help="benchmark one input in this process (what each run does)")
    return ap


def main(argv: list[str] | None = None) -> int:
    from biosem.levenshtein.kernels import KERNEL, _lev512

    ap = build_parser(KERNEL)
    args = ap.parse_args(argv)
    try:
        kernels = parse_kernels(args.kernels)
        dataset_names(args.datasets)
    except ValueError as err:
        ap.error(str(err))
    if args.mesh_supplementary and not args.mesh_dir:
        ap.error("--mesh-supplementary needs --mesh-dir")
    inputs = inputs_from_args(args)
    if not inputs:
        ap.error("give --release and/or --mesh-dir")
    config = yaml.safe_load(Path(args.config).read_text())
    out = Path(args.out)
    if args.run:
        name, _, kernel = args.run.partition(":")
        inp = next((i for i in inputs if i.name == name), None)
        if inp is None:
            ap.error(f"--run {args.run}: no such input among {[i.name for i in inputs]}")
        run_input(inp, kernel, args, config, run_path(out, inp, kernel))
        return 0
    if "avx512" in kernels and (_lev512 is None or not _lev512.supported()):
        ap.error("the AVX-512 kernel is not available here (no AVX-512 or the extension is not built)")
    summary: dict[str, object] = {"config": args.config, "workers": args.workers, "kernels": kernels, "runs": []}
    runs: list[dict] = summary["runs"]  # type: ignore[assignment]
    out.parent.mkdir(parents=True, exist_ok=True)
    for inp in inputs:
        for kernel in kernels:
            print(f"=== {inp.name} on {kernel}", flush=True)
            report = run_subprocess(args, inp, kernel)
            runs.append(report)
            out.write_text(json.dumps(summary, indent=1) + "\n")
            brief = {k: report.get(k) for k in ("status", "terms", "positives", "dataset_rows", "steps", "peak_rss_mb")}
            print(f"=== {inp.name} on {kernel}:", json.dumps(brief), flush=True)
    summary["kernels_disagree"] = kernels_disagree(runs)
    out.write_text(json.dumps(summary, indent=1) + "\n")
    print("datasets that differ between kernels:", summary["kernels_disagree"] or "none", flush=True)
    return 0 if all(r["status"] == "ok" for r in runs) and not summary["kernels_disagree"] else 1


if __name__ == "__main__":
    sys.exit(main())
