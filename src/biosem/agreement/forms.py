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
fields quoted (``"``, doubled inside) only when they hold a comma, quote or line break.
"""

from __future__ import annotations

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
