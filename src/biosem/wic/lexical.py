"""Term normalisations compared by the BioWiC groups: lowercase, lemma, initials.

* **lemma** (term identity group): the reference lemmatises each mention with spaCy and joins the
  token lemmas with spaces. biosem uses NLTK's WordNet lemmatiser (noun reading, WordNet 3.0): tokens
  are runs of word characters or single punctuation characters; a token is lemmatised only if it is
  alphabetic and not an all-capital acronym (``AIDS`` stays ``aids``, it is not the plural of
  ``aid``); the lemma is lowercase. ``"Spines"`` -> ``"spine"``, ``"Lesch-Nyhan"`` ->
  ``"lesch - nyhan"``.
* **initials** (abbreviation group): the first character of each token of the lowercased term, tokens
  split at whitespace and hyphens (``"blood-brain barrier"`` -> ``"bbb"``). The reference splits at
  whitespace only, which misses hyphenated long forms.
* **parenthesised definitions** (abbreviation group, biosem's addition): a text's own definition of an
  abbreviation, "long form (SF)" or "SF (long form)", where both are annotated mentions
  (:func:`parenthesised_definitions`) and the short form passes Schwartz & Hearst's test
  (:func:`short_form_of`): "quantitative trait loci (QTLs)", "embryonic stem (ES) cells" is not one
  (the mention "embryonic stem cells" does not end before the parenthesis).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

_TOKEN = re.compile(r"\w+|[^\w\s]")
_INITIAL_SPLIT = re.compile(r"[\s\-]+")


def configure_nltk_data(candidates: Iterable[str | os.PathLike[str]]) -> Path:
    """Make WordNet findable by NLTK and return the ``nltk_data`` folder that holds it.

    Looks in ``$NLTK_DATA`` (each entry), then in ``candidates`` in order (e.g. the config's
    ``wic.nltk_data`` and ``<mirror>/nltk_data`` for each mirror folder), then NLTK's own search path.

    Raises:
        FileNotFoundError: no folder with ``corpora/wordnet`` was found.
    """
    import nltk

    env = [p for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    for folder in [*env, *candidates, *nltk.data.path]:
        path = Path(folder)
        if (path / "corpora" / "wordnet").is_dir() or (path / "corpora" / "wordnet.zip").is_file():
            resolved = str(path.resolve())
            if resolved not in nltk.data.path:
                nltk.data.path.insert(0, resolved)
            return path.resolve()
    raise FileNotFoundError(
        "WordNet (nltk_data/corpora/wordnet) not found: set NLTK_DATA or config wic.nltk_data "
        "(the source mirror has it under nltk_data/)"
    )


def _lemmatise_token(token: str, lemmatize) -> str:
    if token.isalpha() and not (len(token) > 1 and token.isupper()):
        return lemmatize(token.lower())
    return token.lower()


def lemmas(terms: Sequence[str]) -> list[str]:
    """Lemma of each term (see module docstring); computed once per distinct term.

    Requires WordNet (see :func:`configure_nltk_data`); raises ``LookupError`` from NLTK otherwise.
    """
    from nltk.stem import WordNetLemmatizer

    lemmatize = WordNetLemmatizer().lemmatize
    cache: dict[str, str] = {}
    out = []
    for term in terms:
        got = cache.get(term)
        if got is None:
            got = " ".join(_lemmatise_token(t, lemmatize) for t in _TOKEN.findall(term))
            cache[term] = got
        out.append(got)
    return out


def initials(terms_lower: Sequence[str], min_tokens: int = 2) -> np.ndarray:
    """Initials of each lowercased term (object array), or ``None`` where it has < ``min_tokens`` tokens.

    Tokens are split at runs of whitespace and hyphens; empty tokens are ignored.
    """
    out = np.empty(len(terms_lower), dtype=object)
    for i, term in enumerate(terms_lower):
        tokens = [t for t in _INITIAL_SPLIT.split(term) if t]
        out[i] = "".join(t[0] for t in tokens) if len(tokens) >= min_tokens else None
    return out


# --------------------------------------------------------------------------------------------------
# Parenthesised definitions (Schwartz & Hearst, PSB 2003)
# --------------------------------------------------------------------------------------------------
SHORT_FORM_MAX_CHARS = 10
"""Longest short form (Schwartz & Hearst 2003 § 2.1: 2–10 characters, at most two words)."""


def _best_long_form(short: str, long: str) -> str | None:
    """Schwartz & Hearst's ``findBestLongForm``: the shortest suffix of ``long`` (starting at a word)
    whose characters contain those of ``short`` in order, the first at the start of a word; or ``None``."""
    s_index, l_index = len(short) - 1, len(long) - 1
    while s_index >= 0:
        char = short[s_index].lower()
        if not char.isalnum():
            s_index -= 1
            continue
        while (l_index >= 0 and long[l_index].lower() != char) or (
            s_index == 0 and l_index > 0 and long[l_index - 1].isalnum()
        ):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start = long.rfind(" ", 0, l_index + 1) + 1
    return long[start:]


def short_form_of(short: str, long: str) -> bool:
    """Whether ``short`` abbreviates the whole of ``long`` (Schwartz & Hearst 2003, "A simple algorithm
    for identifying abbreviation definitions in biomedical text", PSB, § 2).

    The short form has 2–:data:`SHORT_FORM_MAX_CHARS` characters, at most two words, a letter, an
    alphanumeric first character, and is shorter than the long form; the long form has at most
    ``min(|SF| + 5, 2 |SF|)`` words; and the best long form the algorithm finds for it is ``long``
    itself (its first character at the start of ``long``'s first word). A plural ``s`` after capitals
    ("QTLs", "ESTs") is not looked for in the long form.
    """
    short, long = short.strip(), long.strip()
    if not (2 <= len(short) <= SHORT_FORM_MAX_CHARS) or len(short.split()) > 2 or len(short) >= len(long):
        return False
    if not short[0].isalnum() or not any(c.isalpha() for c in short):
        return False
    if len(long.split()) > min(len(short) + 5, 2 * len(short)):
        return False
    core = short[:-1] if len(short) > 2 and short.endswith("s") and short[:-1].isupper() else short
    return _best_long_form(core, long) == long


DEFINITION_COLUMNS = ("short_lower", "long_lower", "mentions", "documents")


def no_definitions() -> pd.DataFrame:
    """An empty table of :func:`parenthesised_definitions` (``wic.abbreviation_definitions`` off)."""
    return pd.DataFrame({c: pd.Series(dtype=object if c.endswith("lower") else np.int64) for c in DEFINITION_COLUMNS})


def parenthesised_definitions(mentions: pd.DataFrame) -> pd.DataFrame:
    """Abbreviations the texts define: a mention followed by ``" ("``, a mention and ``")"``, one of the
    two a short form of the other (:func:`short_form_of`).

    Args:
        mentions: mentions with their sentence: ``corpus, document_id, sentence_id, sentence,
            sentence_start, sentence_end, text`` (:func:`biosem.wic.concepts.check_mention_offsets`
            output; the caller passes the mentions that may be WiC targets).

    Pairs are found by joining each mention to the mentions that start one or two characters after it
    ends in the same sentence (never all pairs of a sentence); "LF (SF)" and "SF (LF)" both count.

    Returns:
        ``short_lower, long_lower, mentions, documents`` (definitions found, distinct documents),
        sorted, one row per distinct pair.
    """
    keys = ["corpus", "document_id", "sentence_id"]
    cols = [*keys, "sentence", "sentence_start", "sentence_end", "text"]
    m = mentions[cols].reset_index(drop=True)
    found = []
    for gap in (1, 2):
        left = m.assign(_pos=m["sentence_end"] + gap)
        right = m[keys + ["sentence_start", "sentence_end", "text"]].rename(
            columns={"sentence_start": "_pos", "sentence_end": "end2", "text": "text2"}
        )
        found.append(left.merge(right, on=[*keys, "_pos"], how="inner"))
    pairs = pd.concat(found, ignore_index=True)
    if pairs.empty:
        return no_definitions()
    sentence = pairs["sentence"].to_numpy(dtype=object)
    end1, start2, end2 = (pairs[c].to_numpy() for c in ("sentence_end", "_pos", "end2"))
    between = np.array([t[a:b] for t, a, b in zip(sentence, end1, start2)], dtype=object)
    after = np.array([t[b : b + 1] for t, b in zip(sentence, end2)], dtype=object)
    shape = np.isin(between, ["(", " ("]) & (after == ")")
    pairs = pairs[shape]
    text1 = pairs["text"].to_numpy(dtype=object)
    text2 = pairs["text2"].to_numpy(dtype=object)
    lf_sf = np.array([short_form_of(b, a) for a, b in zip(text1, text2)], dtype=bool)
    sf_lf = np.array([short_form_of(a, b) for a, b in zip(text1, text2)], dtype=bool) & ~lf_sf
    short = np.where(lf_sf, text2, text1)
    long = np.where(lf_sf, text1, text2)
    keep = lf_sf | sf_lf
    table = pd.DataFrame(
        {
            "short_lower": pd.Series(short[keep], dtype=object).str.lower(),
            "long_lower": pd.Series(long[keep], dtype=object).str.lower(),
            "document_id": pairs["corpus"].to_numpy()[keep] + "\x1f" + pairs["document_id"].to_numpy()[keep],
        }
    )
    out = (
        table.groupby(["short_lower", "long_lower"], sort=True)
        .agg(mentions=("document_id", "size"), documents=("document_id", "nunique"))
        .reset_index()
    )
    return out[list(DEFINITION_COLUMNS)].astype({"mentions": np.int64, "documents": np.int64})
