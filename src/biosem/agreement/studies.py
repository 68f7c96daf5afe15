"""Expert quality studies: blinded rater sheets, private keys, validation and scoring of filled sheets.

Two studies validate the automatic datasets with experts:

* **termpairs** (Schulz & Juric, AAAI 2020, § "Quality of the datasets", Table 3): ``n_pos``
  positives and ``n_neg`` negatives drawn from each of the 20 datasets of a terminology (paper:
  30 + 30 -> 1,200 pairs) go, shuffled, into one blinded sheet; each rater answers ``same`` /
  ``not same`` / ``don't know``. The majority vote is the ground truth (no majority -> NaN); per
  dataset: NaN rate, Krippendorff's alpha (nominal), and accuracy, recall and precision of the
  automatic label against the majority (positive class = same).
* **wic** (BioWiC, Rouhizadeh et al. 2024, § Technical validation): two overlapping samples of the
  test split (paper: 100 each, 50 shared) as two sheets; Cohen's kappa between raters on their
  shared items, and each rater's accuracy against the gold label.

Sheets carry only an opaque item id, what is to be judged and an empty ``answer`` column: no label,
dataset, group or sample name (item ids are assigned in a seeded random order). The key (item ->
dataset / label / provenance) stays with the organiser.

Answers are matched after trimming, lowercasing, collapsing spaces and straightening apostrophes
against :data:`ANSWERS`. "Don't know" is handled by one explicit switch, ``dont_know``:

* ``category`` (default): "don't know" is a third answer. Majority = an answer given by more than
  half of the raters of the item; a "don't know" majority or no majority gives NaN. In alpha and
  kappa it is a third nominal category; in a rater's accuracy it counts as wrong.
* ``abstain``: "don't know" is no answer. Majority = more than half of the remaining answers (NaN
  when none remain or they tie); alpha and kappa treat it as missing; accuracy leaves it out.

Randomness only through generators from :func:`biosem.seeds.generator` passed in.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, precision_score, recall_score

from biosem.agreement.interchange import read_filled_sheet
from biosem.agreement.sheets import (
    ANSWERS,
    DONT_KNOW,
    FORMULA_TRIGGERS,
    MARK_CLOSE,
    MARK_OPEN,
    NOT_SAME,
    SAME,
    normalise_answer,
    read_sheet,
    restore_frame,
)
from biosem.agreement.statistics import cohen_kappa, krippendorff_alpha
from biosem.errors import SourceFormatError
from biosem.io import atomic_path
from biosem.wic.schemas import RELEASED_COLUMNS

DONT_KNOW_POLICIES = ("category", "abstain")
_CODE = {SAME: 1.0, NOT_SAME: 0.0, DONT_KNOW: 2.0}

TERMPAIR_SHEET_COLUMNS = ["item", "term1", "term2", "answer"]
TERMPAIR_KEY_COLUMNS = [
    "item",
    "dataset",
    "kind",
    "difficulty",
    "strategy",
    "label",
    "term1",
    "term2",
    "concept_id1",
    "concept_id2",
    "levenshtein",
]
COMPOSITION_COLUMNS = [
    "dataset",
    "positives_available",
    "positives_sampled",
    "negatives_available",
    "negatives_sampled",
    "short",
]
WIC_SHEET_COLUMNS = ["item", "term1", "sentence1", "term2", "sentence2", "answer"]
WIC_KEY_COLUMNS = [
    "item",
    "sample",
    "in_sheet_a",
    "in_sheet_b",
    "label",
    "cat",
    "test_index",
    "term1",
    "term2",
    "sentence1",
    "sentence2",
    "start1",
    "end1",
    "start2",
    "end2",
]
WIC_RECORD_FIELDS = RELEASED_COLUMNS  # the released BioWiC record keys (biosem.wic.schemas)
TERMPAIR_SCORE_COLUMNS = [
    "dataset",
    "items",
    "raters",
    "majority_nan",
    "nan_rate",
    "alpha_nominal",
    "accuracy",
    "recall",
    "precision",
]
WIC_SCORE_COLUMNS = ["measure", "rater1", "rater2", "items", "counted", "dont_know", "value"]

TERMPAIR_INSTRUCTIONS = (
    "Term-pair quality check. Each row shows two medical terms. Answer in the 'answer' column "
    "whether the two terms denote the same concept (are synonyms in a medical terminology): "
    "'same', 'not same' or 'don't know'. Judge each row on its own; do not edit other columns."
)
WIC_INSTRUCTIONS = (
    "Word-in-context check. Each row shows two sentences, each with a target term between [[ and ]]. "
    "Answer in the 'answer' column whether the two target terms refer to the same concept in their "
    "sentences: 'same', 'not same' or 'don't know'. Judge each row on its own; do not edit other columns."
)


# --------------------------------------------------------------------------------------------------
# Sheets
# --------------------------------------------------------------------------------------------------
def _take(n_rows: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of ``min(n, n_rows)`` rows drawn without replacement, in draw order."""
    return rng.choice(n_rows, size=min(n, n_rows), replace=False) if n_rows else np.zeros(0, dtype=np.int64)


def _item_ids(prefix: str, n: int) -> list[str]:
    width = max(3, len(str(n)))
    return [f"{prefix}{i + 1:0{width}d}" for i in range(n)]


def termpair_study(
    datasets: Mapping[str, pd.DataFrame],
    n_pos: int,
    n_neg: int,
    rngs: Mapping[str, np.random.Generator],
    shuffle_rng: np.random.Generator,
    prefix: str = "P",
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The blinded term-pair sheet, its key and the composition table.

    Args:
        datasets: dataset name -> dataset table (``term1, term2, label, concept_id1, concept_id2,
            levenshtein``; label 1 = similar), in the order to report (``biosem.termpairs.DATASETS``).
        n_pos, n_neg: positives / negatives to draw per dataset (paper: 30 / 30). A dataset with
            fewer gives all it has; the composition table marks it ``short``.
        rngs: one generator per dataset name (the draw); ``shuffle_rng``: the sheet order.
        prefix: item id prefix (ids ``P0001`` ... in sheet order).

    Returns:
        (sheet with :data:`TERMPAIR_SHEET_COLUMNS`, empty answers; key with
        :data:`TERMPAIR_KEY_COLUMNS`, in sheet order; composition with :data:`COMPOSITION_COLUMNS`).
        A pair drawn for two datasets (random and Levenshtein variants share positives) is two
        items, as in the paper's 1,200.
    """
    parts, composition = [], []
    for name, data in datasets.items():
        kind, difficulty, strategy = _split_dataset_name(name)
        pos = data[data["label"] == 1].reset_index(drop=True)
        neg = data[data["label"] == 0].reset_index(drop=True)
        rng = rngs[name]
        take_pos, take_neg = _take(len(pos), n_pos, rng), _take(len(neg), n_neg, rng)
        drawn = pd.concat([pos.iloc[take_pos], neg.iloc[take_neg]], ignore_index=True)
        parts.append(drawn.assign(dataset=name, kind=kind, difficulty=difficulty, strategy=strategy))
        composition.append(
            {
                "dataset": name,
                "positives_available": len(pos),
                "positives_sampled": len(take_pos),
                "negatives_available": len(neg),
                "negatives_sampled": len(take_neg),
                "short": bool(len(take_pos) < n_pos or len(take_neg) < n_neg),
            }
        )
    key = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=TERMPAIR_KEY_COLUMNS)
    key = key.iloc[shuffle_rng.permutation(len(key))].reset_index(drop=True)
    key["item"] = _item_ids(prefix, len(key))
    key["label"] = key["label"].astype("int64")
    key = key[TERMPAIR_KEY_COLUMNS]
    sheet = key[["item", "term1", "term2"]].assign(answer="")
    return sheet, key, pd.DataFrame(composition, columns=COMPOSITION_COLUMNS)


def _split_dataset_name(name: str) -> tuple[str, str, str]:
    match = re.fullmatch(r"(.+)_(easy|hard)_(random|levenshtein)", name)
    if not match:
        raise ValueError(f"not a term-pair dataset name (<kind>_<easy|hard>_<random|levenshtein>): {name!r}")
    return match.group(1), match.group(2), match.group(3)


def study_sizes(available: int, per_rater: int, shared: int) -> tuple[int, int, bool]:
    """(per_rater, shared) fitted to ``available`` items: both scaled by the same factor (floors)
    when ``2 * per_rater - shared`` exceed it; third value: whether scaled.

    Raises:
        ValueError: ``shared > per_rater`` or negative sizes.
    """
    if shared < 0 or per_rater < 0 or shared > per_rater:
        raise ValueError(f"need 0 <= shared <= per_rater; got shared={shared}, per_rater={per_rater}")
    need = 2 * per_rater - shared
    if need <= available:
        return per_rater, shared, False
    factor = available / need
    new_shared = int(np.floor(shared * factor))
    new_only = int(np.floor((per_rater - shared) * factor))
    return new_shared + new_only, new_shared, True


def wic_study(
    test: pd.DataFrame, per_rater: int, shared: int, rng: np.random.Generator, prefix: str = "W"
) -> tuple[dict[str, pd.DataFrame], pd.DataFrame, dict[str, int]]:
    """Two overlapping blinded samples of the wic test split, and the key.

    Args:
        test: the test split (released BioWiC fields :data:`WIC_RECORD_FIELDS`; offsets index the
            sentences).
        per_rater, shared: items per sheet and items in both sheets (paper: 100 and 50). When the
            split holds fewer than ``2 * per_rater - shared`` items both are scaled down
            (:func:`study_sizes`).
        rng: draws the items, then the item ids, then each sheet's order.

    Returns:
        (``{"a": sheet, "b": sheet}`` with :data:`WIC_SHEET_COLUMNS` (target terms bracketed with
        ``[[``/``]]`` in the sentences), key with :data:`WIC_KEY_COLUMNS` sorted by item, counts).
    """
    missing = [f for f in WIC_RECORD_FIELDS if f not in test.columns]
    if missing:
        raise ValueError(f"wic test split lacks fields {missing}")
    per_rater, shared, scaled = study_sizes(len(test), per_rater, shared)
    only = per_rater - shared
    drawn = rng.permutation(len(test))[: shared + 2 * only]
    sample = np.array(["shared"] * shared + ["a"] * only + ["b"] * only, dtype=object)
    key = test.iloc[drawn].reset_index(drop=True).assign(sample=sample, test_index=drawn.astype(np.int64))
    id_order = rng.permutation(len(key))
    key["item"] = np.array(_item_ids(prefix, len(key)), dtype=object)[id_order]
    key["in_sheet_a"] = key["sample"].isin(["shared", "a"])
    key["in_sheet_b"] = key["sample"].isin(["shared", "b"])
    key["label"] = key["label"].astype("int64")
    key = key.sort_values("item", kind="stable").reset_index(drop=True)[WIC_KEY_COLUMNS]
    sheets = {}
    for name in ("a", "b"):
        rows = key[key[f"in_sheet_{name}"]]
        rows = rows.iloc[rng.permutation(len(rows))]
        sheets[name] = pd.DataFrame(
            {
                "item": rows["item"].to_numpy(),
                "term1": rows["term1"].to_numpy(),
                "sentence1": mark_target(rows["sentence1"], rows["start1"], rows["end1"]),
                "term2": rows["term2"].to_numpy(),
                "sentence2": mark_target(rows["sentence2"], rows["start2"], rows["end2"]),
                "answer": "",
            }
        )
    counts = {
        "test_items": len(test),
        "per_rater": per_rater,
        "shared": shared,
        "items": len(key),
        "scaled": int(scaled),
    }
    return sheets, key, counts


def mark_target(sentences: pd.Series, starts: pd.Series, ends: pd.Series) -> list[str]:
    """Sentences with ``[[``/``]]`` around the ``[start, end)`` span (the target term)."""
    return [
        f"{s[:b]}{MARK_OPEN}{s[b:e]}{MARK_CLOSE}{s[e:]}"
        for s, b, e in zip(sentences, starts.astype(int), ends.astype(int))
    ]


# --------------------------------------------------------------------------------------------------
# Writing sheets (CSV; XLSX through openpyxl, byte-reproducible)
# --------------------------------------------------------------------------------------------------

_FIXED_TIME = datetime(2000, 1, 1)
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def write_xlsx(
    frame: pd.DataFrame,
    path: str | Path,
    instructions: str | None = None,
    answer_column: str | None = "answer",
    choices: Sequence[str] = ANSWERS,
) -> None:
    """Write a sheet as XLSX (openpyxl): worksheet ``items`` (header frozen, a drop-down of
    ``choices`` on ``answer_column``) and, if given, a worksheet ``instructions``.

    Every text cell is a string cell (openpyxl ``data_type`` ``s``, with Excel's ``quotePrefix`` for
    text beginning with one of :data:`FORMULA_TRIGGERS`), never a formula: a term such as
    ``=HYPERLINK(...)`` is shown as text and its text is read back as written.

    Reproducible: fixed document times and zip entry times, so equal content gives equal bytes.
    Written atomically.
    """
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "items"
    sheet.append(list(frame.columns))
    for i, row in enumerate(frame.itertuples(index=False), start=2):
        for j, value in enumerate(row, start=1):
            if isinstance(value, float) and np.isnan(value):
                continue
            cell = sheet.cell(row=i, column=j, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # openpyxl makes a formula of any text beginning with "="
                cell.quotePrefix = value[:1] in FORMULA_TRIGGERS
    sheet.freeze_panes = "A2"
    for j, column in enumerate(frame.columns, start=1):
        longest = max([len(str(column))] + [len(str(v)) for v in frame[column].head(200)])
        sheet.column_dimensions[get_column_letter(j)].width = min(max(10, longest + 2), 80)
    if answer_column is not None and answer_column in frame.columns and len(frame):
        letter = get_column_letter(list(frame.columns).index(answer_column) + 1)
        rule = DataValidation(type="list", formula1='"' + ",".join(choices) + '"', allow_blank=True)
        rule.add(f"{letter}2:{letter}{len(frame) + 1}")
        sheet.add_data_validation(rule)
    if instructions:
        notes = workbook.create_sheet("instructions")
        notes["A1"] = instructions
        notes.column_dimensions["A"].width = 120
    workbook.properties.creator = "biosem"
    workbook.properties.created = _FIXED_TIME
    workbook.properties.modified = _FIXED_TIME
    buffer = io.BytesIO()
    workbook.save(buffer)
    with atomic_path(path) as tmp:
        _repack_zip(buffer.getvalue(), tmp)


_W3CDTF = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _repack_zip(data: bytes, dest: Path) -> None:
    """Copy a zip archive with every entry's timestamp fixed and the document times in
    ``docProps/core.xml`` (openpyxl stamps "modified" at save) set to :data:`_FIXED_TIME`."""
    stamp = _FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(dest, "w") as out:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = _W3CDTF.sub(stamp, content)
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            out.writestr(fixed, content)


# --------------------------------------------------------------------------------------------------
# Reading and validating filled sheets
# --------------------------------------------------------------------------------------------------
class SheetValidationError(ValueError):
    """Filled sheets with problems; ``problems`` lists one :class:`SourceFormatError` per problem
    (file, spreadsheet row with the header as row 1, expected, found)."""

    def __init__(self, problems: list[SourceFormatError]) -> None:
        self.problems = problems
        shown = "\n".join(f"  {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(f"{len(problems)} problem(s) in filled sheets:\n{shown}{more}")


def read_key(path: str | Path) -> pd.DataFrame:
    """A study key written by the sheet rules: text columns kept as written, ``label`` as int64,
    ``in_sheet_*`` as bool.

    Raises:
        SourceFormatError: no ``item`` or ``label`` column, an item id given twice, or a label other
            than 0 or 1 (naming the key's line).
    """
    key = restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
    for column in ("item", "label"):
        if column not in key.columns:
            raise SourceFormatError(path, 1, f"a column {column!r}", ", ".join(key.columns))
    bad = (~key["label"].isin(["0", "1"])).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SourceFormatError(path, i + 2, f"label 0 or 1 for item {key['item'].iat[i]}", key["label"].iat[i])
    twice = key["item"].duplicated().to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        raise SourceFormatError(path, i + 2, "each item once in the key", f"{key['item'].iat[i]} again")
    key["label"] = key["label"].astype("int64")
    for column in ("in_sheet_a", "in_sheet_b"):
        if column in key.columns:
            key[column] = key[column] == "True"
    return key


class EditedKeyError(SourceFormatError):
    """The study key no longer matches the sheets distributed with it: the key (or the sheet) was
    edited after the rule that writes both wrote them. The message names the key's line, the sheet's
    file and line, and the command that writes both again.

    Attributes (besides :class:`SourceFormatError`'s): ``sheet``: the distributed sheet compared with.
    """

    def __init__(self, key: str | Path, line: int | None, expected: str, found: str, sheet: str | Path, rule: str):
        super().__init__(key, line, expected, found)
        self.sheet = Path(sheet)
        self.args = (
            f"{self.args[0]}. The study key {self.path} was edited after rule {rule} wrote it with the "
            f"sheet {self.sheet} (the raters' sheets are checked against the key, so the key must stay as "
            f"written): restore it, or write both again with `snakemake --cores 1 --force {self.path}` (rule "
            f"{rule}; the draw is "
            "seeded: the sheets come out the same).",
        )


def check_key(
    key: pd.DataFrame, key_path: str | Path, distributed: Mapping[str, str | Path], rule: str
) -> dict[str, set[str]]:
    """Check a study key (:func:`read_key`) against the blinded sheets written with it; return each
    sheet's item ids.

    Every item of a distributed sheet must be in the key, with the sheet's text: ``term1``, ``term2``
    and, for the wic study, ``sentence1`` / ``sentence2`` as the key's sentences with the target
    marked (:func:`mark_target`); every item of the key must be on a sheet; and a wic key's
    ``in_sheet_<name>`` must say which. So an edited key is reported as the key, never blamed on
    the raters' sheets (an edited label cannot be seen this way: the sheets are blinded).

    Args:
        key: the key as read by :func:`read_key`; ``key_path``: its file.
        distributed: sheet name (``sheet``, ``a``, ``b``) -> the CSV sheet written with the key.
        rule: the rule that writes both (``write_termpair_study``, ``write_wic_study``).

    Raises:
        EditedKeyError: the first difference, naming the key's line and the sheet's.
        SourceFormatError: a wic key whose offsets are not integers.
    """
    line_of = {item: i + 2 for i, item in enumerate(key["item"])}
    known = key.set_index("item")
    wic = "sentence1" in key.columns
    if wic:
        try:
            marked = {
                n: pd.Series(mark_target(key[f"sentence{n}"], key[f"start{n}"], key[f"end{n}"]), index=known.index)
                for n in (1, 2)
            }
        except ValueError as err:
            raise SourceFormatError(key_path, None, "integer offsets start1, end1, start2, end2", str(err)) from err
    members: dict[str, set[str]] = {}
    for name, path in distributed.items():
        sheet = read_sheet(path)
        members[name] = set(sheet["item"])
        for i, item in enumerate(sheet["item"]):
            where = f"{path}:{i + 2}"
            if item not in known.index:
                raise EditedKeyError(
                    key_path, None, f"item {item} (line {i + 2} of the sheet)", "no such item", path, rule
                )
            for column in [c for c in sheet.columns if c not in ("item", "answer")]:
                value = (
                    marked[int(column[-1])][item] if wic and column.startswith("sentence") else known.at[item, column]
                )
                if str(value) != sheet[column].iat[i]:
                    raise EditedKeyError(
                        key_path,
                        line_of[item],
                        f"{column} {sheet[column].iat[i]!r} for item {item}, as in the sheet ({where})",
                        str(value),
                        path,
                        rule,
                    )
            flag = f"in_sheet_{name}"
            if flag in known.columns and not known.at[item, flag]:
                raise EditedKeyError(
                    key_path, line_of[item], f"{flag} True for item {item} ({where})", "False", path, rule
                )
    on_sheets = set().union(*members.values()) if members else set()
    for item in key["item"]:
        if item not in on_sheets:
            where = ", ".join(str(p) for p in distributed.values())
            raise EditedKeyError(
                key_path, line_of[item], f"only items of the sheets ({where})", f"item {item}", where, rule
            )
    return members


def validate_sheet(
    frame: pd.DataFrame,
    path: str | Path,
    key: pd.DataFrame,
    sheets: Mapping[str, set[str]],
    check: Sequence[str],
) -> tuple[pd.DataFrame, str | None, list[SourceFormatError]]:
    """Check one filled sheet against the key; return (answers, sheet name, problems).

    Args:
        frame: the sheet as strings (:func:`read_sheet`).
        key: the study key (``item`` plus the ``check`` columns).
        sheets: distributed sheet name -> its item ids; the filled sheet must hold exactly one of them.
        check: columns whose text must equal the key's (guards against edited or misaligned rows).

    Returns:
        answers: ``item, answer`` (canonical answer strings) for the valid rows; the name of the
        sheet it matches (None if none); the problems found: missing ``item``/``answer`` columns,
        unknown or repeated item ids, missing answers, answers outside :data:`ANSWERS`, changed
        ``check`` columns, items of the distributed sheet absent from the file.
    """
    problems: list[SourceFormatError] = []
    path = Path(path)
    for column in ("item", "answer"):
        if column not in frame.columns:
            problems.append(SourceFormatError(path, 1, f"a column {column!r}", ", ".join(map(str, frame.columns))))
    if problems:
        return pd.DataFrame(columns=["item", "answer"]), None, problems
    items = frame["item"].astype(str).str.strip()
    answers = frame["answer"].map(normalise_answer)
    known = key.set_index("item")
    seen: set[str] = set()
    good = np.zeros(len(frame), dtype=bool)
    for i, (item, answer) in enumerate(zip(items, answers)):
        row = i + 2
        if item not in known.index:
            problems.append(SourceFormatError(path, row, "an item id of the study key", item))
            continue
        if item in seen:
            problems.append(SourceFormatError(path, row, "each item once", f"{item} repeated"))
            continue
        seen.add(item)
        for column in check:
            if column in frame.columns and str(frame[column].iat[i]) != str(known.at[item, column]):
                problems.append(
                    SourceFormatError(
                        path,
                        row,
                        f"{column} {known.at[item, column]!r} for item {item}",
                        str(frame[column].iat[i]),
                    )
                )
        if answer == "":
            problems.append(SourceFormatError(path, row, f"an answer for item {item}", "empty"))
        elif answer not in ANSWERS:
            problems.append(
                SourceFormatError(
                    path,
                    row,
                    "one of " + ", ".join(repr(a) for a in ANSWERS),
                    str(frame["answer"].iat[i]),
                )
            )
        else:
            good[i] = True
    matched = [name for name, ids in sheets.items() if seen <= ids]
    name = None
    if not matched:
        problems.append(
            SourceFormatError(
                path,
                None,
                "the items of one distributed sheet (" + ", ".join(sorted(sheets)) + ")",
                "items from several sheets",
            )
        )
    else:
        name = min(matched, key=lambda n: (len(sheets[n] - seen), n))
        absent = sorted(sheets[name] - seen)
        if absent:
            problems.append(
                SourceFormatError(
                    path,
                    None,
                    f"every item of sheet {name!r}",
                    f"{len(absent)} missing: {', '.join(absent[:10])}",
                )
            )
    result = pd.DataFrame({"item": items[good].to_numpy(), "answer": answers[good].to_numpy()})
    return result, name, problems


def read_filled_sheets(
    paths: Mapping[str, str | Path],
    key: pd.DataFrame,
    sheets: Mapping[str, set[str]],
    check: Sequence[str],
    formats: Mapping[str, Mapping[str, Any]] | None = None,
    kind: str = "termpairs",
) -> tuple[pd.DataFrame, dict[str, str]]:
    """Read and validate every rater's filled sheet.

    Args:
        paths: rater id -> filled sheet (CSV or XLSX, or a Label Studio JSON export).
        formats: rater id -> ``{format: sheet|labelstudio, annotator}`` (config ``filled_sheets``
            entries; default ``sheet``); ``kind``: ``termpairs`` or ``wic``, the Label Studio choice
            labels (:func:`biosem.agreement.interchange.read_filled_sheet`).

    Returns:
        (answers as an items x raters table of canonical answers (``""`` where a rater had no such
        item), index = key items in key order, columns = raters in ``paths`` order;
        rater -> name of the sheet they filled).

    Raises:
        SheetValidationError: listing every problem of every file.
        SourceFormatError: a file cannot be read.
    """
    problems: list[SourceFormatError] = []
    columns, which = {}, {}
    for rater, path in paths.items():
        frame = read_filled_sheet(path, (formats or {}).get(rater), kind)
        answers, name, found = validate_sheet(frame, path, key, sheets, check)
        problems += found
        columns[rater] = answers.set_index("item")["answer"]
        which[rater] = name or ""
    if problems:
        raise SheetValidationError(problems)
    table = pd.DataFrame(columns, index=pd.Index(key["item"], name="item")).fillna("")
    return table, which


# --------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------
def _check_policy(dont_know: str) -> None:
    if dont_know not in DONT_KNOW_POLICIES:
        raise ValueError(f"dont_know must be one of {DONT_KNOW_POLICIES}; got {dont_know!r}")


def majority_vote(answers: pd.DataFrame, dont_know: str = "category") -> pd.Series:
    """Majority label per item (1.0 = same, 0.0 = not same, NaN = no majority).

    Args:
        answers: items x raters of canonical answers, ``""`` = not asked.
        dont_know: ``category`` or ``abstain`` (module docstring).
    """
    _check_policy(dont_know)
    same = (answers == SAME).sum(axis=1)
    not_same = (answers == NOT_SAME).sum(axis=1)
    unsure = (answers == DONT_KNOW).sum(axis=1)
    total = same + not_same + (unsure if dont_know == "category" else 0)
    vote = np.where(2 * same > total, 1.0, np.where(2 * not_same > total, 0.0, np.nan))
    return pd.Series(np.where(total > 0, vote, np.nan), index=answers.index, name="majority")


def coded(answers: pd.DataFrame, dont_know: str = "category") -> np.ndarray:
    """Items x raters float codes for alpha: same 1, not same 0, don't know 2 (``category``) or
    NaN (``abstain``); NaN where not asked."""
    _check_policy(dont_know)
    codes = dict(_CODE)
    if dont_know == "abstain":
        codes[DONT_KNOW] = np.nan
    return answers.apply(lambda c: c.map(codes)).to_numpy(dtype=np.float64, na_value=np.nan)


def _label_scores(auto: np.ndarray, majority: np.ndarray) -> dict[str, float]:
    ok = ~np.isnan(majority)
    if not ok.any():
        return {"accuracy": np.nan, "recall": np.nan, "precision": np.nan}
    truth, pred = majority[ok].astype(int), auto[ok].astype(int)
    return {
        "accuracy": float(accuracy_score(truth, pred)),
        "recall": float(recall_score(truth, pred, pos_label=1, zero_division=np.nan)),
        "precision": float(precision_score(truth, pred, pos_label=1, zero_division=np.nan)),
    }


def score_termpair_study(
    answers: pd.DataFrame,
    key: pd.DataFrame,
    dont_know: str = "category",
    datasets: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Table 3 of Schulz & Juric: per dataset and overall (``all``).

    Args:
        answers: items x raters of canonical answers (:func:`read_filled_sheets`), index = item.
        key: the study key (:data:`TERMPAIR_KEY_COLUMNS`).
        datasets: row order (``biosem.termpairs.DATASETS``; datasets without items get a row of
            zeros and NaN); default: the key's datasets sorted.

    Returns:
        :data:`TERMPAIR_SCORE_COLUMNS`: items, raters, majority_nan (items without majority),
        nan_rate, alpha_nominal (Krippendorff, raters x items of the dataset), accuracy / recall /
        precision of the automatic label against the majority on items with one (positive class =
        same; recall/precision NaN when undefined); one row per dataset, then ``all``.
    """
    majority = majority_vote(answers, dont_know)
    codes = coded(answers, dont_know)
    domain = [0.0, 1.0, 2.0] if dont_know == "category" else [0.0, 1.0]
    frame = key.set_index("item").loc[answers.index]
    rows = []
    names = sorted(frame["dataset"].unique()) if datasets is None else list(datasets)
    for name in [*names, "all"]:
        sel = np.ones(len(frame), dtype=bool) if name == "all" else (frame["dataset"] == name).to_numpy()
        maj = majority.to_numpy()[sel]
        asked = (answers.to_numpy()[sel] != "").any(axis=0)
        rows.append(
            {
                "dataset": name,
                "items": int(sel.sum()),
                "raters": int(asked.sum()),
                "majority_nan": int(np.isnan(maj).sum()),
                "nan_rate": float(np.isnan(maj).mean()) if sel.any() else np.nan,
                "alpha_nominal": krippendorff_alpha(codes[sel], "nominal", value_domain=domain)
                if sel.any()
                else np.nan,
                **_label_scores(frame["label"].to_numpy(dtype=float)[sel], maj),
            }
        )
    return pd.DataFrame(rows, columns=TERMPAIR_SCORE_COLUMNS)


def score_wic_study(answers: pd.DataFrame, key: pd.DataFrame, dont_know: str = "category") -> pd.DataFrame:
    """BioWiC's expert check: each rater's accuracy against the gold label, and Cohen's kappa for
    every pair of raters on the items both were given.

    Returns:
        :data:`WIC_SCORE_COLUMNS`: ``measure`` = ``accuracy`` (rater1 = the rater; items given,
        counted, dont_know, value) or ``cohen_kappa`` (rater1, rater2; items shared, counted = both
        answered under the policy, dont_know = items where either said "don't know", value).
        ``category``: "don't know" counts as wrong in accuracy and is a third category in kappa;
        ``abstain``: left out of both.
    """
    _check_policy(dont_know)
    gold = key.set_index("item").loc[answers.index, "label"].to_numpy(dtype=float)
    rows = []
    for rater in answers.columns:
        given = (answers[rater] != "").to_numpy()
        unsure = (answers[rater] == DONT_KNOW).to_numpy()
        decided = given & ~unsure
        counted = given if dont_know == "category" else decided
        label = answers[rater].map({SAME: 1.0, NOT_SAME: 0.0}).to_numpy(dtype=float, na_value=np.nan)
        correct = decided & (label == gold)
        rows.append(
            {
                "measure": "accuracy",
                "rater1": rater,
                "rater2": "",
                "items": int(given.sum()),
                "counted": int(counted.sum()),
                "dont_know": int(unsure.sum()),
                "value": float(correct.sum() / counted.sum()) if counted.any() else np.nan,
            }
        )
    for first, second in combinations(answers.columns, 2):
        both = (answers[first] != "") & (answers[second] != "")
        a, b = answers.loc[both, first], answers.loc[both, second]
        pair_unsure = (a == DONT_KNOW) | (b == DONT_KNOW)
        if dont_know == "abstain":
            a, b = a.where(~pair_unsure), b.where(~pair_unsure)
        kappa, n = cohen_kappa(a.to_numpy(dtype=object), b.to_numpy(dtype=object))
        rows.append(
            {
                "measure": "cohen_kappa",
                "rater1": first,
                "rater2": second,
                "items": int(both.sum()),
                "counted": n,
                "dont_know": int(pair_unsure.sum()),
                "value": kappa,
            }
        )
    return pd.DataFrame(rows, columns=WIC_SCORE_COLUMNS)


def read_wic_split(path: str | Path) -> pd.DataFrame:
    """A wic split in the released BioWiC JSON layout (a list of records) as a DataFrame.

    Raises:
        SourceFormatError: not a JSON list of objects with the fields :data:`WIC_RECORD_FIELDS`.
    """
    import json

    path = Path(path)
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise SourceFormatError(path, err.lineno, "a JSON list of records", err.msg) from err
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise SourceFormatError(path, None, "a JSON list of records", type(records).__name__)
    frame = pd.DataFrame.from_records(records)
    missing = [f for f in WIC_RECORD_FIELDS if f not in frame.columns]
    if records and missing:
        raise SourceFormatError(path, None, f"records with fields {', '.join(WIC_RECORD_FIELDS)}", f"missing {missing}")
    if not records:
        frame = pd.DataFrame(columns=list(WIC_RECORD_FIELDS))
    return frame
