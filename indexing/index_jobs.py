"""Indexing inside the serving process: one worker thread, jobs from the webhook and from
`rulebook index` run in another terminal.

Why in the server: the embedded engine admits one process, and the process that answers is the
one that knows which generation every query may see (knowledge/generations.py). So `rulebook
serve` owns the store and every write goes through this queue, one job at a time (two re-indexes
of one rulebook must not interleave), while questions keep being answered from the live state.

How `rulebook index` reaches a running server (no port, no token): the server keeps
`<data dir>/serve.json` (its pid and a heartbeat every 2 s). The command sees it, drops a request
file into `<data dir>/index_requests/`, and the server picks it up within half a second, runs it,
and writes the job's progress and summary beside it; the command prints them as they come. Who
can write the data dir could change the index files anyway, so the folder's permissions are the
authentication.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from indexing.document_events import DocumentEvent

if TYPE_CHECKING:
    from config.settings import Settings

log = logging.getLogger("rulebook.index_jobs")

JobState = Literal["queued", "running", "done", "failed"]
PRESENCE_FILE = "serve.json"
REQUESTS_DIR = "index_requests"
HEARTBEAT_SECONDS = 2.0
STALE_AFTER_SECONDS = 10.0
QUEUE_LIMIT = 100
KEPT_JOBS = 500


class QueueFullError(RuntimeError):
    pass


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class IndexJob:
    job_id: str
    kind: Literal["event", "folder", "fill"]
    what: str  # "PS-04 upserted" / the folder
    state: JobState = "queued"
    submitted_at: str = field(default_factory=_now)
    started_at: str | None = None
    finished_at: str | None = None
    switched_at: str | None = None  # when the first rulebook's new chunks went live
    progress: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class IndexJobs:
    """The serving process's indexing queue (one worker thread)."""

    def __init__(self, settings: Settings, on_switched: Callable[[str], None] | None = None,
                 fill_at_start: bool = True) -> None:
        self.settings = settings
        self.on_switched = on_switched
        self._queue: queue.Queue[tuple[IndexJob, Callable[[IndexJob], dict[str, Any]]] | None] = \
            queue.Queue(maxsize=QUEUE_LIMIT)
        self._jobs: OrderedDict[str, IndexJob] = OrderedDict()
        self._lock = threading.Lock()
        self._listeners: list[Callable[[IndexJob], None]] = []
        self._stop = threading.Event()  # set on close: a dense fill ends after its current batch
        # a dense fill (minutes to hours for a new corpus) gives way to any job queued behind it
        # (a webhook's one-section change must not wait for it) and is queued again after it
        self._fill_yield = _YieldToQueue(self._stop, self._queue)
        self._worker = threading.Thread(target=self._work, name="rulebook-indexing", daemon=True)
        self._worker.start()
        if fill_at_start:
            self.submit_fill()

    def submit_fill(self) -> IndexJob:
        """Dense vectors a fast first pass (or an interrupted run) left to fill (indexing/dense_fill.py)."""
        from indexing.pipeline import Indexer

        job = IndexJob(f"job-{uuid.uuid4().hex}", "fill", "dense vectors")

        def run(job: IndexJob) -> dict[str, Any]:
            return Indexer(self.settings, self._progress(job), on_switched=self._switched(job),
                           stop=self._fill_yield).fill_dense_only().to_dict()

        return self._submit(job, run)

    # --- submitting ------------------------------------------------------------------------
    def submit_event(self, event: DocumentEvent) -> IndexJob:
        from indexing.document_events import apply_event

        job = IndexJob(f"job-{uuid.uuid4().hex}", "event", f"{event.document_id} {event.action}")

        def run(job: IndexJob) -> dict[str, Any]:
            return apply_event(event, self.settings, self._progress(job), self._switched(job),
                               stop=self._fill_yield).to_dict()

        return self._submit(job, run)

    def submit_folder(self, folder: Path, job_id: str | None = None) -> IndexJob:
        from indexing.pipeline import Indexer

        job = IndexJob(job_id or f"job-{uuid.uuid4().hex}", "folder", str(folder))

        def run(job: IndexJob) -> dict[str, Any]:
            return Indexer(self.settings, self._progress(job), on_switched=self._switched(job),
                           stop=self._fill_yield).run(folder).to_dict()

        return self._submit(job, run)

    def _submit(self, job: IndexJob, run: Callable[[IndexJob], dict[str, Any]]) -> IndexJob:
        with self._lock:
            self._jobs[job.job_id] = job
            while len(self._jobs) > KEPT_JOBS:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].state in ("queued", "running"):
                    break
                self._jobs.popitem(last=False)
        try:
            self._queue.put_nowait((job, run))
        except queue.Full as exc:
            with self._lock:
                self._jobs.pop(job.job_id, None)
            raise QueueFullError(f"{QUEUE_LIMIT} indexing jobs are already waiting; try again later") from exc
        self._notify(job)
        return job

    def get(self, job_id: str) -> IndexJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def on_change(self, listener: Callable[[IndexJob], None]) -> None:
        self._listeners.append(listener)

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Every job submitted so far finished (tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                busy = any(j.state in ("queued", "running") for j in self._jobs.values())
            if not busy:
                return True
            time.sleep(0.02)
        return False

    def close(self, timeout: float = 120.0) -> None:
        self._stop.set()
        self._queue.put(None)
        self._worker.join(timeout)

    # --- the worker ------------------------------------------------------------------------
    def _progress(self, job: IndexJob) -> Callable[[int, int, str], None]:
        def progress(done: int, total: int, what: str) -> None:
            job.progress = {"done": done, "total": total, "what": what}
            self._notify(job)

        return progress

    def _switched(self, job: IndexJob) -> Callable[[str], None]:
        def switched(rulebook_id: str) -> None:
            job.switched_at = job.switched_at or _now()
            if self.on_switched:
                self.on_switched(rulebook_id)

        return switched

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            job, run = item
            job.state, job.started_at = "running", _now()
            self._notify(job)
            try:
                job.summary = run(job)
                job.state = "done"
                summary = job.summary or {}
                if summary.get("dense_stopped") and summary.get("dense_pending") and not self._stop.is_set():
                    self.submit_fill()  # it gave way to a queued job: carry on after that one
            except Exception as exc:  # noqa: BLE001 — a failed job is reported, the queue goes on
                log.warning("indexing job %s (%s) failed: %s", job.job_id, job.what, exc)
                job.error, job.state = f"{type(exc).__name__}: {exc}", "failed"
            job.finished_at = _now()
            self._notify(job)

    def _notify(self, job: IndexJob) -> None:
        for listener in list(self._listeners):
            try:
                listener(job)
            except Exception:  # noqa: BLE001
                log.exception("job listener failed")


class _YieldToQueue:
    """The indexer's stop signal (`is_set()`): the server is closing, or another job waits."""

    def __init__(self, stop: threading.Event, waiting: queue.Queue[Any]) -> None:
        self._stop, self._waiting = stop, waiting

    def is_set(self) -> bool:
        return self._stop.is_set() or not self._waiting.empty()


# --- serve.json and the request folder ------------------------------------------------------
def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


class RequestInbox:
    """The serving side: a heartbeat in serve.json, and a thread taking request files to the queue."""

    def __init__(self, settings: Settings, jobs: IndexJobs, poll_seconds: float = 0.5) -> None:
        self.data_dir = Path(settings.data_dir)
        self.folder = self.data_dir / REQUESTS_DIR
        self.jobs = jobs
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rulebook-index-inbox", daemon=True)
        jobs.on_change(self._report)

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._beat()
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        presence = self.data_dir / PRESENCE_FILE
        with contextlib.suppress(FileNotFoundError, ValueError):
            if json.loads(presence.read_text(encoding="utf-8")).get("pid") == os.getpid():
                presence.unlink()

    def _beat(self) -> None:
        _write_json(self.data_dir / PRESENCE_FILE, {"pid": os.getpid(), "heartbeat": time.time(),
                                                    "requests": str(self.folder)})

    def _run(self) -> None:
        last_beat = time.monotonic()
        while not self._stop.wait(self.poll_seconds):
            if time.monotonic() - last_beat >= HEARTBEAT_SECONDS:
                self._beat()
                last_beat = time.monotonic()
            for request in sorted(self.folder.glob("*.request.json")):
                self._take(request)

    def _take(self, request: Path) -> None:
        job_id = request.name.removesuffix(".request.json")
        try:
            raw = json.loads(request.read_text(encoding="utf-8"))
            request.unlink()
            folder = Path(raw["folder"])
            if not folder.is_dir():
                raise ValueError(f"not a folder: {folder}")
            self.jobs.submit_folder(folder, job_id=job_id)
        except FileNotFoundError:
            return  # taken by another poll
        except (ValueError, KeyError, QueueFullError) as exc:
            request.unlink(missing_ok=True)
            _write_json(self.folder / f"{job_id}.status.json",
                        IndexJob(job_id, "folder", "", state="failed", error=str(exc), finished_at=_now()).to_dict())

    def _report(self, job: IndexJob) -> None:
        if job.kind == "folder" and job.job_id.startswith("req-"):
            _write_json(self.folder / f"{job.job_id}.status.json", job.to_dict())


def running_server(data_dir: Path) -> dict[str, Any] | None:
    """serve.json of a live `rulebook serve` on this data dir, or None."""
    try:
        presence = json.loads((Path(data_dir) / PRESENCE_FILE).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    pid = int(presence.get("pid", 0))
    if pid <= 0 or time.time() - float(presence.get("heartbeat", 0)) > STALE_AFTER_SECONDS:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, another user's
    return presence


def submit_to_server(data_dir: Path, folder: Path) -> str:
    job_id = f"req-{uuid.uuid4().hex}"
    _write_json(Path(data_dir) / REQUESTS_DIR / f"{job_id}.request.json", {"folder": str(Path(folder).resolve())})
    return job_id


def wait_for_job(data_dir: Path, job_id: str, on_status: Callable[[dict[str, Any]], None] | None = None,
                 timeout: float = 24 * 3600.0, poll_seconds: float = 0.25) -> dict[str, Any]:
    """The job's last status (state done or failed), reporting each new one to `on_status`."""
    status_file = Path(data_dir) / REQUESTS_DIR / f"{job_id}.status.json"
    request_file = Path(data_dir) / REQUESTS_DIR / f"{job_id}.request.json"
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while time.monotonic() < deadline:
        try:
            status = json.loads(status_file.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            status = {}
        if status and status != last:
            last = status
            if on_status:
                on_status(status)
            if status.get("state") in ("done", "failed"):
                status_file.unlink(missing_ok=True)
                return status
        if not status and request_file.exists() and running_server(data_dir) is None:
            request_file.unlink(missing_ok=True)
            raise RuntimeError("the server stopped before taking the indexing request")
        time.sleep(poll_seconds)
    raise TimeoutError(f"indexing job {job_id} did not finish in {timeout:.0f} s")
