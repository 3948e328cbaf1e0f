"""The embedded store's points held in numpy for queries: the same hybrid query as the engine's,
without the engine call and without validating 30 payloads per question.

Qdrant stays the store of record: every point is written to the EdgeShard first, and this copy
is changed by the same `EdgeStore` write, under the same shard lock, right after the engine
accepted it (upsert, set a dense vector, delete by id / generation / rulebook). The copy is built
once from the shard (one scroll with vectors, under the lock) at the first query that wants it,
and dropped (queries go back to the engine until it is rebuilt) if a write to it ever fails.
It exists only for the embedded engine; a Qdrant server (`ServerStore`) answers its own queries.

Why the generation guarantee (knowledge/generations.py) still holds: a query here takes the
registry's ONE snapshot of `hidden` exactly as the engine path does and applies it as the same
`must_not` (a numbered key hides its points; "X@legacy" hides X's points without a key). Under
the shard lock this copy holds exactly the points the shard holds (each write changes both
before the lock is released), so a query sees {old visible, new hidden} or {old hidden, new
visible}, never a mix, for the same reason as in the engine: the new generation's points are in
before the flip, the flip is one assignment, and the old ones are deleted only after every
reader of the old snapshot has finished.

Scores are the engine's: cosine on unit vectors; BM25 with Qdrant's IDF modifier, idf = ln(1 +
(N - n + 0.5) / (n + 0.5)) over every point of the shard with a BM25 vector (hidden ones too, as
the engine counts them) times the stored term weight times the query's; reciprocal rank fusion
1 / (k + rank) with ranks from 0 (checked against the engine in tests/knowledge/test_live_points.py).
The legs are exact where the engine's dense leg may use its HNSW graph (approximate), so on a
large collection a hit may differ where the graph missed it; ties are ordered by point id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from knowledge.generations import LEGACY, split_key
from knowledge.payload import ChunkPayload
from knowledge.store import AccessFilter, ScoredChunk, SparseVector, query_legs, reading_order_ties

# fields a query filters on, each held as one integer code per point
_CODED = ("status", "rulebook_id", "language", "rulebook_type", "section_key", "generation_key")


class _Codes:
    """Values of one payload field as small integers; 0 = the field is missing or null, which is
    what the engine's IsEmpty condition matches (an empty string is a value to it)."""

    def __init__(self) -> None:
        self.of: dict[str | None, int] = {None: 0}

    def code(self, value: str | None) -> int:
        return self.of.setdefault(value, len(self.of))

    def codes(self, values: Iterable[str]) -> list[int]:
        return [self.of[v] for v in values if v in self.of]


@dataclass
class _Row:
    point_id: str
    payload: ChunkPayload
    terms: np.ndarray
    weights: np.ndarray
    has_sparse: bool


class LivePoints:
    """`with_vectors=False`: payloads and filter fields only (the engine ranks; a copy of a large
    collection's BM25 postings would cost ~100 MB of Python dicts at 13,000 points)."""

    def __init__(self, dim: int, with_vectors: bool = True) -> None:
        self.dim = dim
        self.with_vectors = with_vectors
        self._capacity = 0
        self._n = 0  # rows used (alive or deleted)
        self._row_of: dict[str, int] = {}
        self._rows: list[_Row | None] = []
        self._alive = np.zeros(0, bool)
        self._dense = np.zeros((0, dim if with_vectors else 0), np.float32)
        self._has_dense = np.zeros(0, bool)
        self._public = np.zeros(0, bool)
        self._roles: dict[str, np.ndarray] = {}
        self._field_codes = {name: _Codes() for name in _CODED}
        self._fields = {name: np.zeros(0, np.int32) for name in _CODED}
        self._postings: dict[int, dict[int, float]] = {}  # term -> row -> stored weight
        self._compiled: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._with_sparse = 0  # N of the IDF: live points holding a BM25 vector

    # --- writes (called under the shard lock, after the engine accepted the same write) -------
    def upsert(self, point_id: str, payload: ChunkPayload, dense: Sequence[float] | None,
               sparse: SparseVector | None, stored: dict[str, Any] | None = None) -> None:
        """`stored`: the payload as the engine holds it (a field it lacks is "empty" to a filter)."""
        if point_id in self._row_of:
            self._remove(self._row_of.pop(point_id))
        row = self._new_row()
        self._row_of[point_id] = row
        terms = np.asarray(sparse.indices if sparse else [], np.int64)
        weights = np.asarray(sparse.values if sparse else [], np.float32)
        self._rows[row] = _Row(point_id, payload, terms, weights, sparse is not None)
        self._alive[row] = True
        if not self.with_vectors:
            sparse, dense = None, None
            terms, weights = terms[:0], weights[:0]
            self._rows[row] = _Row(point_id, payload, terms, weights, False)
        self._set_dense_row(row, dense)
        self._public[row] = not payload.roles
        for role in payload.roles:
            if role not in self._roles:
                self._roles[role] = np.zeros(self._capacity, bool)
            self._roles[role][row] = True
        for name in _CODED:
            value = stored.get(name) if stored is not None else getattr(payload, name)
            self._fields[name][row] = self._field_codes[name].code(value)
        if sparse is not None:
            self._with_sparse += 1
            for term, weight in zip(terms.tolist(), weights.tolist(), strict=True):
                self._postings.setdefault(term, {})[row] = weight
                self._compiled.pop(term, None)

    def set_dense(self, point_id: str, dense: Sequence[float]) -> None:
        row = self._row_of.get(point_id)
        if row is not None and self.with_vectors:
            self._set_dense_row(row, dense)

    def drop_vectors(self) -> None:
        """Keep payloads only from now on (the collection outgrew exact in-process queries)."""
        self.with_vectors = False
        self._postings, self._compiled, self._with_sparse = {}, {}, 0
        self._dense = np.zeros((self._capacity, 0), np.float32)
        self._has_dense[:] = False
        for record in self._rows:
            if record is not None:
                record.terms, record.weights, record.has_sparse = record.terms[:0], record.weights[:0], False

    def delete(self, point_ids: Iterable[str]) -> None:
        for point_id in point_ids:
            row = self._row_of.pop(point_id, None)
            if row is not None:
                self._remove(row)

    def delete_where(self, rulebook_id: str | None = None, generation_key: str | None = None,
                     legacy_of: str | None = None) -> None:
        """Delete a rulebook's points, one generation's, or a rulebook's points without a key."""
        book, key = self._fields["rulebook_id"][:self._n], self._fields["generation_key"][:self._n]
        matches = np.zeros(self._n, bool)
        if rulebook_id is not None:
            matches |= book == self._field_codes["rulebook_id"].of.get(rulebook_id, -1)
        if generation_key is not None:
            matches |= key == self._field_codes["generation_key"].of.get(generation_key, -1)
        if legacy_of is not None:
            matches |= (book == self._field_codes["rulebook_id"].of.get(legacy_of, -1)) & (key == 0)
        self.delete([self._rows[r].point_id for r in np.flatnonzero(matches & self._alive[:self._n]).tolist()])  # type: ignore[union-attr]

    def __len__(self) -> int:
        return len(self._row_of)

    def _new_row(self) -> int:
        if self._n == self._capacity:
            self._grow(max(1024, self._capacity * 2))
        self._rows.append(None)
        self._n += 1
        return self._n - 1

    def _grow(self, capacity: int) -> None:
        def grown(array: np.ndarray) -> np.ndarray:
            out = np.zeros((capacity, *array.shape[1:]), array.dtype)
            out[:self._capacity] = array[:self._capacity]
            return out

        self._alive, self._has_dense, self._public = grown(self._alive), grown(self._has_dense), grown(self._public)
        self._dense = grown(self._dense)
        self._roles = {role: grown(mask) for role, mask in self._roles.items()}
        self._fields = {name: grown(codes) for name, codes in self._fields.items()}
        self._capacity = capacity

    def _set_dense_row(self, row: int, dense: Sequence[float] | None) -> None:
        if dense is None or len(dense) == 0:
            self._has_dense[row] = False
            return
        vector = np.asarray(dense, np.float32)
        norm = float(np.linalg.norm(vector))
        self._dense[row] = vector / norm if norm > 0 else vector  # the engine stores cosine vectors unit length
        self._has_dense[row] = True

    def _remove(self, row: int) -> None:
        record = self._rows[row]
        self._rows[row] = None
        self._alive[row] = self._has_dense[row] = False
        if record is None:
            return
        for role in record.payload.roles:
            self._roles[role][row] = False
        if record.has_sparse:
            self._with_sparse -= 1
            for term in record.terms.tolist():
                postings = self._postings.get(term)
                if postings is not None:
                    postings.pop(row, None)
                    if not postings:
                        del self._postings[term]
                self._compiled.pop(term, None)

    # --- the query -----------------------------------------------------------------------------
    def mask(self, access: AccessFilter | None, hidden: frozenset[str]) -> np.ndarray:
        """Rows the query may see: edge_store.edge_filter's rules, evaluated on the copy."""
        n = self._n
        keep = self._alive[:n].copy()
        if access is not None:
            visible = self._public[:n].copy()
            for role in access.roles:
                if role in self._roles:
                    visible |= self._roles[role][:n]
            keep &= visible
            for name, values in (("status", access.statuses), ("rulebook_id", access.rulebook_ids),
                                 ("language", access.languages), ("rulebook_type", access.rulebook_types)):
                if values:
                    keep &= np.isin(self._fields[name][:n], self._field_codes[name].codes(values))
            if access.section_key is not None:
                keep &= np.isin(self._fields["section_key"][:n], self._field_codes["section_key"].codes([access.section_key]))
        numbered = [k for k in hidden if split_key(k)[1] != LEGACY]
        if numbered:
            keep &= ~np.isin(self._fields["generation_key"][:n], self._field_codes["generation_key"].codes(numbered))
        for key in hidden - set(numbered):
            rulebook = self._field_codes["rulebook_id"].of.get(split_key(key)[0])
            if rulebook is not None:
                keep &= ~((self._fields["rulebook_id"][:n] == rulebook) & (self._fields["generation_key"][:n] == 0))
        return keep

    def _dense_leg(self, vector: Sequence[float], keep: np.ndarray, limit: int) -> list[tuple[int, float]]:
        rows = np.flatnonzero(keep & self._has_dense[:self._n])
        if rows.size == 0:
            return []
        query = np.asarray(vector, np.float32)
        norm = float(np.linalg.norm(query))
        # every row at once (one matrix-vector product, no copy of the matrix), then the kept ones
        scores = self._dense[:self._n] @ (query / norm if norm > 0 else query)
        return self._top(rows, scores[rows], limit)

    def compile_postings(self) -> None:
        """Every term's postings as arrays now (a write recompiles only the terms it touched, at
        the next query that asks for them)."""
        for term in self._postings:
            self._postings_of(term)

    def _postings_of(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        compiled = self._compiled.get(term)
        if compiled is None:
            postings = self._postings.get(term, {})
            compiled = self._compiled[term] = (np.fromiter(postings.keys(), np.int64, len(postings)),
                                               np.fromiter(postings.values(), np.float32, len(postings)))
        return compiled

    def _sparse_leg(self, sparse: SparseVector, keep: np.ndarray, limit: int) -> list[tuple[int, float]]:
        scores = np.zeros(self._n, np.float32)
        touched = np.zeros(self._n, bool)
        total = float(self._with_sparse)
        for term, weight in zip(sparse.indices, sparse.values, strict=True):
            rows, values = self._postings_of(int(term))
            if rows.size == 0:
                continue
            n = rows.size
            idf = np.float32(np.log1p((total - n + 0.5) / (n + 0.5)))
            scores[rows] += values * np.float32(weight) * idf
            touched[rows] = True
        rows = np.flatnonzero(touched & keep)
        return self._top(rows, scores[rows], limit) if rows.size else []

    def _top(self, rows: np.ndarray, scores: np.ndarray, limit: int) -> list[tuple[int, float]]:
        if rows.size > limit:
            part = np.argpartition(-scores, limit - 1)[:limit]
            rows, scores = rows[part], scores[part]
        ids = [self._rows[r].point_id for r in rows.tolist()]  # type: ignore[union-attr]
        order = sorted(range(len(ids)), key=lambda i: (-float(scores[i]), ids[i]))
        return [(int(rows[i]), float(scores[i])) for i in order]

    def query(self, dense: list[float] | None, sparse: SparseVector | None, access: AccessFilter | None,
              hidden: frozenset[str], leg_limit: int, fused_limit: int, rrf_k: int) -> list[ScoredChunk]:
        if not self.with_vectors:
            raise RuntimeError("this copy holds payloads only: the engine ranks")
        legs = query_legs(dense, sparse)
        if not legs:
            return []
        keep = self.mask(access, hidden)
        ranked = [self._dense_leg(vector, keep, leg_limit if len(legs) > 1 else fused_limit) if name == "dense"
                  else self._sparse_leg(vector, keep, leg_limit if len(legs) > 1 else fused_limit)  # type: ignore[arg-type]
                  for name, vector, _ in legs]
        if len(legs) == 1:
            return reading_order_ties([ScoredChunk(self._payload(row), score, {legs[0][0]: rank})
                                       for rank, (row, score) in enumerate(ranked[0], start=1)])
        fused: dict[int, float] = {}
        for leg in ranked:
            for rank, (row, _) in enumerate(leg):
                fused[row] = fused.get(row, 0.0) + 1.0 / (rrf_k + rank)
        order = sorted(fused, key=lambda r: (-fused[r], self._rows[r].point_id))[:fused_limit]  # type: ignore[union-attr]
        return reading_order_ties([ScoredChunk(self._payload(row), float(np.float32(fused[row]))) for row in order])

    def payloads_of(self, point_ids: Sequence[str]) -> list[ChunkPayload] | None:
        """The payloads of these points, or None if one is not in the copy."""
        rows = [self._row_of.get(point_id) for point_id in point_ids]
        if any(row is None for row in rows):
            return None
        return [self._payload(row) for row in rows]  # type: ignore[arg-type]

    def _payload(self, row: int) -> ChunkPayload:
        # shared with the copy: the answer path reads payloads, it never changes them
        return self._rows[row].payload  # type: ignore[union-attr]


def build(records: Iterable[Any], dim: int, dense_name: str, sparse_name: str, with_vectors: bool = True
          ) -> LivePoints:
    """A copy of the shard's points from its scroll records (payload and vectors)."""
    live = LivePoints(dim, with_vectors)
    for record in records:
        vectors = record.vector or {}
        raw_sparse = vectors.get(sparse_name)
        sparse = SparseVector(list(raw_sparse.indices), list(raw_sparse.values)) if raw_sparse is not None else None
        live.upsert(str(record.id), ChunkPayload.model_validate(record.payload), vectors.get(dense_name), sparse,
                    record.payload)
    live.compile_postings()
    return live
