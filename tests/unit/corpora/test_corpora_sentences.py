"""Sentence segmentation: repeated sentences, masked periods, merges, exact offsets."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from biosem.corpora.ingest import ingest_corpus
from biosem.corpora.sentences import (
    SegmentationStats,
    Segmenter,
    line_regions,
    merge_crossing,
    segment_documents,
)


def _texts(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[s:e] for s, e in spans]


def test_repeated_sentence_located_at_its_own_position() -> None:
    title = "Aspirin trial"
    abstract = "The drug was given. Pain fell. The drug was given. Aspirin helps."
    text = f"{title} {abstract}"
    spans = Segmenter().segment(text, title_length=len(title))
    assert _texts(text, spans) == [
        "Aspirin trial",
        "The drug was given.",
        "Pain fell.",
        "The drug was given.",
        "Aspirin helps.",
    ]
    first, second = spans[1], spans[3]
    assert first[0] == text.index("The drug")
    assert second[0] == text.index("The drug", first[1])  # not the first occurrence
    assert second[0] > first[0]


def test_repeated_sentence_mentions_assigned_to_their_sentence(tmp_path: Path) -> None:
    title, abstract = "Aspirin trial", "The drug was given. Pain fell. The drug was given."
    text = f"{title} {abstract}"
    second = text.rindex("drug")
    lines = [
        f"1|t|{title}",
        f"1|a|{abstract}",
        f"1\t{text.index('drug')}\t{text.index('drug') + 4}\tdrug\tChemical\tD001241",
        f"1\t{second}\t{second + 4}\tdrug\tChemical\tD001241",
        "",
    ]
    path = tmp_path / "c.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    tables = ingest_corpus("c", {"test": path}, "MESH", Segmenter())
    s = tables.sentences
    assert s["text"].tolist() == [
        "Aspirin trial",
        "The drug was given.",
        "Pain fell.",
        "The drug was given.",
    ]
    m = tables.mentions
    assert m["sentence_id"].tolist() == [1, 3]
    assert m["sentence_start"].tolist() == [4, 4]
    assert m["start"].tolist() == [text.index("drug"), second]
    for row in m.itertuples():
        sentence = s.iloc[row.sentence_id]
        assert sentence["start"] + row.sentence_start == row.start
        assert sentence["text"][row.sentence_start : row.sentence_end] == row.text == text[row.start : row.end]


def test_periods_in_mentions_are_masked() -> None:
    text = "Patients with Staph. Aureus infection were treated. All recovered."
    mention = (text.index("Staph"), text.index(" infection"))
    unmasked = Segmenter(mask_mention_periods=False).segment(text)
    assert "Patients with Staph." in _texts(text, unmasked)  # pysbd alone splits the mention
    stats = SegmentationStats()
    spans = Segmenter().segment(text, [mention], stats=stats)
    assert _texts(text, spans) == [
        "Patients with Staph. Aureus infection were treated.",
        "All recovered.",
    ]
    assert stats.masked_mentions == 1
    assert stats.crossing_mentions == 0  # masking, not merging, kept it whole
    assert "_" not in "".join(_texts(text, spans))  # the placeholder never leaks into the output


def test_mention_crossing_a_boundary_merges_sentences() -> None:
    text = "Rats received vit. E supplementation daily. Weight rose."
    mention = (text.index("vit."), text.index(" supplementation"))
    # Without masking pysbd splits "vit. | E"; the mention then joins the two pieces.
    stats = SegmentationStats()
    spans = Segmenter(mask_mention_periods=False).segment(text, [mention], stats=stats)
    assert _texts(text, spans) == ["Rats received vit. E supplementation daily.", "Weight rose."]
    assert stats.crossing_mentions == 1
    assert stats.merged == 1


def test_merge_crossing_spans_and_edge_whitespace() -> None:
    spans = [(0, 5), (6, 10), (11, 15), (16, 20)]
    assert merge_crossing(spans, [(3, 8)]) == [(0, 10), (11, 15), (16, 20)]
    assert merge_crossing(spans, [(3, 18)]) == [(0, 20)]
    assert merge_crossing(spans, [(11, 15)]) == spans
    stats = SegmentationStats()
    # a mention with a leading space, starting in the gap before sentence 2, widens that sentence
    assert merge_crossing(spans, [(10, 13)], stats) == [(0, 5), (6, 10), (10, 15), (16, 20)]
    assert stats.extended == 1


def test_title_without_period_is_its_own_sentence() -> None:
    title = "DCTN4 as a modifier of chronic infection in cystic fibrosis"
    text = f"{title} Pseudomonas infection is common. It is severe."
    assert _texts(text, Segmenter().segment(text, title_length=len(title)))[0] == title
    joined = Segmenter(split_title=False).segment(text, title_length=len(title))
    assert _texts(text, joined)[0].startswith(title + " Pseudomonas")


def test_full_text_is_segmented_line_by_line() -> None:
    """CRAFT's .txt: title, headings and paragraphs on lines of their own; each line is segmented on its
    own: a heading without a period is a sentence, blank lines give none, a paragraph is split by pysbd."""
    text = "A title\n\nBackground\n\nFirst sentence here. Second one.\n  \nResults\n"
    assert line_regions(text) == [(0, 7), (9, 19), (21, 53), (54, 56), (57, 64)]
    spans = Segmenter(split_lines=True).segment(text)
    assert [text[s:e] for s, e in spans] == ["A title", "Background", "First sentence here.", "Second one.", "Results"]
    # pysbd run on the whole article makes other (worse) choices inside lines: CRAFT has 31,516 sentences
    # line by line, 31,473 from whole texts ("(c, e)." cut after "(c,"; "Table 2. Low-stringency ..." one)


def test_parallel_segmentation_equals_serial() -> None:
    items = [(f"Title {i} Abstract {i}. The drug was given. Pain fell.", [], 7 + len(str(i))) for i in range(200)]
    seg = Segmenter()
    serial = segment_documents(seg, items, processes=1)
    parallel = segment_documents(seg, items, processes=2, chunksize=16)
    assert [spans for spans, _ in serial] == [spans for spans, _ in parallel]


_WORDS = st.sampled_from(
    [
        "The",
        "drug",
        "was",
        "given.",
        "Pain",
        "fell",
        "Dr.",
        "e.g.",
        "U.S.",
        "(P < 0.05).",
        "?",
        "Yes!",
        "  ",
        "vs.",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=40), st.data())
def test_sentences_cover_text_exactly(words: list[str], data: st.DataObject) -> None:
    """Sentences are disjoint, ordered, trimmed, cover every non-blank character and hold every mention."""
    text = " ".join(words)
    candidates = [(i, i + len(w)) for i, w in ((text.find(w), w) for w in set(words)) if w.strip() and i >= 0]
    mentions = data.draw(st.lists(st.sampled_from(candidates), max_size=4)) if candidates else []
    spans = Segmenter().segment(text, mentions)
    covered = [False] * len(text)
    previous_end = 0
    for s, e in spans:
        assert previous_end <= s < e <= len(text)
        assert not text[s].isspace() and not text[e - 1].isspace()
        for i in range(s, e):
            covered[i] = True
        previous_end = e
    assert all(covered[i] or text[i].isspace() for i in range(len(text)))
    for ms, me in mentions:
        assert any(s <= ms and me <= e for s, e in spans)
