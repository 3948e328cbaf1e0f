"""Generations: how a rulebook is re-indexed while questions are answered, and why no question
ever sees half a document.

Every chunk point carries `generation_key` = "<rulebook_id>@<n>". The registry below keeps, per
store, the set of generation keys NO query may see (`hidden`); every query's access filter gets
`must_not generation_key in hidden` (edge_store / server_store add it inside the query, in every
prefetch leg). A re-index of one rulebook then runs:

1. `begin(rulebook)`: a new generation n+1 is added to `hidden` (and persisted) BEFORE any of its
   points is written, and the writer then waits for every query whose snapshot predates that
   (`wait_for_readers()`): such a snapshot does not hide n+1, so a query holding it must be done
   before n+1's first point exists;
2. the new chunks are upserted under new point ids (point id = chunk id + generation), so the
   old generation's points are untouched and every query still sees exactly the old document;
3. `commit(rulebook, n+1)`: in one step under the registry's lock, n+1 leaves `hidden` and n
   enters it. `hidden` is an immutable frozenset replaced by one assignment, and each query
   takes ONE snapshot of it when it starts: a query sees either {old visible, new hidden} or
   {old hidden, new visible}, never a mix, because no state lies between the two;
4. `wait_for_readers()`: queries that took their snapshot before the flip (and may still be
   paging through the old generation, e.g. reading a section) are counted per snapshot version;
   the writer waits until none is left;
5. only then are the old generation's points deleted, and its key leaves `hidden`.

A crash between 1 and 3 leaves the half-written generation in the persisted `hidden` set: it
stays invisible and the next run deletes it (`leftovers`). Points written before generations
existed have no `generation_key`; their rulebook's first switch hides them with a nested filter
("rulebook_id = X and generation_key is empty"), written `X@legacy` in `hidden`.

The registry is per process: the process that answers (`rulebook serve`) is also the one that
writes (webhook and `rulebook index` jobs run inside it), which the embedded engine's
one-process lock enforces anyway. Several bot replicas on one Qdrant cluster would need this
state in a shared place (the collection itself); that is not built.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LEGACY = "legacy"


def generation_key(rulebook_id: str, generation: int | str) -> str:
    return f"{rulebook_id}@{generation}"


def split_key(key: str) -> tuple[str, str]:
    rulebook_id, _, generation = key.rpartition("@")
    return rulebook_id, generation


class GenerationRegistry:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._cond = threading.Condition()
        self.active: dict[str, int] = {}
        self._hidden: frozenset[str] = frozenset()
        self._version = 0
        self._readers: Counter[int] = Counter()
        if path is not None and path.exists():
            raw = json.loads(path.read_text(encoding="utf-8"))
            self.active = {k: int(v) for k, v in raw.get("active", {}).items()}
            self._hidden = frozenset(raw.get("hidden", []))

    # --- readers -------------------------------------------------------------------------
    @property
    def hidden(self) -> frozenset[str]:
        return self._hidden

    @contextmanager
    def reading(self) -> Iterator[frozenset[str]]:
        """One consistent snapshot of what is hidden, held for the whole read (every page)."""
        with self._cond:
            version, hidden = self._version, self._hidden
            self._readers[version] += 1
        try:
            yield hidden
        finally:
            with self._cond:
                self._readers[version] -= 1
                if self._readers[version] <= 0:
                    del self._readers[version]
                self._cond.notify_all()

    def wait_for_readers(self, timeout: float = 60.0) -> bool:
        """Block until every read that started before the latest flip has finished."""
        deadline = time.monotonic() + timeout
        with self._cond:
            current = self._version
            while any(v < current for v in self._readers):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # --- the writer ----------------------------------------------------------------------
    def next_generation(self, rulebook_id: str) -> int:
        used = [self.active.get(rulebook_id, 0)]
        used += [int(g) for r, g in map(split_key, self._hidden) if r == rulebook_id and g.isdigit()]
        return max(used) + 1

    def begin(self, rulebook_id: str) -> int:
        with self._cond:
            generation = self.next_generation(rulebook_id)
            self._set_hidden(self._hidden | {generation_key(rulebook_id, generation)})
            return generation

    def commit(self, rulebook_id: str, generation: int) -> str:
        """Make `generation` the one queries see; returns the key of what it replaced (now hidden)."""
        with self._cond:
            old = self.active.get(rulebook_id)
            old_key = generation_key(rulebook_id, old if old is not None else LEGACY)
            self.active[rulebook_id] = generation
            self._set_hidden((self._hidden - {generation_key(rulebook_id, generation)}) | {old_key})
            return old_key

    def retire(self, rulebook_id: str) -> str:
        """Hide the rulebook altogether (deleted); returns the key now hidden."""
        with self._cond:
            old = self.active.pop(rulebook_id, None)
            old_key = generation_key(rulebook_id, old if old is not None else LEGACY)
            self._set_hidden(self._hidden | {old_key})
            return old_key

    def forget(self, key: str) -> None:
        """The points of `key` are gone: nothing left to hide."""
        with self._cond:
            if key in self._hidden:
                self._set_hidden(self._hidden - {key})

    def leftovers(self) -> list[str]:
        """Hidden generations whose points may still exist (a run that died half-way)."""
        return sorted(self._hidden)

    def _set_hidden(self, hidden: frozenset[str]) -> None:
        self._hidden = frozenset(hidden)
        self._version += 1
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"active": self.active, "hidden": sorted(self._hidden)}, indent=1),
                       encoding="utf-8")
        os.replace(tmp, self.path)


_shared: dict[Path, GenerationRegistry] = {}
_shared_lock = threading.Lock()


def shared_registry(path: Path) -> GenerationRegistry:
    """One registry per file and process: every store object on one index sees the same flips."""
    path = Path(path).resolve()
    with _shared_lock:
        if path not in _shared:
            _shared[path] = GenerationRegistry(path)
        return _shared[path]
