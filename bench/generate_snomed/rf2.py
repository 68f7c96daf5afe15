"""RF2 layout and identifiers of the synthetic SNOMED CT release.

What is fixed rather than drawn: the release date and file names of an RF2 Snapshot (INT 2019-01-31),
the metadata concept ids the rows refer to (modules, description types, refsets, characteristic and
modifier types, attributes), the fixed concepts (root, top-level hierarchies, attributes and metadata),
the semantic tags with their share of active concepts, and the weighted effectiveTime dates. The
identifier functions draw SCTIDs (item id + partition + Verhoeff check digit) and derive refset member
UUIDs (version 5, from the refset and referenced components).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable

import numpy as np

RELEASE = "20190131"

# ---------------------------------------------------------------------------------------------------
# RF2 constants
# ---------------------------------------------------------------------------------------------------
CORE_MODULE = "900000000000207008"
MODEL_MODULE = "900000000000012004"
FSN_TYPE = "900000000000003001"
SYN_TYPE = "900000000000013009"
US_LANG_REFSET = "900000000000509007"
PREFERRED = "900000000000548007"
ACCEPTABLE = "900000000000549004"
POSSIBLY_EQUIVALENT_TO = "900000000000523009"
REPLACED_BY = "900000000000526001"
SAME_AS = "900000000000527005"
PRIMITIVE = "900000000000074008"
DEFINED = "900000000000073002"
CASE_INSENSITIVE = "900000000000448009"
CASE_SENSITIVE = "900000000000017005"
INITIAL_INSENSITIVE = "900000000000020002"
INFERRED = "900000000000011006"
EXISTENTIAL = "900000000000451002"
IS_A = "116680003"
FINDING_SITE = "363698007"
ASSOCIATED_MORPHOLOGY = "116676008"
CAUSATIVE_AGENT = "246075003"
PROCEDURE_SITE_DIRECT = "405813007"
METHOD = "260686004"
HAS_ACTIVE_INGREDIENT = "127489000"
HAS_DOSE_FORM = "411116001"
COMPONENT = "246093002"

HEADERS = {
    "concept": "id\teffectiveTime\tactive\tmoduleId\tdefinitionStatusId",
    "description": "id\teffectiveTime\tactive\tmoduleId\tconceptId\tlanguageCode\ttypeId\tterm\tcaseSignificanceId",
    "relationship": "id\teffectiveTime\tactive\tmoduleId\tsourceId\tdestinationId\trelationshipGroup"
    "\ttypeId\tcharacteristicTypeId\tmodifierId",
    "language": "id\teffectiveTime\tactive\tmoduleId\trefsetId\treferencedComponentId\tacceptabilityId",
    "association": "id\teffectiveTime\tactive\tmoduleId\trefsetId\treferencedComponentId\ttargetComponentId",
}

RELATIVE_PATHS = {
    "concept": f"Snapshot/Terminology/sct2_Concept_Snapshot_INT_{RELEASE}.txt",
    "description": f"Snapshot/Terminology/sct2_Description_Snapshot-en_INT_{RELEASE}.txt",
    "relationship": f"Snapshot/Terminology/sct2_Relationship_Snapshot_INT_{RELEASE}.txt",
    "language": f"Snapshot/Refset/Language/der2_cRefset_LanguageSnapshot-en_INT_{RELEASE}.txt",
    "association": f"Snapshot/Refset/Content/der2_cRefset_AssociationSnapshot_INT_{RELEASE}.txt",
}

# Association kinds in the proportion of the paper's positives (57,528 / 7,082 / 20,324).
ASSOCIATION_KINDS = (
    ("possibly_equivalent_to", POSSIBLY_EQUIVALENT_TO, 57_528),
    ("replaced_by", REPLACED_BY, 7_082),
    ("same_as", SAME_AS, 20_324),
)

# Release dates (effectiveTime) with weights: most content dates from the first SNOMED CT release.
RELEASE_DATES = [f"{y}{md}" for y in range(2002, 2019) for md in ("0131", "0731")] + [RELEASE]
_RD_WEIGHTS = np.array([30.0] + [1.0] * (len(RELEASE_DATES) - 2) + [2.0])
RELEASE_DATE_P = _RD_WEIGHTS / _RD_WEIGHTS.sum()

UUID_NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")  # RFC 4122 URL namespace

# ---------------------------------------------------------------------------------------------------
# Fixed concepts: root, top-level hierarchies, attributes and the metadata the release refers to.
# (id, FSN, module, parent id or "" for the root)
# ---------------------------------------------------------------------------------------------------
ROOT = "138875005"
MODEL_COMPONENT = "900000000000441003"
FIXED_CONCEPTS: tuple[tuple[str, str, str, str], ...] = (
    (ROOT, "SNOMED CT Concept (SNOMED RT+CTV3)", CORE_MODULE, ""),
    ("404684003", "Clinical finding (finding)", CORE_MODULE, ROOT),
    ("64572001", "Disease (disorder)", CORE_MODULE, "404684003"),
    ("71388002", "Procedure (procedure)", CORE_MODULE, ROOT),
    ("123037004", "Body structure (body structure)", CORE_MODULE, ROOT),
    ("49755003", "Morphologically abnormal structure (morphologic abnormality)", CORE_MODULE, "123037004"),
    ("410607006", "Organism (organism)", CORE_MODULE, ROOT),
    ("105590001", "Substance (substance)", CORE_MODULE, ROOT),
    ("373873005", "Pharmaceutical / biologic product (product)", CORE_MODULE, ROOT),
    ("362981000", "Qualifier value (qualifier value)", CORE_MODULE, ROOT),
    ("363787002", "Observable entity (observable entity)", CORE_MODULE, ROOT),
    ("243796009", "Situation with explicit context (situation)", CORE_MODULE, ROOT),
    ("272379006", "Event (event)", CORE_MODULE, ROOT),
    ("260787004", "Physical object (physical object)", CORE_MODULE, ROOT),
    ("123038009", "Specimen (specimen)", CORE_MODULE, ROOT),
    ("308916002", "Environment or geographical location (environment / location)", CORE_MODULE, ROOT),
    ("48176007", "Social context (social concept)", CORE_MODULE, ROOT),
    ("254291000", "Staging and scales (staging scale)", CORE_MODULE, ROOT),
    ("419891008", "Record artifact (record artifact)", CORE_MODULE, ROOT),
    ("78621006", "Physical force (physical force)", CORE_MODULE, ROOT),
    ("370115009", "Special concept (special concept)", CORE_MODULE, ROOT),
    ("363743006", "Navigational concept (navigational concept)", CORE_MODULE, "370115009"),
    ("410662002", "Concept model attribute (attribute)", CORE_MODULE, MODEL_COMPONENT),
    (IS_A, "Is a (attribute)", CORE_MODULE, "410662002"),
    (FINDING_SITE, "Finding site (attribute)", CORE_MODULE, "410662002"),
    (ASSOCIATED_MORPHOLOGY, "Associated morphology (attribute)", CORE_MODULE, "410662002"),
    (CAUSATIVE_AGENT, "Causative agent (attribute)", CORE_MODULE, "410662002"),
    (PROCEDURE_SITE_DIRECT, "Procedure site - Direct (attribute)", CORE_MODULE, "410662002"),
    (METHOD, "Method (attribute)", CORE_MODULE, "410662002"),
    (HAS_ACTIVE_INGREDIENT, "Has active ingredient (attribute)", CORE_MODULE, "410662002"),
    (HAS_DOSE_FORM, "Has manufactured dose form (attribute)", CORE_MODULE, "410662002"),
    (COMPONENT, "Component (attribute)", CORE_MODULE, "410662002"),
    (MODEL_COMPONENT, "SNOMED CT Model Component (metadata)", MODEL_MODULE, ROOT),
    (CORE_MODULE, "SNOMED CT core module (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (MODEL_MODULE, "SNOMED CT model component module (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (FSN_TYPE, "Fully specified name (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (SYN_TYPE, "Synonym (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (
        PRIMITIVE,
        ("Not sufficiently defined by necessary conditions definition status (core metadata concept)"),
        MODEL_MODULE,
        MODEL_COMPONENT,
    ),
    (
        DEFINED,
        ("Sufficiently defined by necessary conditions definition status (core metadata concept)"),
        MODEL_MODULE,
        MODEL_COMPONENT,
    ),
    (CASE_INSENSITIVE, "Entire term case insensitive (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (CASE_SENSITIVE, "Entire term case sensitive (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (
        INITIAL_INSENSITIVE,
        "Only initial character case insensitive (core metadata concept)",
        MODEL_MODULE,
        MODEL_COMPONENT,
    ),
    (INFERRED, "Inferred relationship (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (EXISTENTIAL, "Existential restriction modifier (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (
        US_LANG_REFSET,
        ("United States of America English language reference set (foundation metadata concept)"),
        MODEL_MODULE,
        MODEL_COMPONENT,
    ),
    (PREFERRED, "Preferred (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (ACCEPTABLE, "Acceptable (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (
        POSSIBLY_EQUIVALENT_TO,
        ("POSSIBLY EQUIVALENT TO association reference set (foundation metadata concept)"),
        MODEL_MODULE,
        MODEL_COMPONENT,
    ),
    (REPLACED_BY, "REPLACED BY association reference set (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (SAME_AS, "SAME AS association reference set (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
)

# ---------------------------------------------------------------------------------------------------
# Semantic tags: share of active concepts (SNOMED CT INT 2019-01, approximately), top concept, module.
# ---------------------------------------------------------------------------------------------------
TAGS: tuple[tuple[str, float, str], ...] = (
    ("disorder", 21.0, "64572001"),
    ("finding", 10.5, "404684003"),
    ("procedure", 16.5, "71388002"),
    ("body structure", 9.6, "123037004"),
    ("organism", 9.4, "410607006"),
    ("substance", 7.3, "105590001"),
    ("product", 1.0, "373873005"),
    ("medicinal product", 2.6, "373873005"),
    ("medicinal product form", 1.2, "373873005"),
    ("clinical drug", 2.0, "373873005"),
    ("qualifier value", 2.7, "362981000"),
    ("observable entity", 2.5, "363787002"),
    ("situation", 1.1, "243796009"),
    ("event", 1.1, "272379006"),
    ("physical object", 1.3, "260787004"),
    ("morphologic abnormality", 1.4, "49755003"),
    ("regime/therapy", 0.7, "71388002"),
    ("occupation", 0.35, "48176007"),
    ("person", 0.1, "48176007"),
    ("environment", 0.35, "308916002"),
    ("geographic location", 0.1, "308916002"),
    ("specimen", 0.45, "123038009"),
    ("assessment scale", 0.4, "254291000"),
    ("staging scale", 0.05, "254291000"),
    ("tumor staging", 0.05, "254291000"),
    ("record artifact", 0.1, "419891008"),
    ("cell", 0.2, "123037004"),
    ("cell structure", 0.1, "123037004"),
    ("social concept", 0.1, "48176007"),
    ("ethnic group", 0.1, "48176007"),
    ("religion/philosophy", 0.03, "48176007"),
    ("navigational concept", 0.2, "363743006"),
    ("physical force", 0.05, "78621006"),
    ("disposition", 0.1, "362981000"),
    ("dose form", 0.15, "373873005"),
    ("basic dose form", 0.03, "373873005"),
    ("unit of presentation", 0.02, "373873005"),
    ("attribute", 0.3, "410662002"),
    ("core metadata concept", 0.1, MODEL_COMPONENT),
    ("foundation metadata concept", 0.3, MODEL_COMPONENT),
    ("linkage concept", 0.05, MODEL_COMPONENT),
)
MODEL_TAGS = frozenset({"core metadata concept", "foundation metadata concept", "linkage concept"})


# ---------------------------------------------------------------------------------------------------
# Identifiers
# ---------------------------------------------------------------------------------------------------
_VERHOEFF_D = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ],
    dtype=np.int64,
)
_VERHOEFF_P = np.array(
    [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ],
    dtype=np.int64,
)
_VERHOEFF_INV = np.array([0, 4, 3, 2, 1, 5, 6, 7, 8, 9], dtype=np.int64)


def verhoeff_append(stems: np.ndarray) -> np.ndarray:
    """Append the Verhoeff check digit (SNOMED CT SCTID rule) to each stem (item id + partition)."""
    x = np.asarray(stems, dtype=np.int64).copy()
    c = np.zeros(len(x), dtype=np.int64)
    pos = 1
    while (x > 0).any():
        live = x > 0
        d = x % 10
        c[live] = _VERHOEFF_D[c[live], _VERHOEFF_P[pos % 8, d[live]]]
        x //= 10
        pos += 1
    return np.asarray(stems, dtype=np.int64) * 10 + _VERHOEFF_INV[c]


def verhoeff_valid(sctid: str) -> bool:
    """Whether the last digit of ``sctid`` is its Verhoeff check digit."""
    c = 0
    for i, ch in enumerate(reversed(sctid)):
        c = int(_VERHOEFF_D[c, _VERHOEFF_P[i % 8, int(ch)]])
    return c == 0


def sctids(
    rng: np.random.Generator, n: int, partition: int, lo: int, hi: int, reserved: Iterable[int] = ()
) -> np.ndarray:
    """``n`` distinct random SCTIDs with the given partition (2 digits) and a valid check digit.

    Item ids are drawn uniformly from ``[lo, hi)`` without the ``reserved`` ones, in random order.
    """
    taken = np.array(sorted(set(reserved)), dtype=np.int64)
    items = np.empty(0, dtype=np.int64)
    want = n
    while len(items) < n:
        draw = rng.integers(lo, hi, size=int(want * 1.05) + 64, dtype=np.int64)
        items = np.unique(np.concatenate([items, draw]))
        items = items[~np.isin(items, taken)]
        want = n - len(items) + 64
    items = rng.permutation(items)[:n]
    return verhoeff_append(items * 100 + partition)


_UUID_NS_BYTES = UUID_NAMESPACE.bytes


def member_uuid(*parts: str) -> str:
    """A refset member id: ``str(uuid.uuid5(UUID_NAMESPACE, "|".join(parts)))``, computed without
    building the UUID object."""
    h = bytearray(hashlib.sha1(_UUID_NS_BYTES + "|".join(parts).encode("utf-8")).digest()[:16])
    h[6] = (h[6] & 0x0F) | 0x50
    h[8] = (h[8] & 0x3F) | 0x80
    x = h.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


def draw_dates(rng: np.random.Generator, n: int, *, start: int = 0) -> np.ndarray:
    """``n`` effectiveTime dates (as int YYYYMMDD) drawn with the release-date weights, from the
    ``start``-th release date on."""
    dates = np.array([int(d) for d in RELEASE_DATES], dtype=np.int64)
    p = RELEASE_DATE_P[start:] / RELEASE_DATE_P[start:].sum()
    return dates[start:][rng.choice(len(dates) - start, size=n, p=p)]
