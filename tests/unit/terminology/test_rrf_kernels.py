"""The RRF reader's kernels: the C and numba implementations against each other and against Arrow,
RE2 and Python, on the reader's own entry points (pattern checks, AUI keys, code columns)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from biosem.terminology.rrf import AUI_PATTERN, columns, kernels, reader, umls

KERNELS = ["c", "numba"]
# The fixture only selects the implementation: the same for every example.
EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "c" and kernels._rrf is None:
        pytest.fail("the C extension biosem.terminology.rrf._rrf is not built (pip install -e . builds it)")
    monkeypatch.setattr(kernels, "KERNEL", request.param)
    return request.param


VALUES = st.lists(
    st.one_of(
        st.text(alphabet="AC0189/:é\x00 ", max_size=14),
        st.from_regex(r"A[0-9]{1,12}|C[0-9]{7}|[NOEY]|[0-49]", fullmatch=True),
    ),
    max_size=60,
)


@EXAMPLES
@given(values=VALUES, skip=st.integers(0, 3))
def test_pattern_kernel_is_re2(kernel: str, values: list[str], skip: int) -> None:
    array = pa.array(["A1"] * skip + values, pa.string()).slice(skip)
    for pattern in (AUI_PATTERN, "(?:A[0-9]+)?", "A[0-9]{2,5}", "[0-49]", "[NOEY]", "x[a-z0-9]", "[0-9A-F]+"):
        expected = pc.match_substring_regex(array, f"^(?:{pattern})$").to_numpy(zero_copy_only=False)
        assert reader.full_match(array, pattern).tolist() == expected.tolist(), pattern


@EXAMPLES
@given(
    digits=st.lists(st.text(alphabet="0123456789", min_size=1, max_size=10), max_size=60, unique=True),
    flags=st.lists(st.booleans(), min_size=60, max_size=60),
)
def test_aui_key_kernel_orders_as_strings(kernel: str, digits: list[str], flags: list[bool]) -> None:
    auis = pa.array([f"A{d}" for d in digits], pa.string())
    keep = pa.array(flags[: len(digits)], pa.bool_()).to_numpy(zero_copy_only=False)
    keys = umls._aui_order_keys(auis, keep)
    kept = [f"A{d}" for d, k in zip(digits, keep, strict=True) if k]
    assert keys is not None and len(keys) == len(kept)
    assert sorted(range(len(kept)), key=lambda i: keys[i]) == sorted(range(len(kept)), key=lambda i: kept[i])
    assert umls._aui_order_keys(pa.array(["A1", "A12345678901"])) is None
    assert umls._aui_order_keys(pa.array(["A1", "A12345678901"]), keep=pa.array([True, False]).to_numpy(False)) == [
        umls._aui_order_keys(pa.array(["A1"]))[0]
    ]


@EXAMPLES
@given(
    batches=st.lists(
        # Few distinct values, in runs and not: shared 8-byte prefixes (the hash's bytes), prefixes
        # of each other, "", NUL, multi-byte.
        st.lists(
            st.sampled_from(["", "ENG", "ENGX", "SNOMEDCT_US", "SNOMEDCT_VET", "\x00", "é", "MSH", "MSHPOR"]),
            max_size=30,
        ),
        max_size=5,
    ),
    skip=st.integers(0, 2),
)
def test_code_kernel_gives_codes_in_order_of_first_occurrence(kernel: str, batches: list[list[str]], skip: int) -> None:
    codes = columns.Codes()
    index: dict[str, int] = {}
    for values in batches:
        array = pa.array(["MSH"] * skip + values, pa.string()).slice(skip)
        assert codes.encode(array).tolist() == [index.setdefault(v, len(index)) for v in values]
        assert codes.values() == list(index) and len(codes) == len(index)


def test_code_kernel_beyond_its_first_store_and_past_its_limit(kernel: str) -> None:
    """Many distinct values sharing their first 8 bytes and their length,
    a store grown across batches, and the uint16 limit."""
    codes = columns.Codes()
    values = [f"SHARED8_{i:05d}" for i in range(columns.MAX_CODES)]
    for lo in range(0, len(values), 20_000):
        part = values[lo : lo + 20_000]
        assert codes.encode(pa.array(part + part[::-1])).tolist() == [
            *range(lo, lo + len(part)),
            *range(lo + len(part) - 1, lo - 1, -1),
        ]
    assert codes.values() == values
    with pytest.raises(ValueError, match="more than 65535 distinct values"):
        codes.encode(pa.array(["one more"]))


@EXAMPLES
@given(
    values=st.lists(st.sampled_from(["", "N", "NN", "P", "PF", "P\x00", "PFX", "é", "NOCODE", "NOCODEX"])),
    skip=st.integers(0, 2),
)
def test_equals_kernel(kernel: str, values: list[str], skip: int) -> None:
    array = pa.array(["PF"] * skip + values, pa.string()).slice(skip)
    for text in ("", "N", "PF", "NOCODE", "é"):
        assert reader.equals(array, text.encode()).tolist() == [v == text for v in values]


@EXAMPLES
@given(
    parts=st.lists(
        st.tuples(
            st.lists(st.text(alphabet="ab\x00é", max_size=6), max_size=12), st.integers(0, 2**12 - 1), st.booleans()
        ),
        max_size=5,
    ),
    skip=st.integers(0, 2),
)
def test_gathered_strings_are_arrows_filter(kernel: str, parts: list[tuple[list[str], int, bool]], skip: int) -> None:
    """The kept rows of each part (all of a part for None), as one array: Arrow's filter and concat."""
    given_parts, expected = [], []
    for values, bits, every in parts:
        array = pa.array(["pad"] * skip + values, pa.string()).slice(skip)
        keep = pa.array([bool(bits >> i & 1) for i in range(len(values))], pa.bool_())
        rows = None if every else np.flatnonzero(keep.to_numpy(zero_copy_only=False))
        given_parts.append((array, rows))
        expected.append(array if every else array.filter(keep))
    gathered = columns.gather(Path("MRCONSO.RRF"), "STR", given_parts)
    gathered.validate(full=True)
    assert gathered.equals(pa.concat_arrays([pa.array([], pa.string()), *expected]))
    assert given_parts == []  # each part released once copied


def test_gather_kernel_refuses_a_short_output(kernel: str) -> None:
    offsets, data = reader.string_buffers(pa.array(["abc", "de"]))
    with pytest.raises(ValueError, match="too short"):
        kernels.gather_strings(offsets, data, None, 0, np.zeros(3, np.int32), np.zeros(4, np.uint8))
