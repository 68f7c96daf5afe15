#!/usr/bin/env python3
"""Benchmark: UMLS ingestion (``biosem.terminology.rrf.write_rrf``) against a plain pyarrow CSV read.

For MRCONSO and MRREL of a release (e.g. the full-size one from ``bench/generate_umls.py``), in the
same run and each in a fresh subprocess (peak RSS is the subprocess's ``ru_maxrss``):

* **plain**: ``pyarrow.csv.open_csv`` over the whole file with the RRF dialect (``|``, no quoting,
  every column a string) and otherwise pyarrow's defaults (multi-threaded), every batch read and
  dropped: the cost of just parsing the file;
* **biosem**: what the ``ingest_umls`` rule does with the file: ``write_rrf`` on a META folder that
  holds only that file (for MRREL, plus a one-row MRCONSO, which ``write_rrf`` requires), writing
  the Parquet intermediates: parsing, validation (field counts, CUI/AUI patterns, UTF-8), LAT/SAB
  filters, the preferred-term rule, deduplication, sorting and zstd Parquet.

The figure is the throughput ratio biosem / plain (MB of RRF per second of wall time) of the median
runs: each of the three is run ``--repeat`` times (default 5), interleaved, as wall times on a
shared or virtual machine vary by 10-30 % from run to run. The targets are a ratio >= 0.5 and a
peak RSS <= 4 GB (the largest of the runs). A last run ingests the whole release as the rule does.
Optionally (``--table-path``) the same is measured for ``read_rrf`` + ``write_terminology``, which
hold the tables whole. ``--compare NAME=SRC`` (repeatable) also runs the ingestion with another
tree's ``src`` first on ``PYTHONPATH`` (e.g. an older commit's, from ``git archive``, with its built
extensions), in the same interleaved runs: changes are compared in one session.

Usage::

    python bench/generate_umls.py --out /tmp/umls_scale/META
    python bench/bench_ingest_umls.py --release /tmp/umls_scale/META [--out bench/out/ingest_umls.json]
    python bench/bench_ingest_umls.py --release /tmp/umls_q/META --files-only --compare main=/tmp/main/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RRF_LAYOUTS = {"MRCONSO": 18, "MRREL": 16, "MRSTY": 6, "MRSAB": 25}
ONE_MRCONSO_ROW = "C0000001|ENG|P|L0000001|PF|S0000001|Y|A0000001|||D000001|MSH|MH|D000001|x|0|N||\n"


def find(meta: Path, name: str) -> Path | None:
    for candidate in (meta / f"{name}.RRF", meta / f"{name}.RRF.gz"):
        if candidate.is_file():
            return candidate
    return None


# --------------------------------------------------------------------------------------------------
# Tasks (run in a subprocess each)


def task_plain(path: Path) -> dict:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    name = path.name.split(".")[0]
    columns = [f"c{i}" for i in range(RRF_LAYOUTS[name] + 1)]  # + the empty field after the last |
    rows = 0
    t0 = time.perf_counter()
    with pa.input_stream(str(path), compression="detect") as stream:
        reader = pacsv.open_csv(
            stream,
            read_options=pacsv.ReadOptions(column_names=columns),
            parse_options=pacsv.ParseOptions(delimiter="|", quote_char=False),
            convert_options=pacsv.ConvertOptions(column_types=dict.fromkeys(columns, pa.string())),
        )
        for batch in reader:
            rows += batch.num_rows
    return {"seconds": time.perf_counter() - t0, "rows": rows}


def task_read(path: Path) -> dict:
    """biosem's streaming reader (``iter_rrf``) with the columns and checks the ingestion uses."""
    from biosem.terminology.rrf.reader import iter_rrf
    from biosem.terminology.rrf.umls import (  # the reader's own column selections, so the two cannot drift
        _MRCONSO_CODED,
        _MRCONSO_READ,
        _MRCONSO_REQUIRED,
        _MRREL_CODED,
        _MRREL_READ,
        _MRREL_REQUIRED,
        AUI_PATTERN,
        CUI_PATTERN,
        MRCONSO_COLUMNS,
        MRREL_COLUMNS,
    )

    if path.name.startswith("MRCONSO"):
        layout, required, include = MRCONSO_COLUMNS, _MRCONSO_REQUIRED, list(_MRCONSO_READ)
        patterns, coded = {"CUI": CUI_PATTERN, "AUI": AUI_PATTERN}, _MRCONSO_CODED
    else:
        layout, required, include = MRREL_COLUMNS, _MRREL_REQUIRED, list(_MRREL_READ)
        patterns, coded = {"CUI1": f"(?:{CUI_PATTERN})?", "CUI2": f"(?:{CUI_PATTERN})?"}, _MRREL_CODED
    rows = 0
    t0 = time.perf_counter()
    for batch in iter_rrf(path, layout, include=include, required=required, patterns=patterns, coded=coded):
        rows += batch.num_rows
    return {"seconds": time.perf_counter() - t0, "rows": rows}


def task_biosem(meta: Path, out: Path, languages: list[str] | None, table_path: bool) -> dict:
    from biosem.terminology.schemas import TERMINOLOGY_TABLES

    outputs = {t: str(out / f"{t}.parquet") for t in TERMINOLOGY_TABLES}
    t0 = time.perf_counter()
    if table_path:
        from biosem.terminology.rrf import read_rrf
        from biosem.terminology.write import write_terminology

        counts = write_terminology(read_rrf(meta, "umls", languages=languages), outputs, "umls")
    else:
        from biosem.terminology.rrf import write_rrf

        counts = write_rrf(meta, "umls", outputs, languages=languages)
    return {"seconds": time.perf_counter() - t0, "tables": counts}


def run_task(args: list[str], src: Path | None = None) -> dict:
    """Run this script with ``--task ...`` in a subprocess (with ``src`` first on ``PYTHONPATH``);
    its JSON result plus its peak RSS."""
    env = None
    if src is not None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), *filter(None, [os.environ.get("PYTHONPATH")])]))
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    output = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"task {args} failed with exit code {proc.returncode}")
    result = json.loads(output.strip().splitlines()[-1])
    result["peak_rss_mb"] = round(usage.ru_maxrss / 1024)  # Linux: KiB
    result["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 1)
    return result


# --------------------------------------------------------------------------------------------------


def view(folder: Path, files: dict[str, Path | str]) -> Path:
    """A META folder of symbolic links (or small files given as text)."""
    folder.mkdir(parents=True)
    for name, target in files.items():
        if isinstance(target, Path):
            (folder / target.name).symlink_to(target.resolve())
        else:
            (folder / name).write_text(target, encoding="utf-8")
    return folder


def median_run(runs: list[dict]) -> dict:
    """The run of median wall time (the lower middle one for an even count)."""
    return sorted(runs, key=lambda r: r["seconds"])[(len(runs) - 1) // 2]


def measure(
    meta: Path,
    tmp: Path,
    languages: list[str] | None,
    table_path: bool,
    release: bool = True,
    repeat: int = 1,
    compare: dict[str, Path] | None = None,
) -> dict:
    report: dict = {
        "release": str(meta),
        "languages": languages,
        "cpus": os.cpu_count(),
        "files": {},
    }
    lang_args = ["--languages", *languages] if languages else ["--languages"]
    mode = ["--table-path"] if table_path else []
    mrconso, mrrel, mrsty, mrsab = (find(meta, n) for n in ("MRCONSO", "MRREL", "MRSTY", "MRSAB"))
    if mrconso is None:
        raise SystemExit(f"no MRCONSO in {meta}")
    views = {"MRCONSO": {"MRCONSO": mrconso}}
    if mrrel is not None:
        views["MRREL"] = {"MRCONSO.RRF": ONE_MRCONSO_ROW, "MRREL": mrrel}
    for name, files in views.items():
        path = files[name]
        assert isinstance(path, Path)
        size_mb = path.stat().st_size / 1e6
        folder = view(tmp / f"view-{name}", files)
        out = tmp / f"out-{name}"
        trees: dict[str, Path | None] = {"biosem": None, **{f"biosem:{k}": v for k, v in (compare or {}).items()}}
        runs: dict[str, list[dict]] = {"plain": [], "read": [], **{k: [] for k in trees}}
        for i in range(repeat):  # interleaved, so that a slow spell of the machine hits all of them
            runs["plain"].append(run_task(["--task", "plain", str(path)]))
            runs["read"].append(run_task(["--task", "read", str(path)]))
            order = list(trees)
            for tree in order[i % len(order) :] + order[: i % len(order)]:  # each tree first in turn
                args = ["--task", "biosem", str(folder), str(out), *lang_args, *mode]
                runs[tree].append(run_task(args, trees[tree]))
        plain, read, biosem = (median_run(runs[k]) for k in ("plain", "read", "biosem"))
        entry = {
            "file": path.name, "size_mb": round(size_mb), "rows": plain["rows"], "repeat": repeat,
            "plain_s": round(plain["seconds"], 2), "plain_mb_s": round(size_mb / plain["seconds"], 1),
            "plain_peak_rss_mb": plain["peak_rss_mb"], "plain_cpu_s": plain["cpu_s"],
            "read_s": round(read["seconds"], 2), "read_mb_s": round(size_mb / read["seconds"], 1),
            "read_peak_rss_mb": read["peak_rss_mb"], "read_cpu_s": read["cpu_s"],
            "biosem_s": round(biosem["seconds"], 2), "biosem_mb_s": round(size_mb / biosem["seconds"], 1),
            "biosem_peak_rss_mb": max(r["peak_rss_mb"] for r in runs["biosem"]), "biosem_cpu_s": biosem["cpu_s"],
            "tables": biosem["tables"],
            "seconds_each": {k: [round(r["seconds"], 2) for r in v] for k, v in runs.items()},
        }  # fmt: skip
        entry["read_ratio"] = round(plain["seconds"] / read["seconds"], 2)
        entry["throughput_ratio"] = round(plain["seconds"] / biosem["seconds"], 2)
        entry["cpu_ratio"] = round(plain["cpu_s"] / biosem["cpu_s"], 2)
        for tree in trees:
            if tree != "biosem":
                other = median_run(runs[tree])
                entry.setdefault("compare", {})[tree.removeprefix("biosem:")] = {
                    "src": str(trees[tree]), "biosem_s": round(other["seconds"], 2), "biosem_cpu_s": other["cpu_s"],
                    "biosem_peak_rss_mb": max(r["peak_rss_mb"] for r in runs[tree]),
                    "throughput_ratio": round(plain["seconds"] / other["seconds"], 2),
                    "cpu_ratio": round(plain["cpu_s"] / other["cpu_s"], 2),
                }  # fmt: skip
        report["files"][name] = entry
        print(json.dumps({name: entry}), flush=True)
    if not release:
        return report
    whole = {k: v for k, v in {"MRCONSO": mrconso, "MRREL": mrrel, "MRSTY": mrsty, "MRSAB": mrsab}.items() if v}
    folder = view(tmp / "view-release", whole)
    size_mb = sum(p.stat().st_size for p in whole.values()) / 1e6
    biosem = run_task(["--task", "biosem", str(folder), str(tmp / "out-release"), *lang_args, *mode])
    report["release_ingestion"] = {
        "size_mb": round(size_mb), "seconds": round(biosem["seconds"], 1),
        "mb_s": round(size_mb / biosem["seconds"], 1), "peak_rss_mb": biosem["peak_rss_mb"],
        "cpu_s": biosem["cpu_s"], "tables": biosem["tables"],
    }  # fmt: skip
    print(json.dumps({"release": report["release_ingestion"]}), flush=True)
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", type=Path, help="META folder of the release")
    ap.add_argument("--out", type=Path, default=Path("bench/out/ingest_umls.json"))
    ap.add_argument("--languages", nargs="*", default=["ENG"], help="LAT filter (none given: all)")
    ap.add_argument("--table-path", action="store_true", help="measure read_rrf + write_terminology")
    ap.add_argument("--files-only", action="store_true", help="skip the last run (the whole release)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each measurement per file (median)")
    ap.add_argument("--tmp", type=Path, default=None, help="scratch folder (default: a temporary one)")
    ap.add_argument(
        "--compare", action="append", default=[], metavar="NAME=SRC", help="also ingest with SRC first on PYTHONPATH"
    )
    ap.add_argument("--task", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    languages = args.languages or None
    if args.task:
        kind, *paths = args.task
        if kind == "plain":
            result = task_plain(Path(paths[0]))
        elif kind == "read":
            result = task_read(Path(paths[0]))
        else:
            result = task_biosem(Path(paths[0]), Path(paths[1]), languages, args.table_path)
        print(json.dumps(result))
        return 0
    if args.release is None:
        ap.error("--release is required")
    with tempfile.TemporaryDirectory(prefix="bench-umls-", dir=args.tmp) as tmp:
        compare = {name: Path(src) for name, _, src in (c.partition("=") for c in args.compare)}
        report = measure(
            args.release,
            Path(tmp),
            languages,
            args.table_path,
            release=not args.files_only,
            repeat=args.repeat,
            compare=compare,
        )
    report["path"] = "read_rrf + write_terminology" if args.table_path else "write_rrf"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
