"""The committed corpus is exactly what the generator produces, and the guide's page numbers hold."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from .conftest import read_pages


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def content(path: Path) -> object:
    """What a reader gets out of a file: page texts of a PDF, bytes of anything else.

    Comparing content rather than PDF bytes keeps the check true across reportlab/pypdf releases,
    which may change object layout or encryption salts without changing what the corpus says.
    """
    if path.suffix == ".pdf":
        try:
            return read_pages(path)
        except Exception as exc:  # corrupt or password-protected: how it fails is its content
            return ("unreadable", type(exc).__name__, str(exc))
    return digest(path)


def test_regenerating_reproduces_what_every_committed_file_says(corpus_dir: Path, tmp_path: Path) -> None:
    import make_sample_corpus

    make_sample_corpus.generate(tmp_path)
    fresh = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in corpus_dir.iterdir() if p.suffix in {".pdf", ".yaml", ".md"})
    assert fresh == committed
    differing = [name for name in fresh if content(tmp_path / name) != content(corpus_dir / name)]
    assert differing == [], "re-run scripts/make_sample_corpus.py and commit the result"


def test_two_runs_are_identical(tmp_path: Path) -> None:
    import make_sample_corpus

    a, b = tmp_path / "a", tmp_path / "b"
    make_sample_corpus.generate(a, with_readme=False)
    make_sample_corpus.generate(b, with_readme=False)
    for p in a.iterdir():
        assert digest(p) == digest(b / p.name), p.name


FACT_ROW = re.compile(r"^\| (\d+) \| (\S+) \| (.+?) \| (\d+) \| \"(.+)\" \| .* \|$")


def _facts(corpus_dir: Path) -> list[tuple[str, int, str]]:
    rows = []
    for line in (corpus_dir / "README.md").read_text(encoding="utf-8").splitlines():
        m = FACT_ROW.match(line)
        if m:
            rows.append((m.group(2), int(m.group(4)), m.group(5).replace("\\|", "|")))
    return rows


def test_readme_lists_at_least_forty_facts(corpus_dir: Path) -> None:
    assert len(_facts(corpus_dir)) >= 40


def test_every_fact_in_the_readme_is_on_the_page_it_names(corpus_dir: Path, entries: dict) -> None:
    import make_sample_corpus

    files = {e["id"]: e["file"] for e in entries.values()}
    files["NOTES-2025-04"] = "aurora_working_group_notes_2025-04.pdf"
    for doc_id, page, phrase in _facts(corpus_dir):
        text = re.sub(r"\s+", " ", read_pages(corpus_dir / files[doc_id])[page - 1])
        needle = make_sample_corpus.mojibake(phrase) if doc_id == "PS-12" else phrase
        # wrapped table cells come out of pdfium without the space at the line break
        assert needle in text or needle.replace(" ", "") in text.replace(" ", ""), (doc_id, page, phrase)


@pytest.mark.parametrize("flavor_kw", [{"flavor": "lattice", "copy_text": ["h", "v"]}])
def test_fee_table_is_found_by_camelot_lattice_with_its_spans(corpus_dir: Path, flavor_kw: dict) -> None:
    camelot = pytest.importorskip("camelot")
    tables = camelot.read_pdf(str(corpus_dir / "PS-08_fees_and_charges_schedule.pdf"), pages="4", **flavor_kw)
    fee = next(t.df for t in tables if t.df.iloc[0, 0] == "Segment")
    rows = fee.values.tolist()
    assert [r[0] for r in rows[1:]] == ["Domestic"] * 3 + ["Cross-border"] * 2
    assert len({r[3] for r in rows[1:]}) == 1 and "EUR 0.25 per refund" in rows[1][3]
