"""The full-release path of the UMLS adapter: ``write_rrf`` (streamed, bounded memory) gives the files of
``write_terminology(read_rrf(...))``; the compact keys it sorts on order like the strings; the
threaded parse falls back to a serial one for short rows without repeating rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from conftest import SHARED_DATA
from hypothesis import given, settings
from hypothesis import strategies as st

import biosem.io
from biosem.errors import SourceFormatError
from biosem.io import write_table
from biosem.terminology.rrf import MRCONSO_COLUMNS, columns, iter_rrf, read_rrf, umls, write_rrf
from biosem.terminology.rrf import terms as rrf_terms
from biosem.terminology.schemas import TERMINOLOGY_TABLES
from biosem.terminology.write import write_terminology

SAMPLES = SHARED_DATA / "umls-rrf-samples"


def conso(cui: int, aui: str, string: str, **kw: str) -> str:
    f = {"lat": "ENG", "ts": "P", "stt": "PF", "ispref": "Y", "sab": "MSH", "tty": "MH"} | kw
    fields = [f"C{cui:07d}", f["lat"], f["ts"], "L0000001", f["stt"], "S0000001", f["ispref"], aui]
    fields += ["", "", "", f["sab"], f["tty"], f.get("code", f"D{cui:06d}"), string, "0", "N", ""]
    return "|".join(fields) + "|"


def rel(cui1: int, rel_: str, cui2: int, rela: str = "", sab: str = "MSH") -> str:
    fields = [f"C{cui1:07d}", "", "CUI", rel_, f"C{cui2:07d}", "", "CUI", rela, "R1", "", sab]
    return "|".join([*fields, sab, "", "", "N", ""]) + "|"


def write_meta(directory: Path, **files: list[str]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, lines in files.items():
        (directory / f"{name}.RRF").write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    return directory


def outputs(folder: Path) -> dict[str, Path]:
    return {t: folder / f"{t}.parquet" for t in TERMINOLOGY_TABLES}


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """Ties and orders that the compact keys must get right: AUIs of different lengths, a CUI
    whose best atom is not its first, codes repeated and shared, RELA and SAB empty, repeats."""
    lines = [
        conso(3, "A120", "gamma", ts="S"),
        conso(3, "A13", "Gamma", ispref="N"),
        conso(3, "A12", "GAMMA", ts="S", stt="VC", code="NOCODE", sab="MTH"),
        conso(1, "A9", "alpha", tty="AB"),
        conso(1, "A10", "Alpha"),
        conso(2, "A0000002", "beta", code="D1.5", sab="ICD10CM"),
        conso(2, "A00000021", "beta (disorder)", code="D1.5", sab="ICD10CM"),
        conso(4, "A4", "delta", lat="FRE"),
        conso(5, "A5", "epsilon", code=""),
    ]
    relations = [
        rel(1, "PAR", 2, "inverse_isa"),
        rel(2, "CHD", 1, "isa"),
        rel(2, "CHD", 1, "isa"),  # repeat
        rel(1, "RO", 3),
        rel(1, "RO", 3, sab=""),
        rel(3, "RO", 1, "has_finding_site", sab="SNOMEDCT_US"),
        rel(1, "SY", 1),
        rel(9_999_999, "RB", 5),
    ]
    sty = ["C0000001|T047|B2.2.1.2.1|Disease|AT1||", "C0000001|T033|A2.2|Finding|AT2||"]
    return write_meta(tmp_path / "META", MRCONSO=lines, MRREL=relations, MRSTY=sty)


def assert_same_files(a: dict[str, Path], b: dict[str, Path]) -> None:
    for name in TERMINOLOGY_TABLES:
        assert a[name].read_bytes() == b[name].read_bytes(), name


@pytest.mark.parametrize("languages", [("ENG",), None])
def test_write_rrf_gives_the_files_of_write_terminology(release: Path, tmp_path: Path, languages) -> None:
    tables = read_rrf(release, "umls", languages=languages)
    a, b = outputs(tmp_path / "a"), outputs(tmp_path / "b")
    counts = write_terminology(tables, {k: str(v) for k, v in a.items()}, "umls")
    assert write_rrf(release, "umls", b, languages=languages) == counts
    assert_same_files(a, b)
    terms = {t["term_id"]: t["term_type"] for t in tables["terms"].to_pylist()}
    assert terms["A10"] == "preferred" and terms["A9"] == "abbreviation"  # TS/STT/ISPREF, then AUI
    assert terms["A13"] == "preferred"  # C3: the only TS=P atom
    assert [t["term_id"] for t in tables["terms"].to_pylist()][:2] == ["A10", "A9"]  # string order
    modules = {c["concept_id"]: c["module"] for c in tables["concepts"].to_pylist()}
    assert modules["C0000001"] == "T033" and modules["C0000002"] is None
    got = [(r["subject_id"], r["rel"], r["rela"], r["object_id"], r["sab"]) for r in tables["relations"].to_pylist()]
    assert got == sorted(got, key=lambda r: tuple((x is None, x or "") for x in r))
    assert ("C0000003", "RO", None, "C0000001", None) in got and len(got) == 7


@pytest.mark.parametrize("sample", ["cumulus-library-umls_2000AA", "scispacy_umls_META"])
def test_write_rrf_on_the_samples(sample: str, tmp_path: Path) -> None:
    meta, nullcols = SAMPLES / sample, sample.startswith("cumulus")  # cumulus: "trailing nullcols" rows
    if sample.startswith("scispacy"):  # a copy with the final newlines its files lack
        meta = tmp_path / "meta"
        meta.mkdir()
        for path in (SAMPLES / sample).glob("*.RRF"):
            data = path.read_bytes()
            (meta / path.name).write_bytes(data if data.endswith(b"\n") else data + b"\n")
    a, b = outputs(tmp_path / "a"), outputs(tmp_path / "b")
    tables = read_rrf(meta, "umls", trailing_nullcols=nullcols)
    write_terminology(tables, {k: str(v) for k, v in a.items()}, "umls")
    write_rrf(meta, "umls", b, trailing_nullcols=nullcols)
    assert_same_files(a, b)


def test_chunks_are_row_groups(release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With row groups of 2 rows, write_rrf's files equal write_table's, and read back as its tables."""
    tables = read_rrf(release, "umls", languages=None)
    monkeypatch.setattr(umls, "_ROW_GROUP", 2)
    monkeypatch.setattr(biosem.io, "ROW_GROUP", 2)
    assert all(t.equals(tables[n]) for n, t in read_rrf(release, "umls", languages=None).items())
    out = outputs(tmp_path / "small")
    write_rrf(release, "umls", out, languages=None)
    for name, table in tables.items():
        expected = tmp_path / f"{name}.expected.parquet"
        write_table(table, expected, TERMINOLOGY_TABLES[name])
        assert out[name].read_bytes() == expected.read_bytes(), name
        assert pq.read_table(out[name]).equals(table), name
        assert pq.read_metadata(out[name]).num_row_groups == max(1, -(-table.num_rows // 2))


def test_write_rrf_leaves_nothing_on_error(release: Path, tmp_path: Path) -> None:
    with open(release / "MRREL.RRF", "a", encoding="utf-8") as handle:
        handle.write(rel(1, "RO", 2).replace("C0000002", "C02") + "\n")
    folder = tmp_path / "out"
    with pytest.raises(SourceFormatError) as caught:
        write_rrf(release, "umls", outputs(folder))
    assert (caught.value.path.name, caught.value.line) == ("MRREL.RRF", 9)
    assert not folder.exists() or not any(folder.iterdir())


def test_write_rrf_leaves_nothing_on_a_truncated_file(release: Path, tmp_path: Path) -> None:
    path = release / "MRREL.RRF"
    data = path.read_bytes()
    path.write_bytes(data[: data.rindex(b"|", 0, len(data) - 2) - 2])  # the last line cut, no newline
    last = data.count(b"\n")
    folder = tmp_path / "out"
    with pytest.raises(SourceFormatError, match="truncated file") as caught:
        write_rrf(release, "umls", outputs(folder))
    assert (caught.value.path, caught.value.line) == (path, last)
    assert f"{path}:{last}" in str(caught.value)
    assert not folder.exists() or not any(folder.iterdir())


def test_repeated_aui_is_an_error(tmp_path: Path) -> None:
    meta = write_meta(tmp_path, MRCONSO=[conso(1, "A10", "a"), conso(2, "A9", "b"), conso(3, "A10", "c")])
    with pytest.raises(SourceFormatError, match="AUI A10 repeated"):
        write_rrf(meta, "umls", outputs(tmp_path / "out"))


def test_serial_pass_after_a_late_short_row_repeats_no_row(tmp_path: Path) -> None:
    lines = [conso(i, f"A{i}", f"term {i}") for i in range(1, 3001)]
    lines[2500] = "|".join(lines[2500].split("|")[:15])  # trailing nullcols: a short row
    path = tmp_path / "MRCONSO.RRF"
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    read = dict(include=["AUI", "SUPPRESS"], required=15, block_size=4096)
    got = [
        aui
        for batch in iter_rrf(path, MRCONSO_COLUMNS, **read, trailing_nullcols=True)
        for aui in batch.column("AUI").to_pylist()
    ]
    assert sorted(got) == sorted(f"A{i}" for i in range(1, 3001))
    with pytest.raises(SourceFormatError, match="18 '[|]'-terminated fields") as caught:
        list(iter_rrf(path, MRCONSO_COLUMNS, **read))
    assert caught.value.line == 2501 and caught.value.found.startswith("15 fields: ")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet="0123456789", min_size=1, max_size=10),
        min_size=1,
        max_size=60,
        unique=True,
    )
)
def test_aui_keys_order_like_strings(digits: list[str]) -> None:
    auis = pa.array([f"A{d}" for d in digits])
    keys = umls._aui_order_keys(auis)
    assert keys is not None
    by_key = sorted(range(len(digits)), key=lambda i: keys[i])
    assert by_key == sorted(range(len(digits)), key=lambda i: f"A{digits[i]}")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        # Short strings over a few characters (shared prefixes, prefixes of each other, NUL,
        # multi-byte), up to 40 bytes so some go past the numpy path's 32.
        st.text(alphabet="ab\x00\xe9Z9", max_size=40),
        max_size=80,
        unique=True,
    ),
    st.integers(0, 3),
)
def test_distinct_string_order_is_arrows(values: list[str], skip: int) -> None:
    array = pa.array(["pad"] * skip + values, type=pa.string()).slice(skip)  # a slice: offsets not from 0
    order = columns.distinct_string_order(array)
    assert order.tolist() == pc.sort_indices(array).to_numpy().tolist()
    assert [values[i] for i in order] == sorted(values, key=str.encode)


def test_long_auis_are_ranked_as_strings(tmp_path: Path) -> None:
    assert umls._aui_order_keys(pa.array(["A1", "A12345678901"])) is None
    lines = [conso(1, "A12345678901", "b"), conso(1, "A2", "a", ts="S"), conso(1, "A123", "c")]
    meta = write_meta(tmp_path / "META", MRCONSO=lines)
    terms = read_rrf(meta, "umls")["terms"].to_pylist()
    assert [t["term_id"] for t in terms] == ["A123", "A12345678901", "A2"]
    assert [t["term_type"] for t in terms] == ["preferred", "synonym", "synonym"]
    with pytest.raises(SourceFormatError, match="AUI A12345678901 repeated"):
        write_meta(tmp_path / "dup", MRCONSO=[*lines, conso(2, "A12345678901", "d")])
        read_rrf(tmp_path / "dup", "umls")


def test_cui_numbers_round_trip() -> None:
    numbers = np.array([0, 5, 1234567, 9_999_999], dtype=np.int32)
    strings = columns.cui_strings(numbers)
    assert strings.to_pylist() == ["C0000000", "C0000005", "C1234567", "C9999999"]
    assert columns.cui_numbers(strings.slice(1)).tolist() == [5, 1234567, 9_999_999]
    # Every digit in every position, and a slice that does not start on an 8-byte boundary.
    many = np.random.default_rng(1).integers(0, 10**7, 20_000)
    text = columns.cui_strings(many)
    assert text.to_pylist() == [f"C{n:07d}" for n in many]
    assert columns.cui_numbers(text.slice(3)).tolist() == many[3:].tolist()
    assert columns.distinct_cuis(many.astype(np.int32)).tolist() == np.unique(many).tolist()


def test_lookup_keeps_nulls_and_order() -> None:
    """_lookup builds from codes the array sorted_dictionary makes by hashing the strings: values
    present only, in byte order, None as null; repeated values share one entry."""
    values = [None, "isa", "", "has_finding_site", "isa", "unused"]
    codes = np.array([3, 0, 1, 1, 2, 3, 4], dtype=np.uint16)
    looked_up = columns.lookup(values, codes)
    assert looked_up.type == biosem.io.DICTIONARY
    assert looked_up.dictionary.to_pylist() == ["", "has_finding_site", "isa"]
    assert looked_up.to_pylist() == [values[c] for c in codes]
    plain = pa.array([values[c] for c in codes], type=pa.string())
    assert biosem.io.sorted_dictionary(plain).equals(looked_up)
    assert biosem.io.sorted_dictionary(looked_up) is looked_up  # already canonical
    assert columns.lookup(values, np.zeros(0, np.int32)).to_pylist() == []
    assert columns.repeat_value(None, 3).null_count == 3


def test_packed_keys_sort_like_tuples() -> None:
    rng = np.random.default_rng(0)
    fields = [rng.integers(0, m, 500) for m in (50, 7, 50, 3)]
    expected = sorted(set(zip(*(f.tolist() for f in fields), strict=True)))
    one = columns.sort_distinct([f.copy() for f in fields], [50, 7, 50, 3])
    two = columns.sort_distinct([f.copy() for f in fields], [50, 2**40, 2**30, 3])  # two words
    three = columns.sort_distinct([f.copy() for f in fields], [2**63, 2**40, 2**30, 3])
    assert (len(one.words), len(two.words), len(three.words)) == (1, 2, 3)
    for packed in (one, two, three):
        got = packed.fields(0, len(packed))
        assert list(zip(*(g.tolist() for g in got), strict=True)) == expected
        assert [g.tolist() for g in packed.fields(3, 9)] == [g[3:9].tolist() for g in got]
    assert len(columns.sort_distinct([np.zeros(0, np.int64)] * 2, [1, 1])) == 0


@pytest.mark.parametrize("sizes", [[50, 7, 50, 3], [50, 2**40, 2**30, 3]])
def test_packed_parts_equal_the_packed_whole(sizes: list[int]) -> None:
    """Rows packed part by part (MRREL's batches, empty ones included) equal the rows packed whole."""
    rng = np.random.default_rng(1)
    fields = [rng.integers(0, min(m, 50), 500) for m in sizes]
    whole = columns.sort_distinct([f.copy() for f in fields], sizes)
    cuts = [0, 0, 120, 121, 400, 500]
    parts = [[f[a:b].copy() for f in fields] for a, b in zip(cuts, cuts[1:], strict=False)]
    packed = columns.sort_distinct_parts(iter(parts), 500, sizes)
    assert len(packed) == len(whole) and len(packed.words) == len(whole.words)
    assert all((a == b).all() for a, b in zip(packed.words, whole.words, strict=True))
    with pytest.raises(ValueError, match="hold 500 rows, not 501"):
        columns.sort_distinct_parts(iter([[f.copy() for f in fields]]), 501, sizes)
    with pytest.raises(ValueError, match="more than 499 rows"):
        columns.sort_distinct_parts(iter([[f.copy() for f in fields]]), 499, sizes)


@pytest.mark.parametrize("parts", [1, 3, 7])
def test_mapping_ranges_give_the_same_file(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parts: int
) -> None:
    """The mappings sorted in 1, 3 or 7 ranges (with row groups of 2 rows, so chunks straddle the
    ranges) give the file of the default 2."""
    monkeypatch.setattr(umls, "_ROW_GROUP", 2)
    default = outputs(tmp_path / "default")
    write_rrf(release, "umls", default, languages=None)
    monkeypatch.setattr(umls, "_MAPPING_PARTS", parts)
    other = outputs(tmp_path / f"parts{parts}")
    write_rrf(release, "umls", other, languages=None)
    assert pq.read_table(other["mappings"]).num_rows >= 4
    assert_same_files(default, other)


def test_no_mappings_gives_the_file_of_write_terminology(tmp_path: Path) -> None:
    """Every CODE "" or NOCODE: an empty mappings file, as write_terminology writes it."""
    meta = write_meta(
        tmp_path / "META",
        MRCONSO=[conso(1, "A1", "alpha", code="NOCODE"), conso(2, "A2", "beta", code="")],
    )
    a, b = outputs(tmp_path / "a"), outputs(tmp_path / "b")
    write_terminology(read_rrf(meta, "umls"), {k: str(v) for k, v in a.items()}, "umls")
    assert write_rrf(meta, "umls", b)["mappings"] == 0
    assert_same_files(a, b)


def test_aui_keys_of_the_kept_values() -> None:
    auis = pa.array(["A9", "A10", "A0000000001", "A12345678", "A1234567890"])
    keep = np.array([True, False, True, True, True])
    keys = umls._aui_order_keys(auis, keep)
    assert keys is not None and len(keys) == 4
    assert keys.tolist() == umls._aui_order_keys(auis.filter(pa.array(keep))).tolist()
    assert np.argsort(keys).tolist() == [1, 2, 3, 0]  # "A0000000001" < "A12345678" < "A1234567890" < "A9"


def sorted_release_lines(seed: int = 0) -> list[str]:
    """A CUI-sorted MRCONSO of 700 concepts with 1-8 atoms each (AUIs of 2-9 digits, in no order
    within a CUI; French, abbreviation and suppressible atoms; the best atom not always first)."""
    rng = np.random.default_rng(seed)
    lines, aui = [], 10
    for cui in range(1, 701):
        atoms = []
        for _ in range(int(rng.integers(1, 9))):
            aui += int(rng.integers(1, 5_000))
            atoms.append(
                conso(
                    cui,
                    f"A{aui}",
                    f"term {aui}",
                    lat=str(rng.choice(["ENG", "ENG", "ENG", "FRE"])),
                    ts=str(rng.choice(["P", "S"])),
                    stt=str(rng.choice(["PF", "VC"])),
                    ispref=str(rng.choice(["Y", "N"])),
                    tty=str(rng.choice(["MH", "AB", "SY"])),
                    code=f"D{int(rng.integers(0, 300)):06d}",
                )
            )
        rng.shuffle(atoms)
        lines += atoms
    return lines


class SegmentSpy:
    """Counts the segments of terms (rows of complete CUIs) given while MRCONSO is read, to the
    thread that writes them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.during = 0
        add = rrf_terms.SortedTerms.add

        def counted_add(sorted_terms: rrf_terms.SortedTerms, *args: object) -> None:
            given = sorted_terms.given
            add(sorted_terms, *args)
            self.during += sorted_terms.given - given

        monkeypatch.setattr(rrf_terms.SortedTerms, "add", counted_add)


@pytest.mark.parametrize("languages", [("ENG",), None])
def test_terms_of_a_cui_sorted_file_are_written_while_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, languages
) -> None:
    """A CUI-sorted MRCONSO read in small blocks, with row groups of 100 rows: its terms are given
    as the file is read, and every file equals the one written from the same rows shuffled (which
    are not sorted by CUI: the terms are built once the file is read) and write_terminology's."""
    lines = sorted_release_lines()
    monkeypatch.setattr(umls, "_ROW_GROUP", 100)
    monkeypatch.setattr(biosem.io, "ROW_GROUP", 100)
    spy = SegmentSpy(monkeypatch)
    streamed = outputs(tmp_path / "sorted")
    sorted_meta = write_meta(tmp_path / "META", MRCONSO=lines)
    counts = write_rrf(sorted_meta, "umls", streamed, languages=languages, block_size=1 << 12)
    assert counts["terms"] > 1_000 and spy.during >= 5
    assert pq.read_metadata(streamed["terms"]).num_row_groups == -(-counts["terms"] // 100)

    spy.during = 0
    shuffled = [lines[i] for i in np.random.default_rng(1).permutation(len(lines))]
    whole = outputs(tmp_path / "shuffled")
    shuffled_meta = write_meta(tmp_path / "SHUFFLED", MRCONSO=shuffled)
    assert write_rrf(shuffled_meta, "umls", whole, languages=languages, block_size=1 << 12) == counts
    assert spy.during == 0
    assert_same_files(streamed, whole)

    expected = outputs(tmp_path / "expected")
    write_terminology(
        read_rrf(sorted_meta, "umls", languages=languages), {k: str(v) for k, v in expected.items()}, "umls"
    )
    assert_same_files(streamed, expected)
    terms = read_rrf(sorted_meta, "umls", languages=languages)["terms"]
    preferred = pc.equal(terms.column("term_type"), "preferred")
    assert pc.count_distinct(terms.column("concept_id")).as_py() == pc.sum(preferred).as_py()


@pytest.mark.parametrize("late", [True, False])
def test_a_file_not_sorted_by_cui_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, late: bool
) -> None:
    """Found not sorted by CUI at its end (its first 2,000 rows moved there), after row groups of
    terms were given, which are then written again from the whole atoms; or in its first batch
    (two rows of its first 30 swapped), before any was. Either way the files are those of the
    batch path (write_terminology of read_rrf)."""
    lines = sorted_release_lines(seed=2)
    if late:
        lines = lines[2_000:] + lines[:2_000]
    else:
        lines[0], lines[29] = lines[29], lines[0]
        assert lines[0].split("|")[0] > lines[29].split("|")[0]
    monkeypatch.setattr(umls, "_ROW_GROUP", 100)
    monkeypatch.setattr(biosem.io, "ROW_GROUP", 100)
    meta = write_meta(tmp_path / "META", MRCONSO=lines)
    spy = SegmentSpy(monkeypatch)
    caplog.set_level("INFO", logger="biosem.terminology.rrf.umls")
    got = outputs(tmp_path / "got")
    write_rrf(meta, "umls", got, block_size=1 << 12)
    rewritten = "not sorted by CUI: the terms are written again" in caplog.text
    assert (spy.during > 0, rewritten) == (late, late)
    expected = outputs(tmp_path / "expected")
    write_terminology(read_rrf(meta, "umls"), {k: str(v) for k, v in expected.items()}, "umls")
    assert_same_files(got, expected)


def test_a_repeated_aui_in_a_sorted_file_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CUI-sorted file whose last CUI repeats an AUI of its first, after row groups of terms were
    given: the error of the batch path, and no file."""
    lines = sorted_release_lines()
    first_aui = lines[0].split("|")[7]
    lines.append(conso(701, first_aui, "repeat"))
    monkeypatch.setattr(umls, "_ROW_GROUP", 100)
    spy = SegmentSpy(monkeypatch)
    folder = tmp_path / "out"
    with pytest.raises(SourceFormatError, match=f"AUI {first_aui} repeated"):
        write_rrf(write_meta(tmp_path / "META", MRCONSO=lines), "umls", outputs(folder), block_size=1 << 12)
    assert spy.during > 0
    assert not folder.exists() or not any(folder.iterdir())
