"""The document system's webhook, and the server's indexing queue.

    POST /index/events        one document changed: {"event_id", "document_id", "action":
                              "upserted"|"withdrawn"|"deleted", "source": URL or path, ...}
                              (indexing/document_events.py) -> 202 {"job_id", "status_url"}
    GET  /index/jobs/{job_id} that job: queued, running, done (with its summary) or failed

Both exist only when RULEBOOK_INDEX_WEBHOOK_SECRET is set. Every request is signed:

    X-Rulebook-Timestamp: <unix seconds>
    X-Rulebook-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + raw body)>

(for the GET, the path stands in for the body). The raw body is signed byte for byte, with
the timestamp in front of it: a signature over the body alone would leave the timestamp header
forgeable, and with it the replay window. A timestamp more than 5 minutes off, or a signature
that does not match, is 401; a body that is not a valid event is 400; an event id seen before
is acknowledged (200, "duplicate") and not run again, so a captured request replayed within
the window does nothing, and a document system retrying a delivery does not re-index twice.

The queue (indexing/index_jobs.py) runs in this process whether or not the webhook is on: it is
also how `rulebook index` reaches a running server. After each switch to new chunks, the
server's cached searches are dropped so the next question sees the new text.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from cachetools import TTLCache
from pydantic import ValidationError

from config.settings import Settings

log = logging.getLogger("rulebook.index_webhook")

TIMESTAMP_HEADER = "X-Rulebook-Timestamp"
SIGNATURE_HEADER = "X-Rulebook-Signature"
TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 64 * 1024
# {"jobs": IndexJobs} once the app has started (set at mount: a started app's state is frozen)
INDEX_JOBS = web.AppKey("index_jobs", dict)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The X-Rulebook-Signature value for `body` sent at `timestamp` (what a document system computes)."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


class SignedRequests:
    """Signature, timestamp window and seen event ids (bounded, expiring after the window)."""

    def __init__(self, secret: str, clock: Callable[[], float] = time.time) -> None:
        self._secret = secret
        self.clock = clock
        self._seen: TTLCache[str, bool] = TTLCache(maxsize=100_000, ttl=2 * TOLERANCE_SECONDS + 60, timer=clock)
        self._lock = threading.Lock()

    def verify(self, request: web.Request, material: bytes) -> str | None:
        """None when authentic, else why not (for the 401)."""
        timestamp = request.headers.get(TIMESTAMP_HEADER, "")
        signature = request.headers.get(SIGNATURE_HEADER, "")
        if not timestamp or not signature:
            return f"missing {TIMESTAMP_HEADER} or {SIGNATURE_HEADER}"
        try:
            sent = float(timestamp)
        except ValueError:
            return "bad timestamp"
        if abs(self.clock() - sent) > TOLERANCE_SECONDS:
            return "timestamp outside the 5-minute window"
        if not hmac.compare_digest(sign(self._secret, timestamp, material), signature.strip()):
            return "bad signature"
        return None

    def first_time(self, event_id: str) -> bool:
        with self._lock:
            if event_id in self._seen:
                return False
            self._seen[event_id] = True
            return True


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


def mount_index_routes(app: web.Application, settings: Settings, knowledge: Callable[[], Any]) -> None:
    """The indexing queue (with `rulebook index`'s request folder) and, with a secret, the webhook."""
    from indexing.index_jobs import IndexJobs, RequestInbox

    state: dict[str, Any] = {}
    app[INDEX_JOBS] = state

    def switched(rulebook_id: str) -> None:
        forget = getattr(knowledge(), "forget_cached_results", None)
        if forget:
            forget(rulebook_id)

    async def start(app: web.Application) -> None:
        jobs = IndexJobs(settings, on_switched=switched)
        inbox = RequestInbox(settings, jobs)
        inbox.start()
        state["jobs"], state["inbox"] = jobs, inbox

    async def stop(_: web.Application) -> None:
        if "inbox" in state:
            state["inbox"].close()
            state["jobs"].close()

    app.on_startup.append(start)
    app.on_cleanup.insert(0, stop)  # before the index is closed
    if settings.index_webhook_secret is None or not settings.index_webhook_secret.get_secret_value():
        return
    signed = SignedRequests(settings.index_webhook_secret.get_secret_value())

    async def events(request: web.Request) -> web.Response:
        from indexing.document_events import DocumentEvent
        from indexing.index_jobs import QueueFullError

        if (request.content_length or 0) > MAX_BODY_BYTES:
            return _error(413, f"an event is at most {MAX_BODY_BYTES} bytes")
        body = await request.read()
        if len(body) > MAX_BODY_BYTES:
            return _error(413, f"an event is at most {MAX_BODY_BYTES} bytes")
        refused = signed.verify(request, body)
        if refused:
            log.warning("index event refused: %s", refused)
            return _error(401, refused)
        try:
            event = DocumentEvent.model_validate(json.loads(body))
        except (ValueError, ValidationError) as exc:
            return _error(400, f"not a document event: {exc}")
        if not signed.first_time(event.event_id):
            return web.json_response({"status": "duplicate", "event_id": event.event_id}, status=200)
        try:
            job = state["jobs"].submit_event(event)
        except QueueFullError as exc:
            return _error(503, str(exc))
        log.info("index event %s: %s %s -> %s", event.event_id, event.document_id, event.action, job.job_id)
        return web.json_response({"status": "accepted", "event_id": event.event_id, "job_id": job.job_id,
                                  "status_url": f"/index/jobs/{job.job_id}"}, status=202)

    async def job_status(request: web.Request) -> web.Response:
        refused = signed.verify(request, request.path.encode())
        if refused:
            return _error(401, refused)
        job = state["jobs"].get(request.match_info["job_id"])
        if job is None:
            return _error(404, "no such job")
        return web.json_response(job.to_dict())

    app.router.add_post("/index/events", events)
    app.router.add_get("/index/jobs/{job_id}", job_status)
