"""Putting one rulebook's new chunks live, or taking a rulebook out, without any question seeing
half of it: the writer's side of knowledge/generations.py (which says why it is atomic).

    publish(store, "PS-04", chunks)   hide generation n+1 -> wait for older readers -> write it -> flip ->
                                      wait for readers of n -> delete n
    retire(store, "PS-04")            hide the rulebook -> wait for its readers -> delete its points
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from knowledge.generations import GenerationRegistry, generation_key, split_key
from knowledge.store import StoredChunk

Switched = Callable[[str], None]  # called with the rulebook id right after the flip (result caches)


def _registry(store: Any) -> GenerationRegistry:
    registry = getattr(store, "generations", None)
    if registry is None:  # a store without generations (a test double): one in memory
        registry = store.generations = GenerationRegistry()
    return registry


def publish(store: Any, rulebook_id: str, chunks: Sequence[StoredChunk], on_switched: Switched | None = None,
            reader_timeout: float = 60.0) -> int:
    """Make `chunks` the rulebook's content in one switch; returns the new generation."""
    registry = _registry(store)
    generation = registry.begin(rulebook_id)  # hidden (and persisted) before its first point exists
    key = generation_key(rulebook_id, generation)
    # a query that took its snapshot before begin() does not hide the new generation: were its
    # points written while such a query is still on its way to the engine, it would find both
    # editions at once (seen under load: a search returning chunks of two generations)
    registry.wait_for_readers(reader_timeout)
    stamped = [StoredChunk(c.payload.model_copy(update={"generation": generation, "generation_key": key}),
                           c.dense, c.sparse) for c in chunks]
    try:
        store.upsert(stamped)
    except BaseException:
        store.delete_generation(key)
        registry.forget(key)
        raise
    old_key = registry.commit(rulebook_id, generation)  # the switch
    if on_switched:
        on_switched(rulebook_id)
    registry.wait_for_readers(reader_timeout)
    store.delete_generation(old_key)
    registry.forget(old_key)
    return generation


def retire(store: Any, rulebook_id: str, on_switched: Switched | None = None, reader_timeout: float = 60.0) -> None:
    """Take the rulebook out of every answer at once, then delete its points."""
    registry = _registry(store)
    old_key = registry.retire(rulebook_id)
    if on_switched:
        on_switched(rulebook_id)
    registry.wait_for_readers(reader_timeout)
    store.delete_rulebook(rulebook_id)
    registry.forget(old_key)


def clean_leftovers(store: Any) -> list[str]:
    """Delete generations a run that died half-way left behind (hidden, so never seen)."""
    registry = _registry(store)
    removed = []
    for key in registry.leftovers():
        rulebook_id, generation = split_key(key)
        if generation.isdigit() and registry.active.get(rulebook_id) == int(generation):
            registry.forget(key)  # defensive: an active generation is never hidden
            continue
        store.delete_generation(key)
        registry.forget(key)
        removed.append(key)
    return removed
