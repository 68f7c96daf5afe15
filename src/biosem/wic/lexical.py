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
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

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
