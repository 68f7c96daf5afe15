"""Per-article open-access notices of released text: which articles a dataset's rows come from, their
notices in the card and ``croissant.json``, and the check of a built release.

A dataset whose rows carry sentences of full-text articles (the WiC pairs from CRAFT) must carry, for
every article it takes a sentence from, the article's notice and URL (the BioMed Central notice asks
for "this notice ... preserved along with the article's original URL"; CRAFT ``articles/txt/
<PMID>.copyright``, docs/design.md § CRAFT), and may only hold articles whose notice permits
redistribution (:mod:`biosem.corpora.notices`; the wic stage leaves the others out). The rows name their
article in column pairs ``corpus<suffix>`` / ``document_id<suffix>`` (WiC: ``corpus1, document_id1``
and ``corpus2, document_id2``; :func:`document_columns`).

* :func:`released_articles`: the articles of the rows, with their notices; a row whose article has no
  notice, or a notice of a class the dataset does not permit, stops the release build
  (:class:`NoticeError`).
* :func:`notices_section` (card, under "Licence and attribution") and :func:`notices_jsonld`
  (``croissant.json``: one ``sc:ScholarlyArticle`` per article in ``prov:wasDerivedFrom``, with its
  ``url``, ``citation`` and verbatim ``copyrightNotice``, schema.org's properties).
* :func:`check_notices`: for ``biosem.release.check``: every article of the released rows of a
  corpus with notices is recorded in ``croissant.json`` with a notice of a permitted class, and the
  card lists its URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import pyarrow as pa

from biosem.corpora.notices import classify_notice

ARTICLE_TYPE = "sc:ScholarlyArticle"
"""``@type`` of an article entry in ``prov:wasDerivedFrom`` (not a source: no licence of its own to classify)."""
NOTICES_HEADING = "### Article notices"
"""The card's subsection (under "Licence and attribution") that lists each article with its notice."""
ARTICLE_COLUMNS = ("corpus", "document_id", "rows", "pmcid", "url", "citation", "statement", "notice", "notice_class")
"""Columns of :func:`released_articles`."""

_CORPUS_COLUMN = re.compile(r"^corpus(\w*)$")


class NoticeError(ValueError):
    """Released rows come from articles without a notice, or whose notice does not permit redistribution.

    Attributes:
        problems: one line per article.
    """

    def __init__(self, dataset: str, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems[:20])
        more = f"\n  ... and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        super().__init__(
            f"{dataset}: {len(self.problems)} article(s) of the released rows cannot be released with their "
            f"notice:\n{lines}{more}\nExpected every article of a corpus with notices (CRAFT) to have a notice "
            "of a class in wic.permitted_notices (the wic stage leaves the other articles out: rebuild it)."
        )


def document_columns(names: Iterable[str]) -> list[tuple[str, str]]:
    """The ``(corpus<suffix>, document_id<suffix>)`` column pairs among ``names``, in name order."""
    names = list(names)
    out = []
    for name in sorted(names):
        match = _CORPUS_COLUMN.match(name)
        if match and f"document_id{match.group(1)}" in names:
            out.append((name, f"document_id{match.group(1)}"))
    return out


def row_documents(tables: Iterable[pa.Table]) -> pd.DataFrame:
    """``corpus, document_id, rows`` (rows holding a sentence of the document; a row with both sides in
    one document counts once) of Arrow tables with :func:`document_columns`, sorted."""
    parts = []
    for table in tables:
        pairs = document_columns(table.column_names)
        if not pairs or not table.num_rows:
            continue
        sides = [
            pd.DataFrame(
                {
                    "row": range(table.num_rows),
                    "corpus": table.column(c).to_pandas().astype(object),
                    "document_id": table.column(d).to_pandas().astype(object),
                }
            )
            for c, d in pairs
        ]
        frame = pd.concat(sides, ignore_index=True).dropna().drop_duplicates()
        parts.append(frame.groupby(["corpus", "document_id"], sort=True).size().rename("rows").reset_index())
    if not parts:
        return pd.DataFrame(
            {
                "corpus": pd.Series(dtype=object),
                "document_id": pd.Series(dtype=object),
                "rows": pd.Series(dtype="int64"),
            }
        )
    out = pd.concat(parts, ignore_index=True).groupby(["corpus", "document_id"], sort=True)["rows"].sum()
    return out.reset_index().astype({"rows": "int64"})


def released_articles(
    dataset: str, tables: Iterable[pa.Table], notices: pd.DataFrame, permitted: Sequence[str]
) -> pd.DataFrame:
    """The articles of corpora with notices that the released rows take sentences from, with their notices.

    Args:
        dataset: the dataset id (for messages).
        tables: the released tables (rows naming their articles in :func:`document_columns`).
        notices: the ``notices`` intermediates of the dataset's corpora with notices, concatenated
            (:data:`biosem.corpora.schemas.NOTICES`); only those corpora are checked.
        permitted: the notice classes the dataset may release (``wic.permitted_notices``).

    Returns:
        :data:`ARTICLE_COLUMNS`, one row per article, sorted by corpus and PMID (numerically).

    Raises:
        NoticeError: an article without a notice, or with a notice of a class not in ``permitted``.
    """
    docs = row_documents(tables)
    docs = docs[docs["corpus"].isin(set(notices["corpus"]))]
    if docs.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64" if c == "rows" else object) for c in ARTICLE_COLUMNS})
    merged = docs.merge(notices, on=["corpus", "document_id"], how="left", validate="1:1")
    merged["notice_class"] = [classify_notice(s) if isinstance(s, str) else None for s in merged["statement"]]
    problems = [
        f"{r.corpus} {r.document_id}: no notice" for r in merged[merged["statement"].isna()].itertuples(index=False)
    ]
    bad = merged["statement"].notna() & ~merged["notice_class"].isin(list(permitted))
    problems += [
        f"{r.corpus} {r.document_id} ({r.url}): notice class {r.notice_class} ({r.statement})"
        for r in merged[bad].itertuples(index=False)
    ]
    if problems:
        raise NoticeError(dataset, problems)
    order = merged["document_id"].map(lambda d: (len(d), d))
    merged = merged.assign(_o=order).sort_values(["corpus", "_o"], kind="stable").drop(columns="_o")
    return merged[list(ARTICLE_COLUMNS)].reset_index(drop=True)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def notices_section(articles: pd.DataFrame) -> str:
    """Markdown for the card: each article with its citation, PMID, PMC id, URL and notice statement,
    then every notice verbatim in a collapsed block; ``""`` without articles."""
    if articles is None or articles.empty:
        return ""
    lines = [
        NOTICES_HEADING,
        "",
        (
            f"The rows take sentences from {len(articles):,} full-text article(s), each under its own open-access "
            "notice, which must be kept with its text and URL when the dataset or a part of it is shared. Each "
            "article, with the number of rows holding one of its sentences, its URL and its copyright statement:"
        ),
        "",
    ]
    for r in articles.itertuples(index=False):
        lines.append(
            f"* `{r.corpus}` PMID {r.document_id} ({r.pmcid}; {_one_line(r.citation)}; {int(r.rows):,} rows): "
            f"<{r.url}> — {_one_line(r.statement)}"
        )
    lines += ["", "<details><summary>The notices verbatim</summary>", ""]
    for r in articles.itertuples(index=False):
        lines += [f"`{r.corpus}` PMID {r.document_id}:", "", "```text", str(r.notice).rstrip(), "```", ""]
    lines += ["</details>", ""]
    return "\n".join(lines)


def notices_jsonld(articles: pd.DataFrame) -> list[dict[str, Any]]:
    """One ``prov:wasDerivedFrom`` entry per article (schema.org ``ScholarlyArticle``: ``identifier``
    the PMID, ``sameAs`` the PMC id, ``url``, ``citation``, ``copyrightNotice`` the verbatim notice,
    ``isPartOf`` the corpus)."""
    if articles is None or articles.empty:
        return []
    return [
        {
            "@type": ARTICLE_TYPE,
            "name": f"{r.corpus} PMID {r.document_id}",
            "description": f"article of corpus {r.corpus}: {int(r.rows)} rows hold a sentence of it",
            "identifier": f"PMID:{r.document_id}",
            "sameAs": r.pmcid,
            "url": r.url,
            "citation": _one_line(r.citation),
            "copyrightNotice": str(r.notice).rstrip(),
            "isPartOf": r.corpus,
        }
        for r in articles.itertuples(index=False)
    ]


def recorded_notices(doc: Mapping[str, Any]) -> pd.DataFrame:
    """The articles a ``croissant.json`` document records (:func:`notices_jsonld` entries):
    ``corpus, document_id, url, notice, notice_class`` (the class of the notice's statement)."""
    rows = []
    for entry in doc.get("prov:wasDerivedFrom") or []:
        if not isinstance(entry, dict) or entry.get("@type") != ARTICLE_TYPE:
            continue
        notice = str(entry.get("copyrightNotice", ""))
        url = str(entry.get("url", ""))
        statement = notice.split(url, 1)[1] if url and url in notice else notice
        rows.append(
            {
                "corpus": str(entry.get("isPartOf", "")),
                "document_id": str(entry.get("identifier", "")).removeprefix("PMID:"),
                "url": url,
                "notice": notice,
                "notice_class": classify_notice(statement.strip()),
            }
        )
    return pd.DataFrame(rows, columns=["corpus", "document_id", "url", "notice", "notice_class"])


def check_notices(
    name: str,
    tables: Iterable[pa.Table],
    doc: Mapping[str, Any],
    card: str,
    notice_corpora: Iterable[str],
    permitted: Sequence[str] | None,
) -> list[str]:
    """Problems of one built dataset folder with per-article notices (for ``biosem.release.check``).

    Args:
        name: the dataset folder (``wic/biowic``), for messages.
        tables: its Parquet tables.
        doc: its ``croissant.json``.
        card: its ``README.md``.
        notice_corpora: corpora whose articles carry notices (from the release's ``config.yaml``: the
            corpora of a format with a ``notices`` table), and every corpus ``croissant.json`` records
            an article of.
        permitted: the permitted notice classes (``wic.permitted_notices`` of the release's config);
            ``None``: the classes that permit redistribution
            (:data:`biosem.corpora.notices.PERMITTING_CLASSES`).

    Returns:
        One line per article of the rows that ``croissant.json`` does not record, whose recorded notice
        is not of a permitted class, or whose URL the card's article notices do not list.
    """
    from biosem.corpora.notices import PERMITTING_CLASSES

    allowed = list(PERMITTING_CLASSES if permitted is None else permitted)
    recorded = recorded_notices(doc)
    corpora = set(notice_corpora) | set(recorded["corpus"])
    docs = row_documents(tables)
    docs = docs[docs["corpus"].isin(corpora)]
    if docs.empty:
        return []
    merged = docs.merge(recorded, on=["corpus", "document_id"], how="left")
    problems = [
        f"{name}: rows hold sentences of {r.corpus} PMID {r.document_id}, whose notice croissant.json does not record"
        for r in merged[merged["url"].isna()].itertuples(index=False)
    ]
    known = merged[merged["url"].notna()]
    problems += [
        f"{name}: {r.corpus} PMID {r.document_id}: notice of class {r.notice_class}, not a permitted class ({allowed})"
        for r in known[~known["notice_class"].isin(allowed)].itertuples(index=False)
    ]
    section = card.split(NOTICES_HEADING, 1)[1].split("\n## ", 1)[0] if NOTICES_HEADING in card else ""
    problems += [
        f"{name}/README.md: {r.corpus} PMID {r.document_id}: its URL {r.url} is not listed under '{NOTICES_HEADING}'"
        for r in known.itertuples(index=False)
        if f"<{r.url}>" not in section
    ]
    return problems
