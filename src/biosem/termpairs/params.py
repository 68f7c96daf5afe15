"""Construction parameters of the term-pair datasets (config ``termpairs``; docs/design.md § termpairs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

MODEL_COMPONENT_MODULE = "900000000000012004"
"""SNOMED CT model component module, excluded by default (:attr:`TermPairParams.exclude_modules`)."""
RANDOM_ROUNDS = 30
"""Rounds of redraws of a random negative before drawing from every valid term
(:func:`biosem.termpairs.negatives.sample_random_negatives`); config ``termpairs.random_rounds``."""


@dataclass(frozen=True)
class TermPairParams:
    """Parameters of the positives and head terms (config ``termpairs``; defaults = Schulz & Juric
    2020). The negatives' ``random_rounds`` is passed to them on its own."""

    easy_max_distance: int = 5
    exclude_modules: tuple[str, ...] = (MODEL_COMPONENT_MODULE,)
    synonym_term_types: tuple[str, ...] = ("preferred", "synonym", "abbreviation")
    synonym_scopes: tuple[str, ...] | None = ("EXACT",)
    languages: tuple[str, ...] | None = ("en",)
    require_active_target: bool = True
    drop_associations_in_syn_syn: bool = True
    strip_prefixes: tuple[str, ...] = ("obsolete ",)


def params_from_config(cfg: Mapping[str, object]) -> TermPairParams:
    """Build :class:`TermPairParams` from the ``termpairs`` config section as validated by
    ``workflow/schemas/config.schema.yaml`` (every key of :data:`CONSTRUCTION_KEYS` present: the
    schema holds the defaults, equal to the dataclass defaults; other keys ignored).

    Raises:
        KeyError: a construction key is missing from ``cfg``.
    """

    def tup(key: str) -> tuple[str, ...] | None:
        value = cfg[key]
        return None if value is None else tuple(value)  # type: ignore[arg-type]

    return TermPairParams(
        easy_max_distance=int(cfg["easy_max_distance"]),  # type: ignore[call-overload]
        exclude_modules=tup("exclude_modules") or (),
        synonym_term_types=tup("synonym_term_types") or (),
        synonym_scopes=tup("synonym_scopes"),
        languages=tup("languages"),
        require_active_target=bool(cfg["require_active_target"]),
        drop_associations_in_syn_syn=bool(cfg["drop_associations_in_syn_syn"]),
        strip_prefixes=tup("strip_prefixes") or (),
    )


CONSTRUCTION_KEYS = tuple(f.name for f in fields(TermPairParams))
"""The ``termpairs`` config keys that shape the positives and head terms (a rule's params)."""
