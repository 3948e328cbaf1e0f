"""The default rerank: favour section coherence, collapse near-duplicates, rank older versions down.

Applied to the fused candidate list (30, best first) to choose the final 10. Fused RRF scores
are nearly flat (1/61 vs 1/65 for ranks 1 and 5 with k = 60), so the rerank works on positions:
a candidate at position r starts from 1 / (RANK_K + r), which lets coherence move a hit a few
places, never from the bottom of the list to the top.
1. Older versions down: candidates of one family (same catalog `series`; or same ISIN and
   language — the Dutch and French KIDs of one product are translations, not versions; or same
   language and same title once version words are stripped) that are present in several versions — the archived one, else the
   lower version, else the earlier vetting date — have their score multiplied by OLDER_VERSION_FACTOR.
2. Section coherence: a candidate whose section (rulebook + full section path; the page for
   chunks outside any section) holds other candidates is lifted by SECTION_LIFT per companion, at
   most MAX_COMPANIONS of them: several hits in one section are stronger evidence than one.
3. Near-duplicates collapse: walking the list best-first, a candidate whose word-trigram Jaccard
   similarity with an already kept one OF THE SAME RULEBOOK is at least DUPLICATE_JACCARD is
   dropped (repeated boilerplate, adjacent chunks that repeat a table header). Two versions of
   one text are never collapsed: they differ exactly in the figures a question may be about, and
   step 1 already ranks the older one down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from knowledge.payload import ChunkPayload
from knowledge.store import ScoredChunk

RANK_K = 5
OLDER_VERSION_FACTOR = 0.5
SECTION_LIFT = 0.2  # rank 2 with one companion overtakes a lone rank 1; rank 3 does not
MAX_COMPANIONS = 3
DUPLICATE_JACCARD = 0.8

_VERSION_WORDS = re.compile(
    r"\b(v(?:ersion|ersie)?\.?\s*\d+(?:\.\d+)*|\d{4}(?:-\d{2}){0,2}|archived|superseded|draft)\b", re.I)
_WORD = re.compile(r"\w+")


def family_keys(payload: ChunkPayload) -> set[str]:
    keys = set()
    if payload.series:
        keys.add(f"series:{payload.series}")
    if payload.isin:
        keys.add(f"isin:{payload.isin.upper()}:{payload.language}")
    title = " ".join(_WORD.findall(_VERSION_WORDS.sub(" ", payload.rulebook_title.lower())))
    if title:
        keys.add(f"title:{payload.language}:{title}")
    return keys


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version))


def recency(payload: ChunkPayload) -> tuple[int, tuple[int, ...], str]:
    """Sort key: larger is newer (active beats archived, then version, then vetting date)."""
    return (1 if payload.status == "vetted_active" else 0, _version_tuple(payload.version),
            payload.vetted_on or "")


def older_rulebook_ids(candidates: list[ChunkPayload]) -> set[str]:
    """Rulebook ids in the list that a newer version of the same family also appears in."""
    newest: dict[str, ChunkPayload] = {}
    for payload in candidates:
        for key in family_keys(payload):
            best = newest.get(key)
            if best is None or recency(payload) > recency(best):
                newest[key] = payload
    older = set()
    for payload in candidates:
        for key in family_keys(payload):
            best = newest[key]
            if best.rulebook_id != payload.rulebook_id and recency(best) > recency(payload):
                older.add(payload.rulebook_id)
    return older


def section_of(payload: ChunkPayload) -> tuple[str, ...]:
    if payload.section_path:
        return (payload.rulebook_id, *payload.section_path)
    return (payload.rulebook_id, f"page {payload.page_start}")


def _trigrams(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < 3:
        return {tuple(words)}
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def jaccard(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


@dataclass
class _Candidate:
    hit: ScoredChunk
    score: float


def section_coherence_rerank(candidates: list[ScoredChunk], k: int = 10) -> list[ScoredChunk]:
    if not candidates:
        return []
    older = older_rulebook_ids([c.payload for c in candidates])
    sections: dict[tuple[str, ...], int] = {}
    for c in candidates:
        sections[section_of(c.payload)] = sections.get(section_of(c.payload), 0) + 1
    scored = []
    for position, c in enumerate(candidates, start=1):
        score = 1 / (RANK_K + position)
        if c.payload.rulebook_id in older:
            score *= OLDER_VERSION_FACTOR
        companions = min(sections[section_of(c.payload)] - 1, MAX_COMPANIONS)
        score *= 1 + SECTION_LIFT * companions
        scored.append(_Candidate(c, score))
    scored.sort(key=lambda s: s.score, reverse=True)
    kept: list[tuple[_Candidate, set[tuple[str, ...]]]] = []
    for cand in scored:
        grams = _trigrams(cand.hit.payload.text)
        if any(other.hit.payload.rulebook_id == cand.hit.payload.rulebook_id
               and jaccard(grams, other_grams) >= DUPLICATE_JACCARD for other, other_grams in kept):
            continue
        kept.append((cand, grams))
        if len(kept) == k:
            break
    return [replace(c.hit, score=c.score) for c, _ in kept]
