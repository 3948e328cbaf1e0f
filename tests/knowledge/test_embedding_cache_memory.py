"""The embedding cache keeps recently read vectors in memory in front of SQLite (the offline model
reads span vectors for every answer): same vectors, bounded, and a replaced vector is never
served stale."""

from __future__ import annotations

import knowledge.embedding_cache as embedding_cache
from knowledge.embedding_cache import EmbeddingCache


def test_vectors_read_once_come_from_memory_after(tmp_path, monkeypatch):
    monkeypatch.setattr(embedding_cache, "_MEMORY_VECTORS", 3)
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    try:
        cache.put_many("m", [(f"d{i}", [float(i), 0.5]) for i in range(5)])
        assert cache.get_many("m", ["d0", "d1", "nope"]) == {"d0": [0.0, 0.5], "d1": [1.0, 0.5]}
        with cache._lock:
            cache._db.execute("DELETE FROM embedding")  # behind the cache's back: only memory is left
            cache._db.commit()
        assert cache.get_many("m", ["d0", "d1", "d2"]) == {"d0": [0.0, 0.5], "d1": [1.0, 0.5]}
        assert cache.get_many("other-model", ["d0"]) == {}  # keyed by model too
        cache.put_many("m", [("d1", [9.0, 9.0])])  # replaced: the new vector, from memory or disk
        assert cache.get_many("m", ["d1"]) == {"d1": [9.0, 9.0]}
        cache.put_many("m", [(f"e{i}", [1.0, 1.0]) for i in range(3)])
        cache.get_many("m", ["e0", "e1", "e2"])
        assert len(cache._memory) == 3  # bounded
    finally:
        cache.close()
