"""Self-contained browser forms for the rating survey and the expert studies, and their exports.

Each form is one HTML file (script and styles inline, no network) rendered from a jinja2 template
in ``biosem/agreement/templates``. A rater opens it from disk, enters a rater id, answers every
item (progress is kept in the browser's localStorage under :func:`storage_key`) and exports one
CSV file. The export formats below are the contract with the readers:

* **Survey export** (:data:`SURVEY_EXPORT_COLUMNS`, one row per item of the rater's group, in the
  designed order): ``rater, word1, word2, rating, group, role`` -- the long ratings format that
  ``aggregate_ratings`` reads (:func:`biosem.agreement.ratings.parse_long_ratings`) -- then
  ``item_id, pair_id, page, position`` (from the survey design), ``survey`` (nouns|verbs),
  ``survey_id`` (:func:`survey_id`: the survey name and a digest of its design, so an export of
  another design is recognised), ``dont_know`` (``1`` = the rater chose "don't know", rating
  empty; ``0`` otherwise) and ``time_ms`` (integer milliseconds from the page being shown to the
  rater's last change of the item, summed over visits). Ratings are integers on the survey scale
  (``simlex.survey.scale_min``-``scale_max``, paper: 0-6).
* **Study export** (:data:`TERMPAIR_EXPORT_COLUMNS`, :data:`WIC_EXPORT_COLUMNS`, one row per item
  in sheet order): the columns of the blinded sheet (``biosem.agreement.studies``
  ``TERMPAIR_SHEET_COLUMNS`` / ``WIC_SHEET_COLUMNS``, WiC sentences with the target bracketed by
  ``[[``/``]]`` exactly as in the CSV sheet) with ``answer`` filled with one of ``same``, ``not
  same``, ``don't know``, then ``rater`` and ``time_ms``. It is a filled sheet as
  ``score_termpair_study`` / ``score_wic_study`` read it (config ``agreement.filled_sheets``).

CSV dialect of every export: UTF-8 without BOM, ``,`` separator, ``\\n`` line ends, a header row,
fields quoted (``"``, doubled inside) only when they hold a comma, quote or line break; a field that
a spreadsheet would read as a formula is neutralised as the sheets' cells are
(:func:`biosem.agreement.sheets.neutralise_cell`: a leading ``'``), and the readers restore it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd
from markdown_it import MarkdownIt
from markupsafe import Markup

from biosem.agreement.ratings import RatingMatrix, long_to_matrix, parse_long_ratings
from biosem.agreement.sheets import restore_frame
from biosem.errors import IncompleteExportsError, SourceFormatError

log = logging.getLogger(__name__)

SURVEY_EXPORT_COLUMNS = (
    "rater",
    "word1",
    "word2",
    "rating",
    "group",
    "role",
    "item_id",
    "pair_id",
    "page",
    "position",
    "survey",
    "survey_id",
    "dont_know",
    "time_ms",
)
"""Columns of a survey form's export, in order (module docstring)."""

TERMPAIR_EXPORT_COLUMNS = ("item", "term1", "term2", "answer", "rater", "time_ms")
"""Columns of the term-pair study form's export: the sheet's columns, then rater and time."""

WIC_EXPORT_COLUMNS = ("item", "term1", "sentence1", "term2", "sentence2", "answer", "rater", "time_ms")
"""Columns of a WiC study form's export: the sheet's columns, then rater and time."""

STUDY_CHOICES = {
    "termpairs": (("same", "Same concept"), ("not same", "Not the same"), ("don't know", "Don't know")),
    "wic": (("same", "Same meaning"), ("not same", "Different meaning"), ("don't know", "Don't know")),
}
"""Answer written to the export -> label shown in the form, per study."""

TERMPAIR_FORM_INSTRUCTIONS = """# Term-pair check

Each item shows two medical terms. Decide whether the two terms **denote the same concept** (would be
synonyms in a medical terminology): *Same concept*, *Not the same*, or *Don't know*. Judge each item on
its own. Your answers are kept in this browser while you work; export them when every item is answered
and send the CSV file back.
"""

WIC_FORM_INSTRUCTIONS = """# Word-in-context check

Each item shows two sentences, each with a highlighted target term. Decide whether the two targets
**refer to the same concept** in their sentences: *Same meaning*, *Different meaning*, or *Don't know*.
Judge each item on its own. Your answers are kept in this browser while you work; export them when
every item is answered and send the CSV file back.
"""

SCALE_LABELS = ("(no similarity)", "(same meaning)")
"""Labels of the ends of the survey slider (SimLex-999 protocol)."""


def survey_id(items: pd.DataFrame) -> str:
    """The id of one survey design: ``<survey>-<12 hex digits>``, the digits a SHA-256 of the design
    rows (``group, page, position, item_id, pair_id, role, word1, word2`` as CSV, in order).

    Args:
        items: the ``survey_items`` rows of one survey (``biosem.simlex.schemas.SURVEY_ITEMS``).

    Raises:
        ValueError: ``items`` is empty or holds more than one survey.
    """
    surveys = sorted(items["survey"].unique()) if len(items) else []
    if len(surveys) != 1:
        raise ValueError(f"survey_id needs the items of exactly one survey; got {surveys}")
    text = items[list(_DESIGN_FIELDS)].to_csv(index=False, lineterminator="\n")
    return f"{surveys[0]}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


_DESIGN_FIELDS = ("group", "page", "position", "item_id", "pair_id", "role", "word1", "word2")


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("biosem.agreement", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def _render(title: str, instructions_md: str, data: Mapping[str, Any]) -> str:
    """The form page: ``data`` embedded as JSON (``<`` escaped so no text can close the script)."""
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("<", "\\u003c")
    html = MarkdownIt("commonmark", {"html": False}).render(instructions_md)
    return (
        _environment()
        .get_template("form.html.j2")
        .render(title=title, instructions_html=Markup(html), data_json=Markup(payload))
    )


def survey_form(
    items: pd.DataFrame,
    group: int,
    instructions_md: str,
    scale: tuple[int, int] = (0, 6),
    dont_know: bool = False,
    run_warning: int = 10,
) -> str:
    """The rating form (HTML) of one survey group.

    One page per survey page in the designed order (items by ``position``, consistency and
    duplicate items where the design put them); each pair has a slider on ``scale`` (paper: 0-6)
    that counts only once moved or confirmed, and a "don't know" box if ``dont_know``. A warning
    shows when ``run_warning`` pairs in a row of a page get the same rating (the instructions
    announce it). The export has :data:`SURVEY_EXPORT_COLUMNS`.

    Args:
        items: the ``survey_items`` of one survey (all groups: the survey id covers the design).
        group: the 1-based group the form is for.
        instructions_md: the instructions (Markdown), shown above the form.

    Raises:
        ValueError: the group has no items (and :func:`survey_id`'s errors).
    """
    sid = survey_id(items)
    rows = items[items["group"] == group].sort_values(["page", "position"], kind="stable")
    if rows.empty:
        raise ValueError(f"survey {sid} has no items in group {group}")
    fixed = ("word1", "word2", "group", "role", "item_id", "pair_id", "page", "position", "survey")
    data = {
        "kind": "slider",
        "layout": "words",
        "formId": sid,
        "storage": f"biosem:{sid}:group{group}",
        "columns": list(SURVEY_EXPORT_COLUMNS),
        "scale": [int(scale[0]), int(scale[1])],
        "scaleLabels": list(SCALE_LABELS),
        "dontKnow": bool(dont_know),
        "runWarning": int(run_warning),
        "choices": [],
        "filename": f"{rows['survey'].iat[0]}-group{group}",
        "items": [
            {
                "id": r["item_id"],
                "page": int(r["page"]),
                "position": int(r["position"]),
                "show": [r["word1"], r["word2"]],
                "fields": {**{c: _plain(r[c]) for c in fixed}, "survey_id": sid},
            }
            for r in rows.to_dict("records")
        ],
    }
    return _render(f"Word similarity survey: {rows['survey'].iat[0]}, group {group}", instructions_md, data)


def _plain(value: Any) -> Any:
    """A JSON-ready scalar (numpy integers to int)."""
    return int(value) if isinstance(value, (int, np.integer)) else str(value)


def study_form(sheet: pd.DataFrame, study: str, name: str, page_size: int = 50) -> str:
    """The answer form (HTML) of one blinded study sheet.

    Items in sheet order, ``page_size`` per page, each with the study's three choices
    (:data:`STUDY_CHOICES`); WiC sentences show the target term highlighted (the sheet brackets it
    with ``[[``/``]]``). Nothing but the sheet's columns is embedded: no label, dataset or sample.
    The export has :data:`TERMPAIR_EXPORT_COLUMNS` or :data:`WIC_EXPORT_COLUMNS`.

    Args:
        sheet: the blinded sheet (``TERMPAIR_SHEET_COLUMNS`` / ``WIC_SHEET_COLUMNS`` of
            :mod:`biosem.agreement.studies`).
        study: ``termpairs`` or ``wic``.
        name: the sheet's name (``sheet``, ``sheet_a``, ``sheet_b``): part of the storage key and
            of the export's file name.

    Raises:
        ValueError: an unknown study, a sheet without the study's columns, or ``page_size`` < 1.
    """
    if study not in STUDY_CHOICES:
        raise ValueError(f"study must be one of {sorted(STUDY_CHOICES)}; got {study!r}")
    if page_size < 1:
        raise ValueError(f"page_size must be positive; got {page_size}")
    columns = TERMPAIR_EXPORT_COLUMNS if study == "termpairs" else WIC_EXPORT_COLUMNS
    fixed = [c for c in columns if c not in ("answer", "rater", "time_ms")]
    missing = [c for c in fixed if c not in sheet.columns]
    if missing:
        raise ValueError(f"{study} sheet lacks columns {missing}")
    digest = hashlib.sha256(sheet[fixed].to_csv(index=False, lineterminator="\n").encode("utf-8")).hexdigest()[:12]
    show = ["term1", "term2"] if study == "termpairs" else ["sentence1", "sentence2"]
    data = {
        "kind": "choice",
        "layout": "words" if study == "termpairs" else "sentences",
        "formId": f"{study}-{name}-{digest}",
        "storage": f"biosem:{study}-{name}-{digest}",
        "columns": list(columns),
        "scale": [0, 0],
        "scaleLabels": ["", ""],
        "dontKnow": False,
        "runWarning": 0,
        "choices": [list(c) for c in STUDY_CHOICES[study]],
        "filename": f"{study}-{name}",
        "items": [
            {
                "id": str(r["item"]),
                "page": i // page_size + 1,
                "position": i + 1,
                "show": [str(r[c]) for c in show],
                "fields": {c: str(r[c]) for c in fixed},
            }
            for i, r in enumerate(sheet[fixed].to_dict("records"))
        ],
    }
    instructions = TERMPAIR_FORM_INSTRUCTIONS if study == "termpairs" else WIC_FORM_INSTRUCTIONS
    title = "Term-pair check" if study == "termpairs" else f"Word-in-context check ({name.replace('_', ' ')})"
    return _render(title, instructions, data)


_CHECKED = ("word1", "word2", "group", "role", "pair_id", "page", "position", "survey")


def check_survey_export(frame: pd.DataFrame, path: str | Path, design: pd.DataFrame, sid: str) -> None:
    """Check one survey export (all columns as strings) against the survey design.

    Args:
        frame: the export as read from CSV (strings, empty cells ``""``).
        path: the file, for messages.
        design: the ``survey_items`` of the survey; ``sid``: its :func:`survey_id`.

    Raises:
        SourceFormatError: naming the file and the 1-based line (header = line 1) of the first
            problem: a missing column of :data:`SURVEY_EXPORT_COLUMNS`, no rows, a ``survey_id``
            other than ``sid`` (an export of another survey or design), more than one rater, an
            ``item_id`` not in the design (edited) or given twice, a design column (``word1, word2,
            group, role, pair_id, page, position, survey``) that differs from the design for its
            item; or (no line) items of the rater's group absent from the file.
    """
    missing = [c for c in SURVEY_EXPORT_COLUMNS if c not in frame.columns]
    if missing:
        raise SourceFormatError(
            path, 1, f"the survey export columns {', '.join(SURVEY_EXPORT_COLUMNS)}", ", ".join(map(str, frame.columns))
        )
    if frame.empty:
        raise SourceFormatError(path, None, f"one row per item of a group of survey {sid}", "no rows")
    cell = frame.astype(str).apply(lambda c: c.str.strip())
    foreign = (cell["survey_id"] != sid).to_numpy()
    if foreign.any():
        i = int(np.flatnonzero(foreign)[0])
        raise SourceFormatError(
            path, i + 2, f"survey_id {sid!r} (the design this workflow built)", cell["survey_id"].iat[i]
        )
    others = (cell["rater"] != cell["rater"].iat[0]).to_numpy()
    if others.any():
        i = int(np.flatnonzero(others)[0])
        raise SourceFormatError(path, i + 2, f"one rater per export ({cell['rater'].iat[0]!r})", cell["rater"].iat[i])
    known = design.assign(**{c: design[c].astype(str) for c in _CHECKED}).set_index("item_id")
    unknown = (~cell["item_id"].isin(known.index)).to_numpy()
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise SourceFormatError(path, i + 2, f"an item_id of survey {sid}", cell["item_id"].iat[i])
    twice = cell["item_id"].duplicated().to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        raise SourceFormatError(path, i + 2, "each item_id once", f"{cell['item_id'].iat[i]} again")
    expected = known.loc[cell["item_id"], list(_CHECKED)].reset_index(drop=True)
    edited = (cell[list(_CHECKED)].reset_index(drop=True) != expected).to_numpy()
    if edited.any():
        i, j = (int(x) for x in np.argwhere(edited)[0])
        column = _CHECKED[j]
        raise SourceFormatError(
            path,
            i + 2,
            f"{column} {expected[column].iat[i]!r} for item {cell['item_id'].iat[i]} (as designed)",
            cell[column].iat[i],
        )
    group = cell["group"].iat[0]
    absent = sorted(set(known.index[known["group"] == group]) - set(cell["item_id"]))
    if absent:
        raise SourceFormatError(
            path,
            None,
            f"every item of group {group} of survey {sid} ({int((known['group'] == group).sum())})",
            f"{len(absent)} missing: {', '.join(absent[:10])}",
        )


def export_coverage(exports: pd.DataFrame, design: pd.DataFrame, raters_per_group: int) -> pd.DataFrame:
    """Raters per survey group of a set of survey exports, against the design.

    Args:
        exports: one row per export: ``rater`` and ``group`` (as the export writes it: ``"1"``).
        design: the survey's ``survey_items`` (its ``group`` column gives the groups).
        raters_per_group: raters the design asks for in each group (config
            ``simlex.survey.raters_per_group``; Chiu et al. 2018: 6).

    Returns:
        One row per group of the design, in group order: ``group`` (int), ``expected``
        (``raters_per_group``), ``exported`` (distinct raters), ``raters`` (their ids, sorted, ``", "``
        between), ``complete`` (``exported >= expected``; more raters than asked for is complete).
    """
    groups = sorted(int(g) for g in design["group"].unique())
    given = exports.assign(group=exports["group"].astype(str).str.strip())
    ids = given.groupby("group")["rater"].agg(lambda r: sorted(set(r)))
    out = pd.DataFrame({"group": groups, "expected": int(raters_per_group)})
    found = [ids.get(str(g), []) for g in groups]
    out["exported"] = [len(r) for r in found]
    out["raters"] = [", ".join(r) for r in found]
    out["complete"] = out["exported"] >= out["expected"]
    return out


def coverage_lines(coverage: pd.DataFrame, short_only: bool = True) -> list[str]:
    """``"group 3: 2 of 6 raters exported (rater ids a, b)"`` per group of :func:`export_coverage` (only the
    incomplete ones unless ``short_only`` is false)."""
    rows = coverage[~coverage["complete"]] if short_only else coverage
    return [
        f"group {r.group}: {r.exported} of {r.expected} raters exported"
        + (f" (rater ids {r.raters})" if r.raters else "")
        for r in rows.itertuples(index=False)
    ]


def _incomplete_message(sid: str, paths: Sequence[str | Path], coverage: pd.DataFrame, name: str) -> str:
    shown = ", ".join(str(p) for p in paths[:10]) + (f", ... ({len(paths) - 10} more)" if len(paths) > 10 else "")
    expected = int(coverage["expected"].iat[0])
    lines = [
        f"survey {sid}: {len(paths)} export(s) ({shown}) leave groups of the design short "
        f"({len(coverage)} group(s) of {expected} raters):",
        *(f"  {line}" for line in coverage_lines(coverage)),
        f"Add the missing raters' exports to agreement.ratings.{name}.exports, or set "
        f"agreement.ratings.{name}.allow_incomplete: true to aggregate an incomplete set.",
    ]
    return "\n".join(lines)


def read_survey_exports(
    paths: Sequence[str | Path],
    design: pd.DataFrame,
    scale: tuple[float, float] = (0.0, 6.0),
    raters_per_group: int | None = None,
    allow_incomplete: bool = False,
    name: str = "<name>",
) -> RatingMatrix:
    """Read the survey forms' exports of one survey, checked against its design, as a :class:`RatingMatrix`.

    Each file must be the export of one rater (:func:`check_survey_export`); ratings and "don't
    know" rows are then read as the long format (:func:`biosem.agreement.ratings.parse_long_ratings`).
    With ``raters_per_group``, the set of exports must then give every group of the design that many
    raters (:func:`export_coverage`): an incomplete set is refused, unless ``allow_incomplete``, when it
    is read and a WARNING names the short groups (an INFO line gives every group's raters either way).

    Args:
        paths: the exports (one per rater), in config order; ``design``: the survey's ``survey_items``.
        scale: the rating scale (config ``agreement.ratings.<name>.scale``, paper 0-6).
        raters_per_group: raters per group of the design (config ``simlex.survey.raters_per_group``,
            paper 6); ``None``: not checked.
        allow_incomplete: read a set that leaves a group short (config
            ``agreement.ratings.<name>.allow_incomplete``).
        name: the rating set (config ``agreement.ratings.<name>``), for the message.

    Raises:
        SourceFormatError: a file fails :func:`check_survey_export` or the long-format checks (a
            rating must be an integer in ``scale``: the forms' sliders step by 1), or a rater has a
            second export (naming both files).
        IncompleteExportsError: a group of the design has fewer than ``raters_per_group`` raters
            and ``allow_incomplete`` is false; the message names the survey, the files and each short
            group (``group 2: 3 of 6 raters exported (rater ids a, b, c)``).
    """
    sid = survey_id(design)
    parts, exported, seen = [], [], {}
    for path in paths:
        frame = restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
        check_survey_export(frame, path, design, sid)
        rater = frame["rater"].iat[0].strip()
        if rater in seen:
            raise SourceFormatError(path, 2, f"one export per rater (rater {rater!r} is in {seen[rater]})", rater)
        seen[rater] = str(path)
        parts.append(parse_long_ratings(frame, path, scale, integer=True))
        exported.append((rater, frame["group"].iat[0].strip()))
    if not parts:
        raise ValueError(f"no survey exports given for survey {sid}")
    if raters_per_group is not None:
        coverage = export_coverage(pd.DataFrame(exported, columns=["rater", "group"]), design, raters_per_group)
        if not coverage["complete"].all() and not allow_incomplete:
            short = coverage[~coverage["complete"]].to_dict("records")
            raise IncompleteExportsError(
                _incomplete_message(sid, list(paths), coverage, name), sid, [Path(p) for p in paths], short
            )
        if not coverage["complete"].all():
            empty = coverage.loc[coverage["exported"] == 0, "group"].tolist()
            log.warning(
                "survey %s: an incomplete export set is aggregated (allow_incomplete: true): %s%s",
                sid,
                "; ".join(coverage_lines(coverage)),
                f"; the items only group(s) {', '.join(map(str, empty))} show are not rated" if empty else "",
            )
        log.info("survey %s, raters per group: %s", sid, "; ".join(coverage_lines(coverage, short_only=False)))
    long = pd.concat(parts, ignore_index=True)
    source = str(paths[0]) if len(paths) == 1 else f"{len(paths)} survey exports ({paths[0]} ...)"
    return long_to_matrix(long, source)
