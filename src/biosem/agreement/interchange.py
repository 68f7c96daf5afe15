"""Crowdsourcing interchange: the rating survey as platform HITs, the study sheets as Label Studio
projects, and importers for what the platforms give back (issue 28, item 4).

**Rating survey -> platform** (Amazon Mechanical Turk batch; Prolific with an external tool that
fills the same template). One HIT per survey page (:func:`survey_hits`): a batch CSV with one row
per HIT and the HTML task template (:func:`survey_task_template`) whose ``${column}`` placeholders
name the CSV's columns (MTurk's "batch CSV + HTML layout" convention; crowd-form). Columns, in order
(:func:`hit_columns`):

* ``hit`` (``<survey>-g<group>-p<page>``), ``survey``, ``group``, ``page``, ``n_items``;
* for k = 1 .. K (K = the largest page of the design): ``item_<k>_id``, ``item_<k>_word1``,
  ``item_<k>_word2``, in the designed order within the page; a shorter page leaves its last slots
  empty (the template hides them).

The item's role (unique / consistency / duplicate) is never shown to workers: the importer takes it
from the survey design by ``item_id``.

**Platform results -> long ratings** (:func:`read_platform_results`). Formats (:data:`PLATFORMS`):

* ``mturk``: MTurk's batch results CSV: one row per assignment with ``HITId``, ``AssignmentId``,
  ``WorkerId``, ``AssignmentStatus`` (``Submitted`` / ``Approved`` / ``Rejected``), ... then
  ``Input.<column>`` for every batch CSV column and ``Answer.<field>`` for every form field:
  ``Answer.item_<k>_rating`` = an integer on the survey scale (0-6) or ``dont_know``.
* ``prolific``: the export of an external survey tool run from Prolific with the same template: one
  row per submission, ``PROLIFIC_PID`` (the participant id Prolific appends to the study URL), an
  optional ``STATUS`` (Prolific's submission status), the batch CSV columns and the form fields
  unprefixed (``item_<k>_id`` ... ``item_<k>_rating``).

The batch CSV's cells are neutralised against formula injection as the study sheets' are
(:func:`biosem.agreement.sheets.sheet_csv`); the results' cells are restored
(:func:`biosem.agreement.sheets.restore_cell`) before they are compared with the design.

Rejected submissions (mturk ``Rejected``; prolific ``REJECTED``, ``RETURNED``, ``TIMED-OUT``) are
dropped and counted. The result is the long format :func:`biosem.agreement.ratings.parse_long_ratings`
reads (:data:`LONG_RATING_COLUMNS`): ``rater`` = worker / participant id, the survey's words, group
and role; "don't know" gives no row (counted).

**Study sheets -> Label Studio** (:func:`labelstudio_config`, :func:`labelstudio_tasks`): a labelling
config (XML) with a single-choice ``answer`` over same / not same / don't know (WiC: same meaning /
different meaning / don't know; the mention highlighted with ``<mark>`` in a ``HyperText`` sentence)
and a task list ``[{"data": {...}}]`` per sheet. Choices carry the study's canonical answers as
``alias``, which Label Studio writes into the results.

**Label Studio JSON export -> filled sheet** (:func:`read_labelstudio_export`): Label Studio's JSON
export (``[{"id", "data", "annotations": [{"completed_by", "was_cancelled", "result":
[{"from_name": "answer", "to_name", "type": "choices", "value": {"choices": [...]}}]}]}]``,
labelstud.io/guide/task_format) gives, for one annotator, the sheet the scoring rules read
(``item, term1, term2, answer``; :data:`biosem.agreement.studies.TERMPAIR_SHEET_COLUMNS`).
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd

from biosem.agreement.forms import STUDY_CHOICES
from biosem.agreement.sheets import ANSWERS, MARK_CLOSE, MARK_OPEN, normalise_answer, read_sheet, restore_frame
from biosem.errors import SourceFormatError

HIT_FIXED_COLUMNS = ("hit", "survey", "group", "page", "n_items")
ITEM_FIELDS = ("id", "word1", "word2")
RATING_FIELD = "item_{k}_rating"
DONT_KNOW_VALUE = "dont_know"
LONG_RATING_COLUMNS = ["rater", "word1", "word2", "rating", "group", "role", "item_id"]
SURVEY_ITEM_COLUMNS = ("item_id", "group", "page", "role", "word1", "word2")
STUDY_KINDS = ("termpairs", "wic")
ANSWER_FIELD = "answer"
"""The ``name`` of the Label Studio ``<Choices>`` (``from_name`` in the export)."""
CHOICE_LABELS = {kind: dict(choices) for kind, choices in STUDY_CHOICES.items()}
"""Canonical answer (:data:`biosem.agreement.sheets.ANSWERS`, the ``alias``) -> the label shown, per study:
the labels of the study forms (:data:`biosem.agreement.forms.STUDY_CHOICES`)."""


@dataclass(frozen=True)
class Platform:
    """Column conventions of one platform's results file."""

    worker: str
    status: str
    status_required: bool
    rejected: tuple[str, ...]
    input_prefix: str
    answer_prefix: str


PLATFORMS = {
    "mturk": Platform("WorkerId", "AssignmentStatus", True, ("Rejected",), "Input.", "Answer."),
    "prolific": Platform("PROLIFIC_PID", "STATUS", False, ("REJECTED", "RETURNED", "TIMED-OUT"), "", ""),
}


# --------------------------------------------------------------------------------------------------
# Survey -> HITs
# --------------------------------------------------------------------------------------------------
def hit_columns(slots: int) -> list[str]:
    """The batch CSV columns for pages of up to ``slots`` items (module docstring)."""
    return list(HIT_FIXED_COLUMNS) + [f"item_{k}_{f}" for k in range(1, slots + 1) for f in ITEM_FIELDS]


def survey_hits(items: pd.DataFrame) -> pd.DataFrame:
    """One HIT per (group, page) of a designed survey, as the batch CSV rows.

    Args:
        items: the ``survey_items`` table of :func:`biosem.simlex.survey.design_survey` (``survey,
            group, page, position, item_id, role, word1, word2``), one survey.

    Returns:
        :func:`hit_columns` (K = largest page), rows sorted by group and page, items by position;
        empty strings in unused slots. All values are strings.

    Raises:
        ValueError: no items, or items of more than one survey.
    """
    if items.empty:
        raise ValueError("the survey has no items")
    surveys = sorted(items["survey"].unique())
    if len(surveys) != 1:
        raise ValueError(f"one survey per batch; found {surveys}")
    items = items.sort_values(["group", "page", "position"], kind="stable")
    slot = items.groupby(["group", "page"], sort=False).cumcount().to_numpy() + 1
    slots = int(slot.max())
    wide = items.assign(slot=slot).pivot(index=["group", "page"], columns="slot", values=["item_id", "word1", "word2"])
    rows = wide.index.to_frame(index=False)
    columns = {
        "hit": [f"{surveys[0]}-g{g}-p{p:02d}" for g, p in zip(rows["group"], rows["page"])],
        "survey": [surveys[0]] * len(rows),
        "group": rows["group"].astype(str).to_numpy(),
        "page": rows["page"].astype(str).to_numpy(),
        "n_items": wide["item_id"].notna().sum(axis=1).astype(str).to_numpy(),
    }
    cells = wide.fillna("").astype(str)
    for k in range(1, slots + 1):
        for field, source in zip(ITEM_FIELDS, ("item_id", "word1", "word2")):
            columns[f"item_{k}_{field}"] = cells[(source, k)].to_numpy()
    return pd.DataFrame(columns)[hit_columns(slots)]


_TASK_TEMPLATE = jinja2.Template(
    """<!DOCTYPE html>
<!-- biosem rating task ({{ survey }}): paste as the HTML layout of an Amazon Mechanical Turk project
     (every dollar-brace placeholder names a column of the batch CSV), or fill the placeholders from
     the batch CSV in an external tool.
     Form fields: item_<k>_rating = {{ lo }}..{{ hi }}{% if dont_know %} or {{ dont_know_value }}{% endif %}. -->
<script src="https://assets.crowd.aws/crowd-html-elements.js"></script>
<style>
  .item { margin: .6em 0; padding: .4em; border-bottom: 1px solid #ddd; }
  .words { font-weight: bold; }
  .unrated { background: #fff3f3; }
  #instructions { white-space: pre-wrap; max-width: 50em; }
</style>
<crowd-form answer-format="flatten-objects">
  <div id="instructions">{{ instructions }}</div>
  <p>Page ${page} (${n_items} pairs). 0 = no similarity, {{ hi }} = same meaning.</p>
{% for k in slots %}  <div class="item" data-item="${item_{{ k }}_id}" data-field="item_{{ k }}_rating">
    <span class="words">${item_{{ k }}_word1}</span> &ndash; <span class="words">${item_{{ k }}_word2}</span>
    <input type="range" min="{{ lo }}" max="{{ hi }}" step="1" value="{{ mid }}" aria-label="rating">
    <output></output>{% if dont_know %}
    <label><input type="checkbox" class="dont-know"> don't know</label>{% endif %}
    <input type="hidden" name="item_{{ k }}_rating" value="">
  </div>
{% endfor %}</crowd-form>
<script>
  document.querySelectorAll(".item").forEach(function (row) {
    if (!row.dataset.item) { row.remove(); return; }
    var range = row.querySelector("input[type=range]"), out = row.querySelector("output"),
        field = row.querySelector("input[type=hidden]"), unsure = row.querySelector(".dont-know");
    range.addEventListener("input", function () {
      field.value = range.value; out.textContent = range.value; if (unsure) { unsure.checked = false; }
      row.classList.remove("unrated");
    });
    if (unsure) {
      unsure.addEventListener("change", function () {
        field.value = unsure.checked ? "{{ dont_know_value }}" : ""; out.textContent = "";
      });
    }
  });
  document.querySelector("crowd-form").onsubmit = function (event) {
    var missing = Array.from(document.querySelectorAll(".item")).filter(function (row) {
      return row.querySelector("input[type=hidden]").value === "";
    });
    missing.forEach(function (row) { row.classList.add("unrated"); });
    if (missing.length) { event.preventDefault(); alert(missing.length + " pairs are not rated yet."); }
  };
</script>
""",
    autoescape=True,
    keep_trailing_newline=True,
)


def survey_task_template(
    survey: str, slots: int, instructions: str, scale: tuple[int, int] = (0, 6), dont_know: bool = True
) -> str:
    """The HTML task template of :func:`survey_hits`' batch (crowd-form; module docstring).

    Each of the ``slots`` items shows ``${item_<k>_word1}`` and ``${item_<k>_word2}``, a slider over
    ``scale`` (integers; the paper's 0-6) and, with ``dont_know``, a "don't know" box; the answer
    goes to the form field ``item_<k>_rating`` (the integer, or :data:`DONT_KNOW_VALUE`). Slots whose
    ``${item_<k>_id}`` is empty are removed; submission stops while an item is unrated.
    ``instructions`` (the survey's Markdown) are shown as preformatted text, HTML-escaped.
    """
    lo, hi = int(scale[0]), int(scale[1])
    return _TASK_TEMPLATE.render(
        survey=survey,
        slots=range(1, slots + 1),
        instructions=instructions,
        lo=lo,
        hi=hi,
        mid=(lo + hi) // 2,
        dont_know=dont_know,
        dont_know_value=DONT_KNOW_VALUE,
    )


# --------------------------------------------------------------------------------------------------
# Platform results -> long ratings
# --------------------------------------------------------------------------------------------------
def read_platform_results(
    path: str | Path,
    platform: str,
    survey_items: pd.DataFrame,
    scale: tuple[float, float] = (0.0, 6.0),
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Read a platform results file into long ratings, checked against the survey design.

    Args:
        path: the results CSV (``mturk`` or ``prolific``, module docstring).
        survey_items: the design (:data:`SURVEY_ITEM_COLUMNS`, e.g. ``survey/<dataset>/items.parquet``).
        scale: inclusive rating range (0-6).

    Returns:
        (long ratings with :data:`LONG_RATING_COLUMNS` (rating float; in file order, items in slot
        order), counts: ``submissions``, ``rejected``, ``kept``, ``ratings``, ``dont_know``, ``raters``).

    Raises:
        SourceFormatError: not a readable CSV; or naming the file and line (header = line 1, one line
            per row): a missing worker, status,
            ``group``/``page`` or answer column; an empty worker id; an item id not in the survey;
            words, group or page other than the survey's for that item; an empty rating, or one that
            is neither an integer in ``scale`` nor :data:`DONT_KNOW_VALUE`; a worker rating an item
            twice or in two groups.
        ValueError: unknown ``platform``.
    """
    if platform not in PLATFORMS:
        raise ValueError(f"platform must be one of {sorted(PLATFORMS)}, not {platform!r}")
    spec = PLATFORMS[platform]
    path = Path(path)
    try:
        frame = restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
    except (pd.errors.EmptyDataError, pd.errors.ParserError, UnicodeDecodeError) as err:
        raise SourceFormatError(path, None, f"a {platform} results CSV", str(err)) from err
    columns = list(frame.columns)
    ip, ap = spec.input_prefix, spec.answer_prefix
    required = [spec.worker, f"{ip}group", f"{ip}page"] + ([spec.status] if spec.status_required else [])
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise SourceFormatError(path, 1, f"{platform} results columns {', '.join(required)}", ", ".join(columns))
    slot_pattern = re.compile(rf"^{re.escape(ip)}item_(\d+)_id$")
    slots = sorted(int(m.group(1)) for c in columns if (m := slot_pattern.match(c)))
    if not slots:
        raise SourceFormatError(path, 1, f"item columns {ip}item_<k>_id", ", ".join(columns))
    for k in slots:
        needed = [f"{ip}item_{k}_word1", f"{ip}item_{k}_word2", ap + RATING_FIELD.format(k=k)]
        absent = [c for c in needed if c not in frame.columns]
        if absent:
            raise SourceFormatError(path, 1, f"the columns {', '.join(needed)}", f"missing {', '.join(absent)}")
    frame = frame.map(str.strip)
    line = np.arange(len(frame)) + 2
    rejected = (
        frame[spec.status].isin(spec.rejected).to_numpy()
        if spec.status in frame.columns
        else np.zeros(len(frame), bool)
    )
    kept = frame[~rejected]
    line = line[~rejected]
    empty_worker = (kept[spec.worker] == "").to_numpy()
    if empty_worker.any():
        i = int(np.flatnonzero(empty_worker)[0])
        raise SourceFormatError(path, int(line[i]), f"a {spec.worker}", "empty")

    def grid(field: str, prefix: str) -> np.ndarray:
        return kept[[f"{prefix}item_{k}_{field}" for k in slots]].to_numpy(dtype=object)

    ids, word1, word2, answer = grid("id", ip), grid("word1", ip), grid("word2", ip), grid("rating", ap)
    row_of = np.repeat(np.arange(len(kept)), len(slots)).reshape(ids.shape)
    slot_of = np.tile(np.array(slots), (len(kept), 1))
    used = ids != ""
    stray = ~used & (answer != "")
    if stray.any():
        r, s = np.argwhere(stray)[0]
        raise SourceFormatError(
            path, int(line[r]), f"no answer in an empty slot ({ap}{RATING_FIELD.format(k=slots[s])})", answer[r, s]
        )
    cells = pd.DataFrame(
        {
            "row": row_of[used],
            "slot": slot_of[used],
            "item_id": ids[used],
            "word1": word1[used],
            "word2": word2[used],
            "answer": answer[used],
        }
    )
    cells["line"] = line[cells["row"].to_numpy()]
    cells["rater"] = kept[spec.worker].to_numpy()[cells["row"].to_numpy()]
    cells["hit_group"] = kept[f"{ip}group"].to_numpy()[cells["row"].to_numpy()]
    cells["hit_page"] = kept[f"{ip}page"].to_numpy()[cells["row"].to_numpy()]
    design = survey_items[list(SURVEY_ITEM_COLUMNS)].astype(str).drop_duplicates("item_id").set_index("item_id")
    known = cells["item_id"].isin(design.index).to_numpy()
    if not known.all():
        bad = cells[~known].iloc[0]
        raise SourceFormatError(
            path, int(bad["line"]), f"an item id of the survey in {ip}item_{bad['slot']}_id", bad["item_id"]
        )
    expected = design.loc[cells["item_id"]].reset_index()
    for field, column in (("word1", "word1"), ("word2", "word2"), ("group", "hit_group"), ("page", "hit_page")):
        differs = cells[column].to_numpy() != expected[field].to_numpy()
        if differs.any():
            i = int(np.flatnonzero(differs)[0])
            bad = cells.iloc[i]
            name = f"{ip}item_{bad['slot']}_{field}" if field.startswith("word") else f"{ip}{field}"
            raise SourceFormatError(
                path,
                int(bad["line"]),
                f"{name} = {expected[field].iat[i]!r} (survey item {bad['item_id']})",
                str(bad[column]),
            )
    unsure = (cells["answer"] == DONT_KNOW_VALUE).to_numpy()
    rating = pd.to_numeric(cells["answer"].where(~unsure), errors="coerce").to_numpy(dtype=np.float64)
    bad = ~unsure & (np.isnan(rating) | (rating != np.round(rating)) | (rating < scale[0]) | (rating > scale[1]))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        cell = cells.iloc[i]
        raise SourceFormatError(
            path,
            int(cell["line"]),
            f"{ap}{RATING_FIELD.format(k=cell['slot'])}: an integer rating in [{scale[0]:g}, {scale[1]:g}] "
            f"or {DONT_KNOW_VALUE} (item {cell['item_id']})",
            cell["answer"] or "empty",
        )
    twice = cells.duplicated(["rater", "item_id"]).to_numpy()
    if twice.any():
        cell = cells.iloc[int(np.flatnonzero(twice)[0])]
        raise SourceFormatError(
            path, int(cell["line"]), "each item once per worker", f"{cell['rater']} rated {cell['item_id']} again"
        )
    first_group = cells.groupby("rater", sort=False)["hit_group"].transform("first").to_numpy()
    other = first_group != cells["hit_group"].to_numpy()
    if other.any():
        cell = cells.iloc[int(np.flatnonzero(other)[0])]
        raise SourceFormatError(
            path,
            int(cell["line"]),
            f"worker {cell['rater']} in one survey group only",
            f"groups {first_group[np.flatnonzero(other)[0]]} and {cell['hit_group']}",
        )
    rated = ~unsure
    long = pd.DataFrame(
        {
            "rater": cells["rater"].to_numpy()[rated],
            "word1": expected["word1"].to_numpy()[rated],
            "word2": expected["word2"].to_numpy()[rated],
            "rating": rating[rated],
            "group": expected["group"].to_numpy()[rated],
            "role": expected["role"].to_numpy()[rated],
            "item_id": cells["item_id"].to_numpy()[rated],
        }
    )
    counts = {
        "submissions": len(frame),
        "rejected": int(rejected.sum()),
        "kept": len(kept),
        "ratings": len(long),
        "dont_know": int(unsure.sum()),
        "raters": int(long["rater"].nunique()),
    }
    return long[LONG_RATING_COLUMNS], counts


# --------------------------------------------------------------------------------------------------
# Study sheets -> Label Studio
# --------------------------------------------------------------------------------------------------
def labelstudio_config(kind: str) -> str:
    """The Label Studio labelling config (XML) of a study sheet.

    ``termpairs``: the two terms (``Text`` of ``$term1``, ``$term2``) and ``Choices name="answer"``
    over :data:`CHOICE_LABELS` (``alias`` = same / not same / don't know). ``wic``: the two sentences
    as ``HyperText`` of ``$sentence1``, ``$sentence2`` (HTML with the mention in ``<mark>``, from
    :func:`labelstudio_tasks`) and the same ``answer`` choices labelled same meaning / different
    meaning / don't know. Single choice, required.

    Raises:
        ValueError: ``kind`` not in :data:`STUDY_KINDS`.
    """
    if kind not in STUDY_KINDS:
        raise ValueError(f"kind must be one of {STUDY_KINDS}, not {kind!r}")
    view = ET.Element("View")
    if kind == "termpairs":
        ET.SubElement(view, "Header", value="Do the two terms denote the same concept?")
        for name in ("term1", "term2"):
            ET.SubElement(view, "Text", name=name, value=f"${name}")
        target = "term1"
    else:
        ET.SubElement(view, "Header", value="Do the highlighted terms refer to the same concept in their sentences?")
        for name in ("sentence1", "sentence2"):
            ET.SubElement(view, "HyperText", name=name, value=f"${name}")
        target = "sentence1"
    choices = ET.SubElement(view, "Choices", name=ANSWER_FIELD, toName=target, choice="single", required="true")
    for answer in ANSWERS:
        ET.SubElement(choices, "Choice", value=CHOICE_LABELS[kind][answer], alias=answer)
    ET.indent(view)
    return ET.tostring(view, encoding="unicode") + "\n"


def highlight_mention(sentence: str) -> str:
    """A sheet sentence (mention between ``[[`` and ``]]``) as HTML: text escaped, the mention in ``<mark>``."""
    start, end = sentence.find(MARK_OPEN), sentence.find(MARK_CLOSE)
    if start < 0 or end < start:
        return html.escape(sentence)
    before, mention, after = sentence[:start], sentence[start + len(MARK_OPEN) : end], sentence[end + len(MARK_CLOSE) :]
    return f"{html.escape(before)}<mark>{html.escape(mention)}</mark>{html.escape(after)}"


def labelstudio_tasks(sheet: pd.DataFrame, kind: str) -> list[dict[str, Any]]:
    """Label Studio tasks (``[{"data": {...}}]``) for a blinded study sheet, in sheet order.

    ``data`` holds ``item``, ``term1``, ``term2`` and, for ``wic``, ``sentence1``/``sentence2`` as
    HTML (:func:`highlight_mention`). No label, dataset or sample (the sheet has none).
    """
    if kind not in STUDY_KINDS:
        raise ValueError(f"kind must be one of {STUDY_KINDS}, not {kind!r}")
    tasks = []
    for row in sheet.itertuples(index=False):
        data = {"item": str(row.item), "term1": str(row.term1), "term2": str(row.term2)}
        if kind == "wic":
            data["sentence1"] = highlight_mention(str(row.sentence1))
            data["sentence2"] = highlight_mention(str(row.sentence2))
        tasks.append({"data": data})
    return tasks


def tasks_json(tasks: Sequence[Mapping[str, Any]]) -> str:
    """Tasks as JSON text (UTF-8, two-space indent, trailing newline; stable bytes)."""
    return json.dumps(list(tasks), ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------------------------------
# Label Studio export -> filled sheet
# --------------------------------------------------------------------------------------------------
def _annotator_matches(completed_by: Any, annotator: str) -> bool:
    """``completed_by`` is a user id (int) or, in exports with annotator details, ``{"id", "email", ...}``."""
    if isinstance(completed_by, Mapping):
        return annotator in (str(completed_by.get("id")), str(completed_by.get("email")))
    return str(completed_by) == annotator


def read_labelstudio_export(path: str | Path, annotator: str | int, kind: str = "termpairs") -> pd.DataFrame:
    """One annotator's answers in a Label Studio JSON export, as a filled sheet.

    Args:
        path: the JSON export (module docstring).
        annotator: the ``completed_by`` user id, or the e-mail where the export holds user details.
        kind: ``termpairs`` or ``wic`` (which displayed choice labels are accepted besides the aliases).

    Returns:
        ``item, term1, term2, answer`` (canonical answers), one row per task the annotator completed,
        in task order; cancelled (skipped) annotations give no row, so the scoring rule reports the
        item as missing.

    Raises:
        SourceFormatError: naming the file and the task (position, 1-based, and ``id``): not JSON or
            not a list of tasks; a task without ``data.item``; an annotation of ``annotator`` without
            one ``answer`` choice, or with a choice outside the study's; two annotations of the
            annotator on one task; no annotation by ``annotator`` in the file.
    """
    path = Path(path)
    annotator = str(annotator)
    accepted = {normalise_answer(label): answer for answer, label in CHOICE_LABELS[kind].items()}
    accepted.update({answer: answer for answer in ANSWERS})
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise SourceFormatError(path, err.lineno, "a Label Studio JSON export (a list of tasks)", err.msg) from err
    if not isinstance(tasks, list):
        raise SourceFormatError(path, None, "a Label Studio JSON export (a list of tasks)", type(tasks).__name__)
    rows = []
    for position, task in enumerate(tasks, 1):
        where = f"task {position} (id {task.get('id') if isinstance(task, dict) else '?'})"
        data = task.get("data") if isinstance(task, dict) else None
        if not isinstance(data, dict) or not str(data.get("item", "")).strip():
            raise SourceFormatError(path, None, f"{where}: a data object with an item id", json.dumps(task)[:200])
        mine = [
            a
            for a in task.get("annotations") or []
            if _annotator_matches(a.get("completed_by"), annotator) and not a.get("was_cancelled", False)
        ]
        if len(mine) > 1:
            raise SourceFormatError(path, None, f"{where}: one annotation by {annotator}", f"{len(mine)} annotations")
        if not mine:
            continue
        choices = [
            r for r in mine[0].get("result") or [] if r.get("from_name") == ANSWER_FIELD and r.get("type") == "choices"
        ]
        values = choices[0].get("value", {}).get("choices", []) if len(choices) == 1 else []
        if len(values) != 1:
            raise SourceFormatError(
                path,
                None,
                f"{where}: one {ANSWER_FIELD!r} choice by {annotator}",
                json.dumps(mine[0].get("result"))[:200],
            )
        answer = accepted.get(normalise_answer(values[0]))
        if answer is None:
            raise SourceFormatError(
                path, None, f"{where}: a choice among {', '.join(CHOICE_LABELS[kind].values())}", str(values[0])
            )
        rows.append(
            {
                "item": str(data["item"]).strip(),
                "term1": str(data.get("term1", "")),
                "term2": str(data.get("term2", "")),
                "answer": answer,
            }
        )
    if not rows:
        raise SourceFormatError(path, None, f"annotations completed by {annotator}", "none")
    return pd.DataFrame(rows, columns=["item", "term1", "term2", "answer"])


def read_filled_sheet(path: str | Path, spec: Mapping[str, Any] | None = None, kind: str = "termpairs") -> pd.DataFrame:
    """A filled sheet by its config entry: ``format: sheet`` (default; CSV/XLSX,
    :func:`biosem.agreement.sheets.read_sheet`) or ``format: labelstudio`` with ``annotator``
    (:func:`read_labelstudio_export`)."""
    if spec is None or spec.get("format", "sheet") == "sheet":
        return read_sheet(path)
    if spec["format"] == "labelstudio":
        return read_labelstudio_export(path, spec["annotator"], kind)
    raise ValueError(f"filled sheet format must be sheet or labelstudio, not {spec['format']!r}")
