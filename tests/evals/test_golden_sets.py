"""The golden sets: they parse, they hold enough of every kind of question, and every string a
correct answer must contain really is on a page the question names as its source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from evals.citation_check import PageTexts, contains
from evals.e2e_golden import (
    GoldenFormatError,
    GoldenQuestion,
    category_counts,
    default_golden_files,
    load_golden,
    parse_golden_lines,
)
from evals.personas import PERSONAS

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "rulebooks"
REAL_PDFS = REPO.parent / "shared" / "corpora" / "real-pdfs"


@pytest.fixture(scope="module")
def questions() -> list[GoldenQuestion]:
    return load_golden()


def test_the_golden_files_exist_and_parse(questions):
    names = {p.name for p in default_golden_files()}
    assert {"e2e_sample.jsonl", "e2e_real_pdfs.jsonl"} <= names
    assert len({q.id for q in questions}) == len(questions)


def test_counts_and_categories_meet_the_brief(questions):
    assert len(questions) >= 80
    unanswerable = [q for q in questions if not q.answerable]
    assert len(unanswerable) >= 15
    counts = category_counts(questions)
    for kind in ("table", "spanned_cells", "identifier", "paraphrase", "whole_section", "cross_reference",
                 "follow_up", "cross_language", "restricted", "other_scheme", "advice", "off_topic", "injection"):
        assert counts[kind] >= 1, kind
    # Dutch and French questions against sources in the other language
    languages = {q.language for q in questions if "cross_language" in q.categories}
    assert {"nl", "fr"} <= languages
    assert counts["injection"] >= 2 and all(q.canary for q in questions if "injection" in q.categories)
    assert {"sample", "real"} <= {q.corpus for q in questions}
    assert all(q.history for q in questions if "follow_up" in q.categories)


def test_personas_named_by_questions_exist(questions):
    assert {q.persona for q in questions} <= set(PERSONAS)
    twins = {q.id: q for q in questions}
    for q in questions:
        if q.twin:
            assert not twins[q.twin].answerable and "nonexistent" in twins[q.twin].categories


def _sample_files() -> dict[str, Path]:
    catalog = yaml.safe_load((SAMPLE / "catalog.yaml").read_text(encoding="utf-8"))
    return {d["id"]: SAMPLE / d["file"] for d in catalog["documents"]}


def _unmet_must_contain(qs: list[GoldenQuestion], files: dict[str, Path]) -> list[str]:
    pages = PageTexts()
    unmet = []
    for q in qs:
        for entry in q.must_contain:
            options = [entry] if isinstance(entry, str) else entry
            found = False
            for e in q.expected:
                for page in e.pages:
                    text = pages.page(str(files[e.rulebook_id]), page)
                    assert text is not None, f"{q.id}: {e.rulebook_id} has no page {page}"
                    found = found or any(contains(text, o) for o in options)
            if not found:
                unmet.append(f"{q.id}: {entry!r}")
    return unmet


def test_sample_must_contain_strings_are_on_the_expected_pages(questions):
    sample = [q for q in questions if q.corpus == "sample" and q.answerable]
    assert all(all(e.pages for e in q.expected) for q in sample), "every sample source names its page"
    assert _unmet_must_contain(sample, _sample_files()) == []


@pytest.mark.real_pdfs
def test_real_pdf_must_contain_strings_are_on_the_expected_pages(questions):
    if not REAL_PDFS.is_dir():
        pytest.skip(f"public PDFs not found at {REAL_PDFS}")
    real = [q for q in questions if q.corpus == "real" and q.answerable]
    files = {e.rulebook_id: REAL_PDFS / f"{e.rulebook_id}.pdf" for q in real for e in q.expected}
    assert all(p.is_file() for p in files.values()), "real-pdf rulebook ids are the file stems"
    assert _unmet_must_contain(real, files) == []


def test_a_bad_line_is_reported_with_file_and_line(tmp_path):
    good = {"id": "a", "question": "Q?", "language": "en", "expected": [{"rulebook_id": "PS-01", "pages": [2]}],
            "must_contain": ["x"], "categories": ["fact"]}
    no_source = dict(good, id="b", expected=[])
    path = tmp_path / "e2e_bad.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(no_source) + "\n", encoding="utf-8")
    with pytest.raises(GoldenFormatError, match=r"e2e_bad.jsonl:3 \(id b\).*expected source"):
        load_golden([path])
    with pytest.raises(GoldenFormatError, match=r":1: not JSON"):
        parse_golden_lines(["{not json"], "x.jsonl")
    with pytest.raises(GoldenFormatError, match="duplicate question ids"):
        parse_and_load_twice = tmp_path / "e2e_dup.jsonl"
        parse_and_load_twice.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
        load_golden([parse_and_load_twice])
    unanswerable_without_kind = dict(good, id="c", answerable=False, expected=[], must_contain=[])
    with pytest.raises(GoldenFormatError, match="needs one of"):
        parse_golden_lines([json.dumps(unanswerable_without_kind)])
