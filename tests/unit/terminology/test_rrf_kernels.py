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


def _reference_split(data: bytes, n_fields: int, wanted: list[int]) -> tuple[int, list[list[tuple[int, int]]]]:
    """What split_fields computes, line by line in Python: (lines or -1 - bad line, spans per wanted field)."""
    spans: list[list[tuple[int, int]]] = [[] for _ in wanted]
    at = 0
    lines = data.split(b"\n")
    for i, line in enumerate(lines[:-1]):
        pieces = line.split(b"|")
        if b"\r" in line or len(pieces) != n_fields + 1 or pieces[-1]:
            return -1 - i, spans
        starts = np.cumsum([0, *(len(p) + 1 for p in pieces[:-1])])
        for j, f in enumerate(wanted):
            spans[j].append((at + int(starts[f]), at + int(starts[f]) + len(pieces[f])))
        at += len(line) + 1
    return (len(lines) - 1, spans) if not lines[-1] else (-len(lines), spans)


@EXAMPLES
@given(
    rows=st.lists(
        st.lists(st.text(alphabet="ab|\r\né\x00" + "x" * 6, max_size=9), min_size=2, max_size=5), max_size=40
    ),
    n_fields=st.integers(3, 4),
    wanted=st.sets(st.integers(0, 3), min_size=1),
    final_newline=st.booleans(),
)
def test_split_kernel_is_pythons_split(
    kernel: str, rows: list[list[str]], n_fields: int, wanted: set[int], final_newline: bool
) -> None:
    """Regular lines (n fields, each ended by '|', no '\\r') give their fields' spans; the first other
    line (field count, empty line, '\\r', a last line without newline) gives -1 - its index. Lines of
    more than 64 bytes cross the C kernel's 64-byte steps."""
    fields = sorted(f for f in wanted if f < n_fields) or [0]
    text = "".join(
        "|".join(row) + "|" + ("\n" if final_newline or i < len(rows) - 1 else "") for i, row in enumerate(rows)
    )
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    slot = np.full(n_fields, -1, dtype=np.int32)
    slot[fields] = np.arange(len(fields), dtype=np.int32)
    lines = kernels.count_lines(data)
    assert lines == text.encode().count(b"\n")
    starts = np.full((len(fields), lines), -1, dtype=np.int32)
    ends = starts.copy()
    got = kernels.split_fields(data, n_fields, slot, starts, ends)
    expected, spans = _reference_split(text.encode(), n_fields, fields)
    assert got == expected
    done = got if got >= 0 else -1 - got
    for j in range(len(fields)):
        assert list(zip(starts[j, :done].tolist(), ends[j, :done].tolist(), strict=True)) == spans[j][:done]


def test_split_kernel_on_real_rows(kernel: str) -> None:
    """MRCONSO rows of every length around the 64-byte steps, and a stray '|' in the last field."""
    rows = [f"C{i:07d}|ENG|P|L{i:07d}|PF|S{i:07d}|Y|A{i:07d}||||MSH|PT|D{i:06d}|{'x' * i}|0|N||" for i in range(150)]
    data = np.frombuffer(("\n".join(rows) + "\n").encode(), dtype=np.uint8)
    slot = np.full(18, -1, dtype=np.int32)
    slot[[0, 14]] = [0, 1]
    starts, ends = np.zeros((2, 150), np.int32), np.zeros((2, 150), np.int32)
    assert kernels.split_fields(data, 18, slot, starts, ends) == 150
    raw = data.tobytes()
    assert [raw[a:b].decode() for a, b in zip(starts[1], ends[1], strict=True)] == ["x" * i for i in range(150)]
    assert [raw[a:b].decode() for a, b in zip(starts[0], ends[0], strict=True)] == [f"C{i:07d}" for i in range(150)]
    stray = rows[:99] + [rows[99].replace("|0|N||", "|0|N|x||")] + rows[100:]
    data = np.frombuffer(("\n".join(stray) + "\n").encode(), dtype=np.uint8)
    assert kernels.split_fields(data, 18, slot, starts, ends) == -100


UTF8_CASES = [
    b"", b"ascii only, long enough for a word", b"caf\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
    b"\xf4\x8f\xbf\xbf",
    b"\xff", b"\xc3", b"\xc3(", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\x80", b"abcdefgh\xc3\xa9", b"abcdefg\xc3", b"\xe2\x82", b"\xf0\x9f\x98",
]  # fmt: skip


def _valid(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@EXAMPLES
@given(values=st.lists(st.one_of(st.sampled_from(UTF8_CASES), st.binary(max_size=12)), max_size=30))
def test_gather_spans_checks_utf8_as_python(kernel: str, values: list[bytes]) -> None:
    """Values are gathered from a block (between '|'s) and each checked as Python's UTF-8 codec does
    (no overlong forms, surrogates or code points past U+10FFFF); the first invalid one is reported."""
    block = b"|".join([b"", *values, b""])
    ends = np.cumsum([len(v) + 1 for v in values], dtype=np.int64).astype(np.int32)
    starts = (ends - np.array([len(v) for v in values], dtype=np.int32)).astype(np.int32)
    got = kernels.gather_spans(np.frombuffer(block, np.uint8), starts, ends)
    bad = [i for i, v in enumerate(values) if not _valid(v)]
    assert kernels.is_utf8(np.frombuffer(block, np.uint8)) == (not bad) == _valid(block)
    unchecked = kernels.gather_spans(np.frombuffer(block, np.uint8), starts, ends, check=False)
    assert b"".join(values) == unchecked[1].tobytes()
    if bad:
        assert got == bad[0]
    else:
        offsets, data = got
        assert pa.Array.from_buffers(
            pa.string(), len(values), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
        ).equals(pa.array([v.decode() for v in values], pa.string()))
    codes = columns.Codes()
    codes.encode_spans(np.frombuffer(block, np.uint8), starts, ends)
    distinct = list(dict.fromkeys(values))
    assert codes.first_invalid() == next((c for c, v in enumerate(distinct) if not _valid(v)), -1)


@EXAMPLES
@given(values=st.lists(st.text(alphabet="D0129é", max_size=10), max_size=80), skip=st.integers(0, 2))
def test_wide_dictionary_is_arrows_dictionary_encode(kernel: str, values: list[str], skip: int) -> None:
    """The int32 codes of a column of many values (CODE) and its dictionary, as Arrow's."""
    array = pa.array(["pad"] * skip + values, pa.string()).slice(skip)
    indices, dictionary = columns.dictionary_encode(array)
    expected = pc.dictionary_encode(array)
    assert indices.dtype == np.int32 and indices.tolist() == expected.indices.to_pylist()
    assert dictionary.equals(expected.dictionary)


def test_wide_dictionary_past_the_uint16_codes(kernel: str) -> None:
    values = pa.array([f"D{i:06d}" for i in range(70_000)] * 2)
    indices, dictionary = columns.dictionary_encode(values)
    assert len(dictionary) == 70_000 and indices.tolist() == [*range(70_000)] * 2
