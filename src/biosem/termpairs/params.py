"""Construction parameters of the term-pair datasets (config ``termpairs``; DESIGN.md § termpairs)."""

from __future__ import annotations

from dataclasses import dataclass, field

MODEL_COMPONENT_MODULE = "900000000000012004"
"""SNOMED CT model component module, excluded by default (:attr:`TermPairParams.exclude_modules`)."""
RANDOM_ROUNDS = 30
"""Rounds of redraws of a random negative before drawing from every valid term
(:func:`biosem.termpairs.negatives.sample_random_negatives`); config ``termpairs.random_rounds``."""


@dataclass(frozen=True)
class TermPairParams:
    """Construction parameters (config ``termpairs``; defaults = Schulz & Juric 2020)."""

    easy_max_distance: int = 5
    exclude_modules: tuple[str, ...] = (MODEL_COMPONENT_MODULE,)
    synonym_term_types: tuple[str, ...] = ("preferred", "synonym", "abbreviation")
    synonym_scopes: tuple[str, ...] | None = ("EXACT",)
    languages: tuple[str, ...] | None = ("en",)
    require_active_target: bool = True
    drop_associations_in_syn_syn: bool = True
    strip_prefixes: tuple[str, ...] = ("obsolete ",)
    random_rounds: int = RANDOM_ROUNDS
    extra: dict[str, object] = field(default_factory=dict)


def params_from_config(cfg: dict[str, object]) -> TermPairParams:
    """Build :class:`TermPairParams` from the ``termpairs`` config section (unknown keys ignored)."""

    def tup(key: str, default: tuple[str, ...] | None) -> tuple[str, ...] | None:
        value = cfg.get(key, default)
        return None if value is None else tuple(value)  # type: ignore[arg-type]

    d = TermPairParams()
    return TermPairParams(
        easy_max_distance=int(cfg.get("easy_max_distance", d.easy_max_distance)),  # type: ignore[arg-type]
        exclude_modules=tup("exclude_modules", d.exclude_modules) or (),
        synonym_term_types=tup("synonym_term_types", d.synonym_term_types) or (),
        synonym_scopes=tup("synonym_scopes", d.synonym_scopes),
        languages=tup("languages", d.languages),
        require_active_target=bool(cfg.get("require_active_target", d.require_active_target)),
        drop_associations_in_syn_syn=bool(cfg.get("drop_associations_in_syn_syn", d.drop_associations_in_syn_syn)),
        strip_prefixes=tup("strip_prefixes", d.strip_prefixes) or (),
        random_rounds=int(cfg.get("random_rounds", d.random_rounds)),  # type: ignore[arg-type]
    )
