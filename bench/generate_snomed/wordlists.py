"""The generator's own word lists and name templates, read from the data files of the package.

Content words come from the source mirror at generation time (:mod:`.vocabulary`); the lists here are
the SNOMED-style skeleton that gives template words their Zipf-like recurrence, plus the word pairs of
the synonym edits and the name templates per semantic tag. They live in ``data/`` beside this module
(found through :mod:`importlib.resources`, whatever the working directory):

* ``data/words/<name>.txt``: one word or phrase per line, most frequent first where the list is a
  vocabulary pool (the order is part of the random draws);
* ``data/pairs/<name>.tsv``: two tab-separated columns per line (contrasts, synonyms, abbreviations,
  US/British spellings), in the order the edits try them;
* ``data/templates.tsv``: ``tag``, ``weight``, ``template`` per line, slots being pool names in braces;
* ``data/elaborations.json``: per tag, the share of names that get an optional clause and the weighted
  clauses (JSON because the clauses begin with a space).

In every text file, blank lines and lines starting with ``#`` are comments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources

_DATA = resources.files(__package__) / "data"


def _lines(*parts: str) -> Iterator[str]:
    """Non-comment lines of a data file (UTF-8), without the line ending."""
    resource = _DATA.joinpath(*parts)
    for line in resource.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line


def words(name: str) -> list[str]:
    """The entries of ``data/words/<name>.txt``, one per line, in file order."""
    return list(_lines("words", f"{name}.txt"))


def pairs(name: str) -> list[tuple[str, str]]:
    """The rows of ``data/pairs/<name>.tsv`` as (first, second), in file order."""
    out: list[tuple[str, str]] = []
    for line in _lines("pairs", f"{name}.tsv"):
        first, second = line.split("\t")
        out.append((first, second))
    return out


def templates() -> dict[str, list[tuple[str, float]]]:
    """``data/templates.tsv`` as {tag: [(template, weight), ...]}, tags and rows in file order."""
    out: dict[str, list[tuple[str, float]]] = {}
    for line in _lines("templates.tsv"):
        tag, weight, template = line.split("\t")
        out.setdefault(tag, []).append((template, float(weight)))
    return out


def elaborations() -> dict[str, tuple[float, list[tuple[str, float]]]]:
    """``data/elaborations.json`` as {tag: (share, [(clause, weight), ...])}."""
    raw = json.loads(_DATA.joinpath("elaborations.json").read_text(encoding="utf-8"))
    return {
        tag: (float(spec["share"]), [(str(clause), float(w)) for clause, w in spec["clauses"]])
        for tag, spec in raw.items()
    }


# SNOMED-style skeleton vocabulary (frequent words, most frequent first).
ANATOMY_CORE = words("anatomy_core")
LATERALITY = words("laterality")
POSITION = words("position")
MODIFIERS = words("modifiers")
DISORDER_HEADS = words("disorder_heads")
FINDING_HEADS = words("finding_heads")
CHANGE = words("change")
PROPERTIES = words("properties")
PROC_HEADS = words("procedure_heads")
PROC_QUALIFIERS = words("procedure_qualifiers")
IMAGING = words("imaging")
APPROACHES = words("approaches")
MEASURES = words("measures")
FLUIDS = words("fluids")
SALTS = words("salts")
DOSE_FORMS = words("dose_forms")
ROUTES = words("routes")
UNITS = words("units")
UNIT_ABBR = words("unit_abbreviations")
NUMBERS = words("numbers")
MORPHOLOGIES = words("morphologies")
CELL_WORDS = words("cell_words")
CELL_PARTS = words("cell_parts")
PERSONS_CORE = words("persons_core")
ENV_WORDS = words("environment_words")
ENV_QUALS = words("environment_qualifiers")
SCALE_WORDS = words("scale_words")
EVENT_VERBS = words("event_verbs")
THERAPY_WORDS = words("therapy_words")
RELATIVES = words("relatives")
ROMAN = words("roman")
SITUATION_PREFIXES = words("situation_prefixes")
SITUATION_SUFFIXES = words("situation_suffixes")
CLAUSE_WORDS = frozenset(words("clause_words"))
FUNCTION_WORDS = frozenset(words("function_words"))
CHEMICAL_PREFIXES = words("chemical_prefixes")
# Pools used only by the templates (slot name -> words).
EXTRA_POOLS: dict[str, list[str]] = {
    "APART": words("anatomy_parts"),
    "LIQ": words("liquid_dose_forms"),
    "CELLT": words("tissue_kinds"),
}

# Word pairs of the sibling and synonym edits.
CONTRASTS = pairs("contrasts")  # one-word siblings: "Fracture of left femur" / "... right femur"
CURATED_SYNONYMS = pairs("curated_synonyms")  # beyond WordNet (US medical usage)
ABBREVIATIONS = pairs("abbreviations")  # phrase <-> acronym
SPELLINGS = pairs("spellings")  # US -> GB spelling fragments

# Name templates per semantic tag, and the optional clauses appended to a share of the names
# (SNOMED's long compositional names; the shares are calibrated so that the mean distance of random
# negatives approaches Table 2 of Schulz & Juric, FSN-SYN 37.40).
TEMPLATES = templates()
ELABORATIONS = elaborations()
