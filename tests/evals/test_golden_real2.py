"""The harder real-document set (`e2e_real2.jsonl`, written from ../shared/corpora/real-pdfs-2/
before any answer was looked at) and the dev/test splits of every golden set.

The gold labels are checked mechanically: every string a correct answer must contain is on one of
the pages the question names as its source (text compared with whitespace, hyphenation and
quotes normalised), so no label can be wrong without this test failing."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from evals.citation_check import PageTexts, contains
from evals.e2e_golden import (
    GOLDEN_DIR,
    GoldenFormatError,
    GoldenQuestion,
    load_golden,
    parse_golden_lines,
    stratified_split,
)

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora"
REAL2_FILE = GOLDEN_DIR / "e2e_real2.jsonl"
# More questions over the same documents, written later and just as blind (no answer looked at).
REAL2_MORE_FILE = GOLDEN_DIR / "e2e_real2_more.jsonl"
# A third blind set over the same documents, written from the PDF text alone (no answer, eval output
# or baseline looked at); its split is the same rule applied to this file alone.
REAL2_SET3_FILE = GOLDEN_DIR / "e2e_real2_set3.jsonl"
# Session 12: a fourth blind set over the same documents, and a second over ../shared/corpora/real-pdfs
# (the EPC SCT rulebook, the TAN/HHD specification, the EPRS briefing, the KID and the SIX QR-IID guide),
# both written from the PDF text alone by a session that saw no answer, eval output or baseline; each
# file split by the same rule on its own
REAL2_SET4_FILE = GOLDEN_DIR / "e2e_real2_set4.jsonl"
REAL_SET2_FILE = GOLDEN_DIR / "e2e_real_set2.jsonl"
# Session 18: a fifth blind set over the same documents, written from the PDF text alone by a helper
# session that ran no assistant and read no answer, eval output or baseline; split by the rule on its own
REAL2_SET5_FILE = GOLDEN_DIR / "e2e_real2_set5.jsonl"
# Session 20: a sixth, written the same way (a helper session that ran no assistant and read no answer,
# eval output or baseline), after the session's changes were made and recorded
REAL2_SET6_FILE = GOLDEN_DIR / "e2e_real2_set6.jsonl"
# Session 21: a seventh, written the same way by a helper session (no assistant run, no answer, eval output,
# baseline or bot code read), mostly over pages no earlier set cites; committed before any run
REAL2_SET7_FILE = GOLDEN_DIR / "e2e_real2_set7.jsonl"
# Session 22: an eighth, written the same way by a helper session, 86% of its cited pages cited by no earlier
# set; committed before any run
REAL2_SET8_FILE = GOLDEN_DIR / "e2e_real2_set8.jsonl"
# A ninth, written the same way by a helper session (no assistant run, no answer, eval output, baseline or bot code
# read), listing every page that states each answer's fact (an element's structure row and its own record, the
# datatype appendix, the EN and DE SIX documents); committed before any run
REAL2_SET9_FILE = GOLDEN_DIR / "e2e_real2_set9.jsonl"
# Session 26: a tenth, written the same way by a helper session (no assistant run, no answer, eval output, baseline or
# bot code read), every page that states a fact listed, 57 of its 65 answerable questions citing a page no earlier set
# cites; split by the rule and committed before any run
REAL2_SET10_FILE = GOLDEN_DIR / "e2e_real2_set10.jsonl"
# Session 27: a third blind set over ../shared/corpora/real-pdfs, written the same way by a helper session, 64 of its
# 65 answerable questions on pages no earlier set cites (the SCT rulebook's annexes, data sets and chapters 5-7, the
# chipTAN specification); split by the rule and committed before any run
REAL_SET3_FILE = GOLDEN_DIR / "e2e_real_set3.jsonl"
# Session 28: a fourth over real-pdfs, written the same way, 62 of its 65 answerable questions on pages no earlier set
# cites (the SCT rulebook's front matter, adherence agreement, ERI and change-management annexes; the chipTAN
# specification's first pages); split by the rule and committed before any run
REAL_SET4_FILE = GOLDEN_DIR / "e2e_real_set4.jsonl"
# Session 30: an eleventh over real-pdfs-2, written the same way by a helper session (no assistant run, no answer,
# eval output, baseline or bot code read); earlier sets cite nearly every page, so most of its questions ask facts
# of cited pages that no earlier question asks, in new forms; split by the rule and committed before any run
REAL2_SET11_FILE = GOLDEN_DIR / "e2e_real2_set11.jsonl"
# Session 32: a twelfth over real-pdfs-2, written the same way by a helper session (no assistant run, no answer,
# eval output, baseline or bot code read), preferring facts and forms no earlier set asks; split by the rule and
# committed before any run
REAL2_SET12_FILE = GOLDEN_DIR / "e2e_real2_set12.jsonl"
REAL2_FILES = (REAL2_FILE, REAL2_MORE_FILE, REAL2_SET3_FILE, REAL2_SET4_FILE, REAL_SET2_FILE, REAL2_SET5_FILE,
               REAL2_SET6_FILE, REAL2_SET7_FILE, REAL2_SET8_FILE, REAL2_SET9_FILE, REAL2_SET10_FILE,
               REAL_SET3_FILE, REAL_SET4_FILE, REAL2_SET11_FILE, REAL2_SET12_FILE)
E2E_FILES = ("e2e_sample.jsonl", "e2e_real_pdfs.jsonl", "e2e_real2.jsonl", "e2e_real2_more.jsonl",
             "e2e_real2_set3.jsonl", "e2e_real2_set4.jsonl", "e2e_real_set2.jsonl", "e2e_real2_set5.jsonl",
             "e2e_real2_set6.jsonl", "e2e_real2_set7.jsonl", "e2e_real2_set8.jsonl", "e2e_real2_set9.jsonl",
             "e2e_real2_set10.jsonl", "e2e_real_set3.jsonl", "e2e_real_set4.jsonl", "e2e_real2_set11.jsonl",
             "e2e_real2_set12.jsonl")
RETRIEVAL_FILES = ("retrieval_sample.jsonl", "retrieval_real.jsonl")


@pytest.fixture(scope="module")
def real2() -> list[GoldenQuestion]:
    return load_golden([REAL2_FILE])


def test_the_set_is_large_hard_and_mixed(real2):
    assert len(real2) >= 150
    assert {q.corpus for q in real2} == {"real2"}
    assert all(q.id.startswith("r2-") for q in real2)
    unanswerable = [q for q in real2 if not q.answerable]
    assert len(unanswerable) >= 25
    kinds = Counter(q.kind for q in real2)
    for kind in ("identifier", "table", "limit", "list_all", "definition", "multi_source", "paraphrase",
                 "cross_language", "other_scheme", "not_stated", "nonexistent"):
        assert kinds[kind] >= 3, kind
    assert {"nl", "fr", "de"} <= {q.language for q in real2 if q.kind == "cross_language"}
    assert {"nl", "fr", "de"} <= {q.language for q in unanswerable}
    # every document of real-pdfs-2 is asked about, and cross-document questions name two sources
    asked = {e.rulebook_id for q in real2 for e in q.expected}
    assert {"iso20022_mdr2_exceptions_investigations_2019_2020", "iso20022_mdr2_request_to_pay_v1",
            "nl_addendum_xml_sct_initiation_6-0", "six_ig-qr-bill-delta-guide-v2.3-en"} <= asked
    assert all(len(q.expected) >= 2 for q in real2 if q.kind == "multi_source")
    assert all(e.pages for q in real2 for e in q.expected), "every source names its page(s)"


def test_the_third_set_is_blind_mixed_and_spread():
    set3 = load_golden([REAL2_SET3_FILE])
    assert len(set3) == 60
    assert {q.corpus for q in set3} == {"real2"} and all(q.id.startswith("r2s3-") for q in set3)
    kinds = Counter(q.kind for q in set3)
    assert kinds["table"] >= 15 and kinds["list_all"] >= 5 and kinds["limit"] >= 5
    assert {k: kinds[k] for k in ("other_scheme", "not_stated", "nonexistent")} == {
        "other_scheme": 5, "not_stated": 5, "nonexistent": 4}
    assert {q.language for q in set3} == {"en", "nl", "de", "fr"}
    asked = {e.rulebook_id for q in set3 for e in q.expected}
    assert asked == {"iso20022_mdr2_exceptions_investigations_2019_2020", "iso20022_mdr2_request_to_pay_v1",
                     "nl_addendum_xml_sct_initiation_6-0", "six_ig-qr-bill-delta-guide-v2.3-en"}
    # `rulebook eval e2e --corpus real2` reads every e2e_*.jsonl, so it asks these questions too
    real2_ids = {q.id for q in load_golden() if q.corpus == "real2"}
    assert {q.id for q in set3} <= real2_ids


@pytest.mark.parametrize(("golden_file", "corpus", "prefix"), [
    (REAL2_SET4_FILE, "real2", "r2s4-"), (REAL_SET2_FILE, "real", "rs2-"), (REAL2_SET5_FILE, "real2", "r2s5-"),
    (REAL2_SET6_FILE, "real2", "r2s6-"), (REAL2_SET7_FILE, "real2", "r2s7-"), (REAL2_SET8_FILE, "real2", "r2s8-"),
    (REAL2_SET9_FILE, "real2", "r2s9-"), (REAL2_SET10_FILE, "real2", "r2s10-"),
    (REAL_SET3_FILE, "real", "rs3-"), (REAL_SET4_FILE, "real", "rs4-"), (REAL2_SET11_FILE, "real2", "r2s11-"),
    (REAL2_SET12_FILE, "real2", "r2s12-")],
    ids=lambda v: str(v)[-22:])
def test_the_sets_of_session_12_onwards_are_blind_mixed_and_mostly_on_topic_refusals(golden_file, corpus, prefix):
    questions = load_golden([golden_file])
    assert len(questions) == 100
    assert {q.corpus for q in questions} == {corpus} and all(q.id.startswith(prefix) for q in questions)
    unanswerable = [q for q in questions if not q.answerable]
    assert len(unanswerable) == 35
    kinds = Counter(q.kind for q in unanswerable)
    assert kinds["not_stated"] >= 10 and kinds["other_scheme"] >= 10 and kinds["nonexistent"] >= 5
    assert {"nl", "fr", "de"} <= {q.language for q in unanswerable}
    assert {"nl", "fr", "de"} <= {q.language for q in questions if q.kind == "cross_language"}
    answerable = Counter(q.kind for q in questions if q.answerable)
    assert answerable["table"] >= 10 and answerable["list_all"] >= 5 and answerable["limit"] >= 5
    assert all(len(q.expected) >= 2 for q in questions if q.kind == "multi_source")
    # `rulebook eval e2e --corpus <corpus>` reads every e2e_*.jsonl, so it asks these questions too
    assert {q.id for q in questions} <= {q.id for q in load_golden() if q.corpus == corpus}


def test_question_ids_are_unique_across_all_golden_files():
    ids = Counter(r["id"] for name in E2E_FILES + RETRIEVAL_FILES for r in _rows(name))
    assert [i for i, n in ids.items() if n > 1] == []


def _pdf(rulebook_id: str) -> Path:
    for folder in ("real-pdfs-2", "real-pdfs"):
        path = CORPORA / folder / f"{rulebook_id}.pdf"
        if path.is_file():
            return path
    raise AssertionError(f"{rulebook_id}: no such PDF in {CORPORA}/real-pdfs-2 or real-pdfs")


@pytest.mark.real_pdfs
@pytest.mark.parametrize("golden_file", REAL2_FILES, ids=lambda f: f.name)
def test_every_must_contain_string_is_on_an_expected_page(golden_file):
    if not (CORPORA / "real-pdfs-2").is_dir():
        pytest.skip(f"public PDFs not found at {CORPORA / 'real-pdfs-2'}")
    pages = PageTexts()
    unmet: list[str] = []
    for q in (q for q in load_golden([golden_file]) if q.answerable):
        texts = []
        for e in q.expected:
            for page in e.pages:
                text = pages.page(str(_pdf(e.rulebook_id)), page)
                assert text is not None, f"{q.id}: {e.rulebook_id} has no page {page}"
                texts.append(text)
        for entry in q.must_contain:
            options = [entry] if isinstance(entry, str) else entry
            if not any(contains(t, o) for t in texts for o in options):
                unmet.append(f"{q.id}: {entry!r}")
    assert unmet == []


@pytest.mark.real_pdfs
@pytest.mark.parametrize("golden_file", REAL2_FILES, ids=lambda f: f.name)
def test_cross_document_questions_need_both_sources(golden_file):
    """A two-document question has a key fact on each document's pages."""
    if not (CORPORA / "real-pdfs-2").is_dir():
        pytest.skip(f"public PDFs not found at {CORPORA / 'real-pdfs-2'}")
    pages = PageTexts()
    for q in (q for q in load_golden([golden_file]) if q.kind == "multi_source"):
        for e in q.expected:
            texts = [pages.page(str(_pdf(e.rulebook_id)), p) or "" for p in e.pages]
            assert any(contains(t, s) for t in texts for s in q.must_contain if isinstance(s, str)), (q.id, e)


def _rows(name: str) -> list[dict]:
    lines = (GOLDEN_DIR / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.lstrip().startswith("//")]


@pytest.mark.parametrize("name", E2E_FILES + RETRIEVAL_FILES)
def test_every_committed_line_follows_the_split_rule(name):
    rows = _rows(name)
    if name.startswith("e2e_"):
        strata = [(r["id"], GoldenQuestion.model_validate(r).kind) for r in rows]
    else:
        strata = [(r["id"], r.get("kind", "")) for r in rows]
    rule = stratified_split(strata)
    assert {r["id"]: r.get("split") for r in rows} == rule
    share = Counter(rule.values())["dev"] / len(rule)
    assert 0.4 <= share <= 0.6, share


def test_the_rule_is_stratified_and_depends_on_ids_only():
    items = [(f"q{i}", "identifier") for i in range(9)] + [(f"u{i}", "other_scheme") for i in range(4)]
    first = stratified_split(items)
    assert first == stratified_split(list(reversed(items)))
    by_kind = Counter((k, first[i]) for i, k in items)
    assert by_kind[("other_scheme", "dev")] == by_kind[("other_scheme", "test")] == 2
    assert abs(by_kind[("identifier", "dev")] - by_kind[("identifier", "test")]) == 1


def test_a_committed_line_without_split_is_refused(tmp_path, monkeypatch):
    line = {"id": "a", "question": "Q?", "language": "en", "expected": [{"rulebook_id": "PS-01", "pages": [2]}],
            "must_contain": ["x"], "categories": ["fact"]}
    scratch = tmp_path / "e2e_scratch.jsonl"
    scratch.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert load_golden([scratch])[0].split is None  # a scratch set outside evals/golden may be unsplit
    monkeypatch.setattr("evals.e2e_golden.GOLDEN_DIR", tmp_path)
    with pytest.raises(GoldenFormatError, match="need a split"):
        load_golden([scratch])
    with pytest.raises(GoldenFormatError, match="split"):
        parse_golden_lines([json.dumps(dict(line, split="train"))])


def test_real2_companions_are_copied_once_and_absent_folders_are_skipped(tmp_path):
    import asyncio

    from config.settings import Settings
    from evals.e2e_corpus import companion_folder, prepare_contexts

    source = tmp_path / "real-pdfs"
    source.mkdir()
    (source / "a.pdf").write_bytes(b"%PDF-1.4 a")
    target = Settings(data_dir=tmp_path / "data")
    folder = companion_folder(target, source, ("a.pdf", "missing.pdf"))
    assert folder is not None and sorted(p.name for p in folder.iterdir()) == ["a.pdf"]
    stamp = (folder / "a.pdf").stat().st_mtime_ns
    assert companion_folder(target, source, ("a.pdf",)) == folder
    assert (folder / "a.pdf").stat().st_mtime_ns == stamp  # unchanged: not copied again
    assert companion_folder(target, source, ("missing.pdf",)) is None

    async def contexts() -> tuple[dict, list[str]]:
        async with prepare_contexts(target, ["real2"], None, None, real2_pdfs=tmp_path / "absent") as got:
            return got

    found, skipped = asyncio.run(contexts())
    assert found == {} and skipped == [f"real2 questions: no PDFs at {tmp_path / 'absent'}"]
