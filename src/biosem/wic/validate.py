"""Check a BioWiC-format split set: ``python -m biosem.wic.validate DIR [--quotas FILE] [--train-cap N]``.

``DIR`` holds any of ``train.json``, ``dev.json`` and ``test.json`` (lists of records with ``term1,
term2, sentence1, sentence2, start1, start2, end1, end2, cat, label``), as released by Rouhizadeh et
al. (2024) or built by biosem; the checks of a missing split, and the cross-split checks that need it,
are skipped and listed as not run. Checks (each violation is listed, the command exits 1 if there is
any):

* ``schema``: every record has the ten keys with the right types; ``cat`` is one of the four groups;
  ``label`` is 0 or 1;
* ``offsets``: ``sentence1[start1:end1] == term1`` and ``sentence2[start2:end2] == term2``;
* ``quota``: test and dev have the quota of each group, half per label (the paper's 800/200/800/200
  and 400/100/400/100, or ``quotas.json`` in ``DIR`` / ``--quotas``: ``{"test": {cat: n}, "dev":
  {...}}``, as biosem writes it; a group may give ``{"1": n, "0": n}`` per label instead, as
  ``quota_policy: fill`` writes for a stratum the data cannot fill);
* ``balance``: in every split, each group has as many label-1 as label-0 instances (not checked for a
  test or dev group whose quota is given per label);
* ``test_duplicate_sentence`` / ``test_duplicate_term_pair``: no sentence and no term pair
  (unordered, lowercased) twice in test;
* ``shared_sentence`` / ``shared_term_pair``: no test sentence or test term pair in train or dev;
* ``train_sentence_cap``: no sentence more than ``--train-cap`` (100) times in train;
* ``left_out``: a group that ``quotas.json`` lists as left out of a split (``quota_policy: balanced``,
  key ``left_out``: ``{split: {cat: reason}}``) has no instance there. The report lists every left-out
  group with its reason: a group absent from a split is explained, not a violation.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from biosem.arguments import add_validate_wic_arguments
from biosem.errors import SourceFormatError
from biosem.layout.outputs import wic_quotas
from biosem.wic import GROUPS, PAPER_QUOTAS, SPLITS, TRAIN_SENTENCE_CAP
from biosem.wic.schemas import RELEASED_COLUMNS

VIOLATION_KINDS = (
    "schema",
    "offsets",
    "quota",
    "balance",
    "test_duplicate_sentence",
    "test_duplicate_term_pair",
    "shared_sentence",
    "shared_term_pair",
    "train_sentence_cap",
    "left_out",
)

_INT_KEYS = ("start1", "end1", "start2", "end2", "label")
_STR_KEYS = ("term1", "term2", "sentence1", "sentence2", "cat")


@dataclass(frozen=True)
class Violation:
    """One broken rule: its kind, split, 0-based record index (None for set-level rules), message."""

    kind: str
    split: str
    record: int | None
    message: str

    def __str__(self) -> str:
        where = self.split if self.record is None else f"{self.split}[{self.record}]"
        return f"{self.kind}: {where}: {self.message}"


def _term_pair(rec: dict) -> tuple[str, str]:
    a, b = str(rec["term1"]).lower(), str(rec["term2"]).lower()
    return (a, b) if a <= b else (b, a)


def _schema_ok(rec: object) -> str | None:
    if not isinstance(rec, dict):
        return f"record is {type(rec).__name__}, not an object"
    missing = [k for k in RELEASED_COLUMNS if k not in rec]
    if missing:
        return f"missing keys {missing}"
    bad = [k for k in _INT_KEYS if not isinstance(rec[k], int) or isinstance(rec[k], bool)]
    bad += [k for k in _STR_KEYS if not isinstance(rec[k], str)]
    if bad:
        return f"wrong types for {bad}"
    if rec["cat"] not in GROUPS:
        return f"cat {rec['cat']!r} is not one of {list(GROUPS)}"
    if rec["label"] not in (0, 1):
        return f"label {rec['label']!r} is not 0 or 1"
    return None


def validate_splits(
    splits: dict[str, list[dict]],
    quotas: dict[str, dict[str, int]] | None = None,
    train_cap: int = TRAIN_SENTENCE_CAP,
    left_out: dict[str, dict[str, str]] | None = None,
) -> list[Violation]:
    """Every violation of the BioWiC rules in ``splits`` (``{"train": [...], "dev": [...], "test": [...]}``).

    ``quotas``: instances per group in test and dev (default: the paper's). ``left_out``: split ->
    group -> reason, groups that must have no instance in that split (:func:`load_left_out`). Records
    failing the schema check are reported and left out of the other checks.
    """
    quotas = PAPER_QUOTAS if quotas is None else quotas
    out: list[Violation] = []
    good: dict[str, list[tuple[int, dict]]] = {split: [] for split in SPLITS}
    for split in SPLITS:
        good[split] = []
        for i, rec in enumerate(splits.get(split, [])):
            problem = _schema_ok(rec)
            if problem:
                out.append(Violation("schema", split, i, problem))
                continue
            good[split].append((i, rec))
            for side in ("1", "2"):
                s, a, b, t = (
                    rec[f"sentence{side}"],
                    rec[f"start{side}"],
                    rec[f"end{side}"],
                    rec[f"term{side}"],
                )
                if not (0 <= a <= b <= len(s)) or s[a:b] != t:
                    out.append(
                        Violation(
                            "offsets",
                            split,
                            i,
                            f"sentence{side}[{a}:{b}] = {s[a:b]!r} != term{side} {t!r}",
                        )
                    )

    for split in SPLITS:
        per = Counter((rec["cat"], rec["label"]) for _, rec in good[split])
        if split not in splits:
            continue
        for cat in GROUPS:
            pos, neg = per[(cat, 1)], per[(cat, 0)]
            why = (left_out or {}).get(split, {}).get(cat)
            if why is not None and pos + neg:
                out.append(Violation("left_out", split, None, f"{cat}: {pos + neg} instances, left out ({why})"))
            want = quotas.get(split, {}).get(cat)
            if pos != neg and not isinstance(want, dict):
                out.append(Violation("balance", split, None, f"{cat}: {pos} label 1 vs {neg} label 0"))
            if isinstance(want, dict):
                want1, want0 = int(want["1"]), int(want["0"])
                if (pos, neg) != (want1, want0):
                    out.append(
                        Violation(
                            "quota", split, None, f"{cat}: {pos} label 1 / {neg} label 0, quota {want1} / {want0}"
                        )
                    )
            elif want is not None:
                want = int(want)
                if pos + neg != want or pos != want // 2:
                    out.append(
                        Violation(
                            "quota",
                            split,
                            None,
                            f"{cat}: {pos} + {neg} instances, quota {want} ({want // 2} per label)",
                        )
                    )

    seen_sentences: dict[str, int] = {}
    seen_pairs: dict[tuple[str, str], int] = {}
    for i, rec in good["test"]:
        for side in ("1", "2"):
            s = rec[f"sentence{side}"]
            if s in seen_sentences:
                out.append(
                    Violation(
                        "test_duplicate_sentence",
                        "test",
                        i,
                        f"sentence{side} also in test[{seen_sentences[s]}]: {s[:80]!r}",
                    )
                )
            else:
                seen_sentences[s] = i
        pair = _term_pair(rec)
        if pair in seen_pairs:
            out.append(
                Violation(
                    "test_duplicate_term_pair",
                    "test",
                    i,
                    f"term pair {pair} also in test[{seen_pairs[pair]}]",
                )
            )
        else:
            seen_pairs[pair] = i

    for split in ("train", "dev"):
        for i, rec in good[split]:
            for side in ("1", "2"):
                s = rec[f"sentence{side}"]
                if s in seen_sentences:
                    out.append(
                        Violation(
                            "shared_sentence",
                            split,
                            i,
                            f"sentence{side} is in test[{seen_sentences[s]}]: {s[:80]!r}",
                        )
                    )
            pair = _term_pair(rec)
            if pair in seen_pairs:
                out.append(
                    Violation(
                        "shared_term_pair",
                        split,
                        i,
                        f"term pair {pair} is in test[{seen_pairs[pair]}]",
                    )
                )

    uses: Counter[str] = Counter()
    for _, rec in good["train"]:
        uses[rec["sentence1"]] += 1
        uses[rec["sentence2"]] += 1
    for s, n in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0])):
        if n <= train_cap:
            break
        out.append(
            Violation(
                "train_sentence_cap",
                "train",
                None,
                f"sentence used {n} times (cap {train_cap}): {s[:80]!r}",
            )
        )
    return out


CROSS_SPLIT_CHECKS = {
    "shared_sentence / shared_term_pair (test vs train)": ("test", "train"),
    "shared_sentence / shared_term_pair (test vs dev)": ("test", "dev"),
    "train_sentence_cap": ("train",),
}
"""Checks that need more than one split (or train), with the splits each needs."""


def checks_not_run(splits: dict[str, list[dict]]) -> list[str]:
    """The checks of :func:`validate_splits` that could not run because a split is missing."""
    out = [f"all checks of {split} (no {split}.json)" for split in SPLITS if split not in splits]
    out += [name for name, needs in CROSS_SPLIT_CHECKS.items() if any(s not in splits for s in needs)]
    return out


def _read_json(path: Path, expected: str) -> object:
    """Parse a JSON file; a syntax error or bad UTF-8 becomes a SourceFormatError naming ``path``,
    the line and column, the parser's message and an excerpt of the text found there."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise SourceFormatError(path, line, f"{expected} in UTF-8", repr(raw[exc.start : exc.start + 20])) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        excerpt = exc.doc[max(0, exc.pos - 40) : exc.pos + 40] or "end of file"
        raise SourceFormatError(
            path, exc.lineno, expected, f"{exc.msg} at column {exc.colno}, near {excerpt!r}"
        ) from None


def load_splits(folder: str | Path, required: tuple[str, ...] = SPLITS) -> dict[str, list[dict]]:
    """Read whichever of ``train.json``, ``dev.json``, ``test.json`` ``folder`` holds.

    Raises:
        FileNotFoundError: a split of ``required`` is missing, or the folder holds none of them.
        TypeError: a file is not a JSON list.
        SourceFormatError: a file is not JSON (e.g. truncated) or not UTF-8: names the file and line.
    """
    out = {}
    folder = Path(folder)
    present = [split for split in SPLITS if (folder / f"{split}.json").is_file()]
    missing = [split for split in required if split not in present]
    if missing or not present:
        names = ", ".join(f"{split}.json" for split in (missing or SPLITS))
        raise FileNotFoundError(f"{folder}: no {names}")
    for split in present:
        path = folder / f"{split}.json"
        data = _read_json(path, "a JSON list of WiC records")
        if not isinstance(data, list):
            raise TypeError(f"{path}: expected a JSON list of records, found {type(data).__name__}")
        out[split] = data
    return out


def load_quotas(path: str | Path) -> dict[str, dict[str, int | dict[str, int]]]:
    """Read a quotas file (``{"test": {cat: n | {"1": n, "0": n}}, "dev": {...}, ...}``); other keys are
    ignored.

    Raises:
        SourceFormatError: the file is not JSON or not UTF-8 (names the file and line).
    """
    data = _read_json(Path(path), "a JSON object of quotas")

    def one(v: object) -> int | dict[str, int]:
        return {str(k): int(n) for k, n in v.items()} if isinstance(v, dict) else int(v)  # type: ignore[arg-type]

    return {split: {k: one(v) for k, v in data[split].items()} for split in ("test", "dev") if split in data}


def load_left_out(path: str | Path) -> dict[str, dict[str, str]]:
    """The groups a quotas file lists as left out of a split (``{"left_out": {split: {cat: reason}}}``,
    written under ``quota_policy: balanced``); ``{}`` when it lists none.

    Raises:
        SourceFormatError: the file is not JSON or not UTF-8 (names the file and line).
    """
    data = _read_json(Path(path), "a JSON object of quotas")
    groups = (data.get("left_out") or {}) if isinstance(data, dict) else {}
    return {str(split): {str(cat): str(why) for cat, why in cats.items()} for split, cats in groups.items()}


def report(
    violations: list[Violation], splits: dict[str, list[dict]], left_out: dict[str, dict[str, str]] | None = None
) -> str:
    """Human-readable report: sizes, the groups left out of a split and why, then one line per violation
    (or ``OK``)."""
    lines = [f"{split}: {len(splits[split])} instances" for split in SPLITS if split in splits]
    for split in SPLITS:
        for cat in GROUPS:
            why = (left_out or {}).get(split, {}).get(cat)
            if why is not None:
                lines.append(f"left out: {split} {cat}: {why}")
    lines += [f"not run: {check}" for check in checks_not_run(splits)]
    if violations:
        kinds = Counter(v.kind for v in violations)
        lines.append(
            f"{len(violations)} violations: " + ", ".join(f"{k} {kinds[k]}" for k in VIOLATION_KINDS if kinds[k])
        )
        lines.extend(str(v) for v in violations)
    else:
        lines.append("OK: no violations")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the report of ``args.folder`` (:func:`biosem.arguments.add_validate_wic_arguments`; a ``train_cap``
    of None is :data:`biosem.wic.TRAIN_SENTENCE_CAP`); return 0 if valid, 1 if there are violations, 2 on
    unreadable input (no split file, a file that is not JSON or not a list, a bad quotas file)."""
    try:
        splits = load_splits(args.folder, required=())
        quotas_path = Path(args.quotas) if args.quotas else Path(args.folder) / wic_quotas.filename
        has_quotas = bool(args.quotas) or quotas_path.is_file()
        quotas = load_quotas(quotas_path) if has_quotas else None
        left_out = load_left_out(quotas_path) if has_quotas else {}
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    train_cap = TRAIN_SENTENCE_CAP if args.train_cap is None else args.train_cap
    violations = validate_splits(splits, quotas, train_cap, left_out)
    sys.stdout.write(report(violations, splits, left_out))
    return 1 if violations else 0


def main(argv: list[str] | None = None) -> int:
    """Command line: print the report; exit 0 if valid, 1 if there are violations, 2 on unreadable input."""
    ap = argparse.ArgumentParser(prog="python -m biosem.wic.validate", description=__doc__.split("\n\n")[0])
    add_validate_wic_arguments(ap)
    return run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
