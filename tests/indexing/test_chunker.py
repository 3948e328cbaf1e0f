"""Chunk packing: size bounds, no overlap, exact section reassembly, tables never split."""

from __future__ import annotations

from indexing.chunker import MAX_CHUNK_CHARS, chunk_section, reassemble
from indexing.section_builder import Block, Section


def _section(blocks: list[Block]) -> Section:
    return Section(path=["3", "3.2"], title="Settlement cycles", blocks=blocks)


def _prose(n: int, words: int, page: int = 1) -> Block:
    text = " ".join(f"word{n}x{i}" + ("." if i % 12 == 11 else "") for i in range(words))
    return Block(text=text, page_start=page, page_end=page)


def _table(rows: int, page: int = 1) -> Block:
    csv = "\n".join(f"row{i},Domestic,EUR {i}.20" for i in range(rows))
    return Block(text=csv, page_start=page, page_end=page, table_csv=csv)


def test_chunks_respect_the_size_bound_and_reassemble_exactly():
    section = _section([Block("3.2 Settlement cycles", 4, 4)] + [_prose(i, 90, 4 + i // 5) for i in range(20)])
    chunks = chunk_section(section)
    assert len(chunks) > 3
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    assert reassemble([c.text for c in chunks]) == section.text
    # no overlap: each block's text occurs in exactly one chunk
    for block in section.blocks:
        assert sum(block.text in c.text for c in chunks) == 1
    assert chunks[0].page_start == 4 and chunks[-1].page_end == 7


def test_a_long_paragraph_is_cut_between_sentences_and_still_reassembles():
    section = _section([_prose(0, 900)])
    chunks = chunk_section(section)
    assert len(chunks) >= 4
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    assert all(c.text.rstrip().endswith(".") for c in chunks[:-1])
    assert reassemble([c.text for c in chunks]) == section.text


def test_one_endless_sentence_is_cut_between_words():
    section = _section([Block(" ".join(["lorem"] * 1500), 1, 1)])
    chunks = chunk_section(section)
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    assert reassemble([c.text for c in chunks]) == section.text


def test_a_table_is_never_split_and_a_large_one_is_its_own_chunk():
    small, large = _table(5), _table(150)
    assert len(large.text) > MAX_CHUNK_CHARS
    section = _section([_prose(1, 200), small, _prose(2, 200), large, _prose(3, 30)])
    chunks = chunk_section(section)
    holding_large = [c for c in chunks if large.table_csv in c.tables_csv]
    assert len(holding_large) == 1 and holding_large[0].text.strip() == large.text
    assert sum(small.table_csv in c.tables_csv for c in chunks) == 1
    assert [c for c in chunks if small.table_csv in c.tables_csv][0].text.count(small.text) == 1
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in chunks if c is not holding_large[0])
    assert reassemble([c.text for c in chunks]) == section.text
