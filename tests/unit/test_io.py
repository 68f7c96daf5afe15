"""Tests of biosem.io: atomic writes (modes follow the umask, failures leave nothing behind), the Parquet readers."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from biosem.io import (
    TableSpec,
    atomic_path,
    read_concat,
    read_where,
    sorted_dictionary,
    string_field,
    write_row_groups,
    write_table,
    write_text,
)

SPEC = TableSpec("pairs", pa.schema([string_field("term1"), string_field("term2")]), ("term1", "term2"))


@pytest.fixture
def umask():
    """Set the process umask for one test and restore it after."""
    previous = os.umask(0o022)
    os.umask(previous)

    def set_mask(mask: int) -> None:
        os.umask(mask)

    yield set_mask
    os.umask(previous)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o077, 0o600)])
def test_outputs_honour_the_umask(tmp_path, umask, mask, mode):
    umask(mask)
    table = pa.table({"term2": ["b", "a"], "term1": ["x", "y"]})

    write_table(table, tmp_path / "out" / "pairs.parquet", SPEC)
    write_text("counts\n", tmp_path / "out" / "counts.tsv")

    for name in ("pairs.parquet", "counts.tsv"):
        assert stat.S_IMODE((tmp_path / "out" / name).stat().st_mode) == mode
    assert sorted(os.listdir(tmp_path / "out")) == ["counts.tsv", "pairs.parquet"]  # no temporary left


def test_a_failing_block_leaves_no_file(tmp_path):
    final = tmp_path / "counts.tsv"

    with pytest.raises(RuntimeError), atomic_path(final) as tmp:
        tmp.write_text("partial")
        raise RuntimeError("step failed")

    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (OSError(errno.EFBIG, "File too large"), errno.EFBIG),
        (OSError(errno.ENOSPC, "No space left on device"), errno.ENOSPC),
        # pyarrow's IO errors carry the system message but no errno.
        (pa.lib.ArrowIOError("Error writing bytes to file. Detail: [Errno 28] No space left on device"), errno.ENOSPC),
    ],
)
def test_a_full_disk_names_the_output_and_leaves_no_file(tmp_path, error, code):
    final = tmp_path / "terms.parquet"

    with pytest.raises(OSError, match="terms.parquet") as caught, atomic_path(final) as tmp:
        tmp.write_text("partial")
        raise error

    assert caught.value.errno == code
    assert caught.value.filename == str(final)
    assert str(final) in str(caught.value)
    assert caught.value.__cause__ is error
    assert list(tmp_path.iterdir()) == []


def test_other_os_errors_pass_unchanged(tmp_path):
    error = PermissionError(errno.EACCES, "Permission denied")

    with pytest.raises(PermissionError) as caught, atomic_path(tmp_path / "x.tsv"):
        raise error

    assert caught.value is error
    assert list(tmp_path.iterdir()) == []


def test_statistics_are_written_for_the_sort_keys_only(tmp_path):
    spec = TableSpec("t", pa.schema([string_field("id"), string_field("text")]), ("id",))
    table = pa.table({"id": ["b", "a", "c"], "text": ["z", "y", "x"]})
    assert write_table(table, tmp_path / "t.parquet", spec) == 3
    row_group = pq.read_metadata(tmp_path / "t.parquet").row_group(0)
    by_name = {row_group.column(i).path_in_schema: row_group.column(i) for i in range(row_group.num_columns)}
    assert (by_name["id"].statistics.min, by_name["id"].statistics.max) == ("a", "c")
    assert not by_name["text"].is_stats_set
    assert pq.read_table(tmp_path / "t.parquet").column("id").to_pylist() == ["a", "b", "c"]


def test_dictionary_columns_are_canonical_and_read_back_as_strings(tmp_path):
    """A dictionary column is written as the sorted distinct values present, whatever the array
    it came as, and reads back as the spec's plain strings."""
    spec = TableSpec("t", pa.schema([string_field("id"), string_field("kind", nullable=True)]), ("id",), ("kind",))
    kinds = ["b", None, "a", "b"]
    plain = pa.table({"id": ["1", "2", "3", "4"], "kind": pa.array(kinds, pa.string())})
    # The same values as a dictionary array with an unsorted dictionary and an unused value.
    odd = pa.DictionaryArray.from_arrays(pa.array([0, None, 2, 0], pa.int32()), pa.array(["b", "zz", "a"]))
    encoded = plain.set_column(1, "kind", odd)
    canonical = sorted_dictionary(odd)
    assert canonical.dictionary.to_pylist() == ["a", "b"] and canonical.to_pylist() == kinds
    write_table(plain, tmp_path / "plain.parquet", spec)
    write_row_groups([encoded], tmp_path / "encoded.parquet", spec)
    assert (tmp_path / "plain.parquet").read_bytes() == (tmp_path / "encoded.parquet").read_bytes()
    back = pq.read_table(tmp_path / "plain.parquet")
    assert back.schema.equals(spec.schema) and back.equals(plain.cast(spec.schema))
    with pytest.raises(ValueError, match="'id' must not contain nulls"):
        write_row_groups([plain.set_column(0, "id", pa.array([None, "2", "3", "4"]))], tmp_path / "bad.parquet", spec)
    assert not (tmp_path / "bad.parquet").exists()


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_an_unreadable_parquet_names_the_rule_that_wrote_it(tmp_path, monkeypatch, damage):
    """Snakemake never rebuilds a damaged file whose time stamp is newer than its inputs': the error names the
    rule that wrote it (Snakemake's record of the run) and the command that writes it again."""
    import base64
    import json

    from biosem.io import UnreadableTableError, read_table, write_parquet, writing_rule

    monkeypatch.chdir(tmp_path)
    path = Path("results/intermediate/terms/hpo.parquet")
    path.parent.mkdir(parents=True)
    write_parquet(pa.table({"x": list(range(1000))}), path)
    data = path.read_bytes()
    path.write_bytes(b"PAR1 not parquet" if damage == "garbage" else data[: len(data) // 2])
    with pytest.raises(UnreadableTableError) as err:
        read_table(path)
    assert err.value.rule is None and str(err.value).startswith(f"{path}: expected a Parquet table; found ")
    assert str(err.value).endswith(f"write it again with `snakemake --cores 1 --force {path}`, then run as before.")
    record = Path(".snakemake/metadata", base64.urlsafe_b64encode(str(path).encode()).decode())
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"rule": "ingest_obo", "job_hash": 1}))
    assert writing_rule(path) == writing_rule(tmp_path / path) == "ingest_obo"
    with pytest.raises(UnreadableTableError, match=r"expected a Parquet table as rule ingest_obo writes it") as err:
        read_table(path)
    assert "`snakemake --cores 1 <your targets> --forcerun ingest_obo`" in str(err.value)
    with pytest.raises(FileNotFoundError):
        read_table("results/intermediate/terms/absent.parquet")


RELATIONS = TableSpec(
    "relations",
    pa.schema([string_field("subject_id"), string_field("rel"), string_field("object_id")]),
    ("subject_id", "rel", "object_id"),
)


def test_read_where_filters_while_reading_and_takes_an_empty_set(tmp_path):
    path = tmp_path / "relations.parquet"
    rows = {"subject_id": ["C1", "C1", "C2", "C3"], "rel": ["SY", "RB", "SY", "RN"], "object_id": ["C9"] * 4}
    write_table(pa.table(rows), path, RELATIONS)
    synonyms = read_where(path, [("rel", "in", ["SY", "RQ"])], ["subject_id", "rel"])
    assert synonyms.to_dict("list") == {"subject_id": ["C1", "C2"], "rel": ["SY", "SY"]}
    assert read_where(path, [("subject_id", "==", "C3")])["rel"].tolist() == ["RN"]
    nothing = read_where(path, [("rel", "in", [])], ["subject_id"])  # pyarrow refuses an empty set
    assert len(nothing) == 0 and list(nothing.columns) == ["subject_id"]
    assert len(read_where(path, [])) == 4


def test_read_concat_keeps_the_given_order(tmp_path):
    paths = [tmp_path / "b.parquet", tmp_path / "a.parquet"]
    write_table(pa.table({"term1": ["x", "y"], "term2": ["1", "2"]}), paths[0], SPEC)
    write_table(pa.table({"term1": ["a"], "term2": ["3"]}), paths[1], SPEC)
    assert read_concat(paths)["term1"].tolist() == ["x", "y", "a"]
    assert read_concat([]).empty
