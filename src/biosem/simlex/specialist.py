"""Readers for the SPECIALIST Lexicon relational files LRSPL, LRAGR and LRNOM (NLM, licence-free).

The SPECIALIST Lexicon ships each relation as a pipe-delimited file with a trailing ``|`` and no
header (documentation of the lexicon's relational tables: NLM Lexical Systems Group,
https://lhncbc.nlm.nih.gov/LSG/Projects/lexicon/):

* ``LRSPL`` — spelling variants: ``EUI|SPV|BAS|`` (entry id, spelling variant, base form). The base
  form is the lexicon's canonical (usually American) spelling: ``E0008269|anaemia|anemia|``.
* ``LRAGR`` — agreement and inflection: ``EUI|STR|STA|SCA|AGR|CIT|BAS|`` (entry id, inflected
  string, status, syntactic category, agreement/inflection code, citation form, base form; older
  releases stop after CIT): ``E0063417|tumors|base|noun|count(thr_plur)|tumor|tumor|``.
* ``LRNOM`` — nominalisations: ``EUI|BAS|SCA|EUI|BAS|SCA|`` (an entry and its nominalisation or
  the verb it nominalises): ``E0047537|phosphorylate|verb|E0047538|phosphorylation|noun|``.

Only single words of letters are kept (the lexicon also holds multi-word entries); everything is
lowercased. Files may be gzipped. A line with too few fields raises
:class:`~biosem.errors.SourceFormatError` naming the file and line.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from biosem.errors import SourceFormatError

_WORD = re.compile(r"^[a-z]+$")
_CATEGORY_POS = {"noun": "noun", "verb": "verb"}


def _fields(path: str | Path, min_fields: int, layout: str) -> Iterator[tuple[int, list[str]]]:
    path = Path(path)
    try:
        with open(path, "rb") as probe:
            magic = probe.read(2)
    except OSError as err:
        raise SourceFormatError(path, None, f"a SPECIALIST {layout} file", str(err)) from err
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\r\n")
            if not line:
                continue
            fields = line.split("|")
            if len(fields) < min_fields:
                raise SourceFormatError(path, lineno, f"{min_fields} '|'-separated fields ({layout})", line)
            yield lineno, fields


def read_lrspl(path: str | Path) -> pd.DataFrame:
    """LRSPL spelling variants -> columns ``variant, base`` (lowercase single words, variant != base).

    Raises:
        SourceFormatError: a line has fewer than 3 fields.
    """
    rows = []
    for _, f in _fields(path, 3, "EUI|SPV|BAS|"):
        variant, base = f[1].strip().lower(), f[2].strip().lower()
        if variant != base and _WORD.match(variant) and _WORD.match(base):
            rows.append((variant, base))
    return pd.DataFrame(rows, columns=["variant", "base"]).drop_duplicates(ignore_index=True)


def read_lragr(path: str | Path) -> pd.DataFrame:
    """LRAGR inflections -> columns ``form, lemma, pos`` (noun/verb only; lemma = citation form).

    Raises:
        SourceFormatError: a line has fewer than 6 fields.
    """
    rows = []
    for _, f in _fields(path, 6, "EUI|STR|STA|SCA|AGR|CIT|"):
        pos = _CATEGORY_POS.get(f[3].strip().lower())
        form, lemma = f[1].strip().lower(), f[5].strip().lower()
        if pos and _WORD.match(form) and _WORD.match(lemma):
            rows.append((form, lemma, pos))
    return pd.DataFrame(rows, columns=["form", "lemma", "pos"]).drop_duplicates(ignore_index=True)


def read_lrnom(path: str | Path) -> pd.DataFrame:
    """LRNOM nominalisations -> columns ``noun, verb`` (one row per noun-verb link, either direction).

    Links between other categories (e.g. adjective nominalisations) are dropped.

    Raises:
        SourceFormatError: a line has fewer than 6 fields.
    """
    rows = []
    for _, f in _fields(path, 6, "EUI|BAS|SCA|EUI|BAS|SCA|"):
        a, cat_a = f[1].strip().lower(), f[2].strip().lower()
        b, cat_b = f[4].strip().lower(), f[5].strip().lower()
        if not (_WORD.match(a) and _WORD.match(b)):
            continue
        if cat_a == "noun" and cat_b == "verb":
            rows.append((a, b))
        elif cat_a == "verb" and cat_b == "noun":
            rows.append((b, a))
    return pd.DataFrame(rows, columns=["noun", "verb"]).drop_duplicates(ignore_index=True)
