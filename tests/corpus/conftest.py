"""Fixtures for tests about the sample corpus itself (examples/rulebooks/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS = REPO_ROOT / "examples" / "rulebooks"
SCRIPTS = REPO_ROOT / "scripts"

if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def catalog() -> dict:
    return yaml.safe_load((CORPUS / "catalog.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def entries(catalog: dict) -> dict[str, dict]:
    return {e["id"]: e for e in catalog["documents"]}


def read_pages(path: Path, password: str | None = None) -> list[str]:
    pdf = pdfium.PdfDocument(path, password=password)
    try:
        return [page.get_textpage().get_text_bounded() for page in pdf]
    finally:
        pdf.close()


@pytest.fixture(scope="session")
def page_texts(entries: dict[str, dict]) -> dict[str, list[str]]:
    """Text per page of every catalogued file that opens without a password."""
    out = {}
    for doc_id, e in entries.items():
        try:
            out[doc_id] = read_pages(CORPUS / e["file"])
        except pdfium.PdfiumError:
            continue
    return out
