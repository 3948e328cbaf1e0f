"""Bad PDFs get a clear word and lose nothing: blank pages say "no text", a language we do not
speak is labelled as such and still found by keyword search, a PDF that runs code is indexed but
flagged (summary, inventory) and `/sources/` serves it as a download — over a real server."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import aiohttp
import pytest
from pypdf import PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from typer.testing import CliRunner

from adapters.cli import app as cli_app
from config.settings import reset_settings
from indexing.document_parser import parse_document
from indexing.pdf_text import PdfRejected
from indexing.pipeline import run_index
from knowledge.pdf_actions import AUTOMATIC, JAVASCRIPT, LAUNCH, OPEN_ACTION, active_content
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import lorem, write_partly_scanned, write_rulebook

SPANISH = {
    "1 Ámbito": ["El ordenante debe indicar el IBAN del beneficiario y su nombre. La entidad del ordenante "
                 "ejecutará la orden el mismo día en que la reciba, siempre que la reciba antes de la hora límite."],
    "1.1 Gastos": ["Los gastos se repartirán entre el ordenante y el beneficiario. Las órdenes recibidas después "
                   "de la hora límite se ejecutarán el siguiente día hábil con la referencia ESXREF77."],
}
PLAIN = {"Chapter 1 Scope": [lorem("scope", 3)], "1.1 Devices": [lorem("device", 4)]}


def write_blank(path: Path, pages: int = 2) -> Path:
    pdf = canvas.Canvas(str(path), pagesize=A4)
    for _ in range(pages):
        pdf.showPage()
    pdf.save()
    return path


def with_actions(source: Path, target: Path, *, javascript: bool = False, launch: bool = False,
                 page_actions: bool = False) -> Path:
    writer = PdfWriter(clone_from=str(source))
    if javascript:  # a document-level script in the /Names /JavaScript tree
        action = writer._add_object(DictionaryObject({
            NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject("app.alert('hi');")}))
        writer._root_object[NameObject("/Names")] = DictionaryObject({NameObject("/JavaScript"): DictionaryObject({
            NameObject("/Names"): ArrayObject([TextStringObject("greeting"), action])})})
    if launch:
        writer._root_object[NameObject("/OpenAction")] = DictionaryObject({
            NameObject("/S"): NameObject("/Launch"), NameObject("/F"): TextStringObject("calc.exe")})
    if page_actions:
        writer.pages[0][NameObject("/AA")] = DictionaryObject({NameObject("/O"): DictionaryObject({
            NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject("app.beep(0);")})})
    with target.open("wb") as out:
        writer.write(out)
    return target


def _index(folder: Path, data_dir: Path):
    data_dir.mkdir(exist_ok=True)
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    summary = run_index(folder, settings)
    keep_embedding_cache(data_dir)
    return settings, summary


# -- blank pages ---------------------------------------------------------------------------------
def test_a_pdf_of_blank_pages_is_reported_as_no_text_not_as_a_scan(tmp_path):
    with pytest.raises(PdfRejected) as blank:
        parse_document(write_blank(tmp_path / "blank.pdf"))
    assert blank.value.reason.startswith("no text") and "scan" not in blank.value.reason
    with pytest.raises(PdfRejected, match="no text layer .a scanned image"):
        parse_document(write_partly_scanned(tmp_path / "scan.pdf", scanned_pages={1, 2}, pages=2))


def test_the_summary_says_no_text_for_a_blank_pdf(tmp_path):
    folder = tmp_path / "books"
    folder.mkdir()
    write_blank(folder / "empty_export.pdf", pages=3)
    _, summary = _index(folder, tmp_path / "data")
    [report] = summary.failed
    assert report.file == "empty_export.pdf" and "blank" in report.reason and "scan" not in report.reason


# -- a language we do not speak --------------------------------------------------------------------
def test_a_spanish_document_is_labelled_spanish_indexed_for_keywords_and_warned_about(tmp_path):
    from knowledge.knowledge_base import KnowledgeBase

    folder = tmp_path / "books"
    folder.mkdir()
    write_rulebook(folder / "ES-01_reglamento.pdf", SPANISH, title="Reglamento de transferencias")
    write_rulebook(folder / "EN-01_rulebook.pdf", PLAIN, title="Device Rulebook")
    settings, summary = _index(folder, tmp_path / "data")
    by_id = {d.rulebook_id: d for d in summary.indexed}
    spanish = by_id["ES-01_reglamento"]
    assert any("language 'es'" in w and "not one the assistant speaks" in w for w in spanish.warnings)
    assert not by_id["EN-01_rulebook"].warnings
    knowledge = KnowledgeBase.from_settings(settings)
    try:
        assert {c.language for c in knowledge.store.scroll(None) if c.rulebook_id == "ES-01_reglamento"} == {"es"}
        hits = knowledge.search("ordenante beneficiario hora límite", mode="bm25")
        assert hits and hits[0].payload.rulebook_id == "ES-01_reglamento"
        assert knowledge.search("ESXREF77", mode="bm25")[0].payload.rulebook_id == "ES-01_reglamento"
    finally:
        knowledge.close()


# -- active content --------------------------------------------------------------------------------
def test_javascript_launch_and_automatic_actions_are_found_and_a_clean_pdf_has_none(tmp_path):
    clean = write_rulebook(tmp_path / "clean.pdf", PLAIN)
    assert active_content(clean) == []
    assert active_content(with_actions(clean, tmp_path / "js.pdf", javascript=True)) == [JAVASCRIPT]
    assert set(active_content(with_actions(clean, tmp_path / "launch.pdf", launch=True))) == {LAUNCH, OPEN_ACTION}
    assert set(active_content(with_actions(clean, tmp_path / "aa.pdf", page_actions=True))) == {AUTOMATIC, JAVASCRIPT}


def test_sample_corpus_and_real_pdfs_hold_no_active_content():
    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "examples" / "rulebooks").glob("*.pdf"))
    shared = root.parent / "shared" / "corpora" / "real-pdfs"
    files += sorted(shared.glob("*.pdf"))[:3]
    assert files
    assert {f.name: active_content(f) for f in files} == {f.name: [] for f in files}


def _inventory_json(folder: Path) -> dict:
    reset_settings()
    try:
        result = CliRunner().invoke(cli_app, ["inventory", str(folder), "--json"])
    finally:
        reset_settings()
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_a_pdf_with_javascript_is_indexed_flagged_and_served_as_a_download(tmp_path):
    from aiohttp import web

    from adapters.server import build_app
    from bot.agent.chat_models import load_chat_model
    from bot.service import AssistantService
    from events.usage_sinks import InMemorySink
    from knowledge.knowledge_base import KnowledgeBase

    folder = tmp_path / "books"
    folder.mkdir()
    clean = write_rulebook(folder / "PS-20_clean.pdf", PLAIN, title="Clean Rulebook")
    with_actions(write_rulebook(tmp_path / "source.pdf", PLAIN, title="Scripted Rulebook"),
                 folder / "PS-21_scripted.pdf", javascript=True, launch=True)
    settings, summary = _index(folder, tmp_path / "data")
    by_id = {d.rulebook_id: d for d in summary.indexed}
    assert by_id["PS-21_scripted"].outcome == "indexed" and by_id["PS-21_scripted"].chunks > 0
    assert set(by_id["PS-21_scripted"].active_content) == {JAVASCRIPT, LAUNCH, OPEN_ACTION}
    assert any("active content" in w for w in by_id["PS-21_scripted"].warnings)
    assert by_id["PS-20_clean"].active_content == []
    assert summary.to_dict()["documents_with_active_content"] == 1

    inventory = _inventory_json(folder)
    assert [(e["rulebook_id"], set(e["kinds"])) for e in inventory["flags"]["active_content"]] == [
        ("PS-21_scripted", {JAVASCRIPT, LAUNCH, OPEN_ACTION})]

    port = _free_port()
    settings = settings.model_copy(update={"public_base_url": f"http://127.0.0.1:{port}"})
    knowledge = KnowledgeBase.from_settings(settings)
    sink = InMemorySink()
    service = AssistantService(knowledge, load_chat_model("offline", knowledge), settings=settings, events=sink)
    runner = web.AppRunner(build_app(settings, service=service, event_sink=sink))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with aiohttp.ClientSession() as session:
            for rulebook_id, disposition in (("PS-21_scripted", "attachment"), ("PS-20_clean", "inline")):
                url = f"http://127.0.0.1:{port}/sources/{rulebook_id}?page=1"
                async with session.get(url) as response:  # follows the redirect to the file
                    body = await response.read()
                    assert response.status == 200 and body.startswith(b"%PDF")
                    assert response.headers["Content-Type"] == "application/pdf"
                    assert response.headers["Content-Disposition"].startswith(disposition), rulebook_id
                    assert response.headers["X-Content-Type-Options"] == "nosniff"
    finally:
        await runner.cleanup()
        knowledge.close()
    assert clean.is_file()
