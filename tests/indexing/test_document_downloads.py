"""A document the webhook downloads: a new version under another name replaces the old file
under the data dir (the old one is kept while the new one fails), deletion removes it."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest

from indexing.document_events import DocumentEvent, apply_event
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import lorem, write_rulebook


@pytest.fixture
def pdf_server(tmp_path):
    served = tmp_path / "dms"
    served.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _event(n: int, action: str, source: str | None = None) -> DocumentEvent:
    return DocumentEvent(event_id=f"evt-{n}", document_id="DL-01", action=action, source=source,  # type: ignore[arg-type]
                         title="Download Test Rulebook", version=str(n), changed_by="dms")


def test_a_new_download_replaces_the_old_file_and_deletion_removes_it(tmp_path, pdf_server):
    served, base = pdf_server
    data_dir = tmp_path / "data"
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    write_rulebook(served / "dl-v1.pdf", {"Chapter 1 Scope": [lorem("scope", 3)]}, title="Download Test Rulebook")
    write_rulebook(served / "dl-v2.pdf", {"Chapter 1 Scope": [lorem("scope", 3)], "1.1 New": [lorem("new", 3)]},
                   title="Download Test Rulebook")
    (served / "broken.pdf").write_bytes(b"%PDF-1.4 not really a PDF")
    incoming = data_dir / "incoming" / "DL-01"

    assert apply_event(_event(1, "upserted", f"{base}/dl-v1.pdf"), settings).indexed
    assert sorted(p.name for p in incoming.iterdir()) == ["dl-v1.pdf"]

    failed = apply_event(_event(2, "upserted", f"{base}/broken.pdf"), settings)
    assert not failed.indexed  # the index still holds version 1: its file stays
    assert "dl-v1.pdf" in {p.name for p in incoming.iterdir()}

    assert apply_event(_event(3, "upserted", f"{base}/dl-v2.pdf"), settings).indexed
    assert sorted(p.name for p in incoming.iterdir()) == ["dl-v2.pdf"]

    apply_event(_event(4, "deleted"), settings)
    assert not incoming.exists()
    keep_embedding_cache(data_dir)


def test_a_local_source_is_never_removed(tmp_path):
    data_dir, folder = tmp_path / "data", tmp_path / "mine"
    folder.mkdir()
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    first = write_rulebook(folder / "a.pdf", {"Chapter 1 Scope": [lorem("scope", 3)]})
    second = write_rulebook(folder / "b.pdf", {"Chapter 1 Scope": [lorem("scope", 4)]})
    assert apply_event(_event(1, "upserted", str(first)), settings).indexed
    assert apply_event(_event(2, "upserted", str(second)), settings).indexed
    assert first.is_file() and second.is_file()
    keep_embedding_cache(data_dir)
