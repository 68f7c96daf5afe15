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

CONCEPT_GROUPINGS: dict[str, dict[str, str]] = {"descriptor": {"mesh": "module"}}
"""Groupings of concepts whose terms are never negatives of one another (config
``termpairs.exclude_same_group``): grouping -> terminology format -> the ``concepts`` column holding
a concept's group. ``descriptor``: a MeSH concept's descriptor (or supplementary record), which the
MeSH adapter writes to ``concepts.module`` (:mod:`biosem.terminology.mesh`). Other formats have no
such grouping: the setting leaves them unchanged."""


@dataclass(frozen=True)
class ExclusionParams:
    """What a negative may not be beyond the similarity component of its first term (config
    ``termpairs``; issue 37, docs/design.md § Validity). Schulz & Juric exclude only terms similar
    directly or indirectly (:func:`biosem.termpairs.positives.similarity_components`); the
    ``medisim-2020`` preset switches both settings off.

    Attributes:
        exclude_surface_variants: terms with equal surface keys (:mod:`biosem.surface`: NFKC, case,
            hyphens and spaces, apostrophe-s, British spelling, plurals) are one node of the
            similarity graph, so that no negative is a surface variant of a term similar to its first term.
        exclude_same_group: a grouping of :data:`CONCEPT_GROUPINGS` (``descriptor``) whose concepts'
            terms are joined in the similarity graph, as an association joins two concepts; None: none.
    """

    exclude_surface_variants: bool = True
    exclude_same_group: str | None = "descriptor"

    def __post_init__(self) -> None:
        if self.exclude_same_group is not None and self.exclude_same_group not in CONCEPT_GROUPINGS:
            raise ValueError(
                f"termpairs.exclude_same_group: {self.exclude_same_group!r} is not one of "
                f"{', '.join(sorted(CONCEPT_GROUPINGS))} (or null)"
            )


def exclusion_from_config(cfg: Mapping[str, object]) -> ExclusionParams:
    """:class:`ExclusionParams` from the ``termpairs`` config section (or a rule's params holding
    :data:`EXCLUSION_KEYS`).

    Raises:
        KeyError: a key of :data:`EXCLUSION_KEYS` is missing from ``cfg``.
        ValueError: an unknown grouping.
    """
    group = cfg["exclude_same_group"]
    return ExclusionParams(
        exclude_surface_variants=bool(cfg["exclude_surface_variants"]),
        exclude_same_group=None if group is None else str(group),
    )


EXCLUSION_KEYS = tuple(f.name for f in fields(ExclusionParams))
"""The ``termpairs`` config keys that shape the similarity components beyond the positives."""
