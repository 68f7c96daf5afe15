"""The open-access notices of full-text articles: what each one permits, for the release of their sentences.

A corpus of full texts (CRAFT: ``articles/txt/<PMID>.copyright``, read into the ``notices``
intermediate by :mod:`biosem.corpora.craft`) gives each article its own notice: a copyright line and,
usually, the terms under which the article may be copied. A dataset that releases sentences of an
article must carry that notice and the article's URL (the BioMed Central notice: "verbatim copying and
redistribution of this article are permitted in all media for any purpose, provided this notice is
preserved along with the article's original URL"), and may only release sentences of articles whose
notice permits redistribution.

:func:`classify_notices` puts each notice's ``statement`` (the text after the URL line) in one class of
:data:`NOTICE_CLASSES`, by the first pattern that matches, in this order:

* ``all_rights_reserved``: the statement reserves all rights (CRAFT v5.0.2: the five Oxford University
  Press articles, "© The Author 2005. Published by Oxford University Press. All rights reserved":
  PMIDs 15784609, 15917436, 16027110, 16221973, 16517939);
* ``cc_public_domain``: the Creative Commons Public Domain declaration (2 articles);
* ``cc_by``: distributed under the terms of the Creative Commons Attribution License (61);
* ``plos_open_access``: the Public Library of Science Open-Access License, "unrestricted use,
  distribution, and reproduction in any medium" (2);
* ``bmc_verbatim``: BioMed Central's early Open Access notice, verbatim copying and redistribution
  permitted with the notice and URL preserved (19);
* ``no_permission_stated``: anything else: a copyright line that names no licence and grants no
  permission ("Copyright © 2004 Götz et al; licensee BioMed Central Ltd.", "Copyright © 2001 BioMed
  Central Ltd", "© 2006 The Author(s)": 8 articles). Copyright without a grant permits nothing, so the
  default leaves these articles out too (config ``wic.permitted_notices``).

The patterns are matched case-insensitively with whitespace runs read as one space. Which classes a
dataset may release is configuration (``wic.permitted_notices``), never decided here.
"""

from __future__ import annotations

import re

import pandas as pd

ALL_RIGHTS_RESERVED = "all_rights_reserved"
NO_PERMISSION_STATED = "no_permission_stated"

NOTICE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (ALL_RIGHTS_RESERVED, re.compile(r"\ball rights reserved\b", re.IGNORECASE)),
    ("cc_public_domain", re.compile(r"\bcreative commons public domain\b", re.IGNORECASE)),
    ("cc_by", re.compile(r"\bcreative commons attribution licen[cs]e\b", re.IGNORECASE)),
    (
        "plos_open_access",
        re.compile(r"\bpublic library of science open-access licen[cs]e\b", re.IGNORECASE),
    ),
    (
        "bmc_verbatim",
        re.compile(
            r"\bverbatim copying and redistribution of this article are permitted\b.*\bnotice is preserved\b",
            re.IGNORECASE,
        ),
    ),
)
"""``(class, pattern)`` in precedence order; a statement no pattern matches is :data:`NO_PERMISSION_STATED`."""

NOTICE_CLASSES = (*(name for name, _ in NOTICE_PATTERNS), NO_PERMISSION_STATED)
"""Every notice class (module docstring), in precedence order."""

PERMITTING_CLASSES = ("cc_public_domain", "cc_by", "plos_open_access", "bmc_verbatim")
"""The classes whose statement permits redistribution of the article's text (the config default of
``wic.permitted_notices``)."""


def classify_notice(statement: str) -> str:
    """The :data:`NOTICE_CLASSES` entry of one notice statement (first matching pattern; module docstring)."""
    text = re.sub(r"\s+", " ", statement or "")
    for name, pattern in NOTICE_PATTERNS:
        if pattern.search(text):
            return name
    return NO_PERMISSION_STATED


def classify_notices(notices: pd.DataFrame) -> pd.Series:
    """The class of each row's ``statement`` (aligned with ``notices``; object dtype).

    Args:
        notices: a ``notices`` intermediate (``corpus, document_id, pmcid, url, citation, statement,
            notice``; :data:`biosem.corpora.schemas.NOTICES`), or any table with a ``statement`` column.

    Raises:
        KeyError: ``notices`` has no ``statement`` column.
    """
    return pd.Series([classify_notice(s) for s in notices["statement"]], index=notices.index, dtype=object)
