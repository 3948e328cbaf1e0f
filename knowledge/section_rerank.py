"""The default rerank: favour section coherence, collapse near-duplicates, rank older versions down.

Applied to the fused candidate list (30, best first) to choose the final 10. It works on
positions, not on fused scores, and every move is bounded: the fused order is already good
(hybrid's MRR is the best single figure on our golden sets), so coherence may only nudge.
An earlier version multiplied scores by up to 1.6 for three companions, which moved lone top
hits down four or five places and cost MRR on both golden sets; the bounds below never do.
1. Section coherence: a candidate whose section (rulebook + full section path; the page for
   chunks outside any section) holds other candidates within the first LIFT_WINDOW positions
   moves up one place per such companion, at most MAX_LIFT places, and never above the fused
   first hit: several hits in one section are stronger evidence than one, but not strong enough
   to overturn the hit both legs agree on best (letting coherence unseat it cost 0.5 of
   reciprocal rank on three real-PDF questions for one gained).
2. Older versions down: candidates of one family (same catalog `series` and language; or same ISIN and
   language — the Dutch and French KIDs of one product are translations, not versions; or same
   language and same title once version words are stripped) present in several versions — the
   archived one, else the lower version, else the earlier vetting date — are placed just below
   the best-placed candidate of their newest version (preferably the same section), but never
   more than OLDER_VERSION_DROP places lower. Not when the question itself asks about the past
   ("before 2025", "the 2024 schedule", "previous version"): then the older text IS the answer
   and the versions compete on their fused rank.
3. Near-duplicate neighbours collapse: walking the list best-first, a candidate whose
   word-trigram Jaccard similarity with an already kept NEIGHBOUR (same rulebook, and same section
   or adjacent chunk) is at least DUPLICATE_JACCARD is dropped (a page header repeated with little
   else, a table continued under its repeated header). The same boilerplate in two sections stays:
   it means something different in each (ObliQA's gold passages include such pairs). Two
   versions of one text are never collapsed: they differ exactly in the figures a question may be about, and
   step 2 already ranks the older one down.
4. After the moves of steps 1 and 2, a table of contents goes to the end of the list: a chunk most of whose lines are
   entries led by dots to a page number (`is_contents`). It names every message, element and
   section of its document with almost no other words, so BM25 ranks it first for any identifier it
   lists ("camt.087" found the contents pages of the E&I report above the message's own section),
   and coherence lifted its pages together; yet it answers nothing. It stays a candidate (a question
   about the document's outline still finds it when nothing else does).
"""

from __future__ import annotations

import re

from knowledge.payload import ChunkPayload
from knowledge.store import ScoredChunk
from knowledge.word_forms import fold_accents

LIFT_WINDOW = 10
MAX_LIFT = 2
PROTECTED_TOP = 1
OLDER_VERSION_DROP = 5
DUPLICATE_JACCARD = 0.9

_VERSION_WORDS = re.compile(
    r"\b(v(?:ersion|ersie)?\.?\s*\d+(?:\.\d+)*|\d{4}(?:-\d{2}){0,2}|archived|superseded|draft)\b", re.I)
_WORD = re.compile(r"\w+")
# an entry of a table of contents: a title led by dots (or an ellipsis) to a page number
_CONTENTS_ENTRY = re.compile(r"(?:\.{4,}|…{2,}|(?:\. ){3,})\s*\d{1,4}\s*$")
CONTENTS_SHARE = 0.6  # of a chunk's lines (at least CONTENTS_LINES of them) that are such entries
CONTENTS_LINES = 3
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
# Words that turn a question to an earlier state of the rules (en, nl, fr, de; accents folded).
# Common words that only sometimes mean "before" (nl "voor", de "vor", "bis") are left out.
_PAST_TEXT = """
    before previous prior earlier former older archived superseded withdrawn outdated
    vorige vorig eerdere eerder oude vroeger vroegere gearchiveerd vervangen ingetrokken
    avant precedent precedente precedents ancien ancienne anciens anciennes archivee remplace
    vorherige vorherigen vorheriger fruhere fruher fruheren alte alten bisherige archiviert ersetzt
"""
_PAST_WORDS = frozenset(_PAST_TEXT.split())


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


def _same_family(a: ChunkPayload, b: ChunkPayload) -> bool:
    if a.series and b.series and a.series == b.series:
        # a catalog series joins versions; two languages of one series are translations
        return a.language == b.language
    return bool(family_keys(a) & family_keys(b))


def newer_versions(candidates: list[ChunkPayload]) -> dict[str, str]:
    """Rulebook id of each older version in the list -> rulebook id of its newest version there."""
    books = {p.rulebook_id: p for p in candidates}
    newest: dict[str, str] = {}
    for rulebook_id, payload in books.items():
        best = payload
        for other in books.values():
            if other.rulebook_id != rulebook_id and _same_family(payload, other) and recency(other) > recency(best):
                best = other
        if best.rulebook_id != rulebook_id:
            newest[rulebook_id] = best.rulebook_id
    return newest


def older_rulebook_ids(candidates: list[ChunkPayload]) -> set[str]:
    """Rulebook ids in the list that a newer version of the same family also appears in."""
    return set(newer_versions(candidates))


def asks_about_the_past(query: str, older: list[ChunkPayload], newer: list[ChunkPayload]) -> bool:
    """True when the question is about an earlier state: a past word ("before", "previous",
    "vorige", "ancien"...) or a year that only the older versions carry (id, title, version,
    vetting or withdrawal date)."""
    words = set(_WORD.findall(fold_accents(query).lower()))
    if words & _PAST_WORDS:
        return True
    years = set(_YEAR.findall(query))
    if not years:
        return False

    def years_of(payloads: list[ChunkPayload]) -> set[str]:
        text = " ".join(f"{p.rulebook_id} {p.rulebook_title} {p.version} {p.vetted_on or ''} {p.withdrawn_on or ''}"
                        for p in payloads)
        return set(_YEAR.findall(text))

    return bool(years & (years_of(older) - years_of(newer)))


def section_of(payload: ChunkPayload) -> tuple[str, ...]:
    if payload.section_path:
        return (payload.rulebook_id, *payload.section_path)
    return (payload.rulebook_id, f"page {payload.page_start}")


def neighbours(a: ChunkPayload, b: ChunkPayload) -> bool:
    """Same rulebook, and the same section or adjacent chunks. The same sentence in two sections
    ("This Section applies if ...") means two different things, so both stay."""
    return a.rulebook_id == b.rulebook_id and (section_of(a) == section_of(b) or abs(a.chunk_index - b.chunk_index) <= 1)


def _trigrams(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < 3:
        return {tuple(words)}
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def jaccard(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def is_contents(payload: ChunkPayload) -> bool:
    """Is this chunk a table of contents (see step 0 of the module docstring)?"""
    lines = [line for line in payload.text.split("\n") if line.strip()]
    if len(lines) < CONTENTS_LINES:
        return False
    return sum(bool(_CONTENTS_ENTRY.search(line)) for line in lines) >= CONTENTS_SHARE * len(lines)


def _coherence_order(candidates: list[ScoredChunk]) -> list[int]:
    """Indexes of the candidates after the bounded section lift (stable otherwise)."""
    window: dict[tuple[str, ...], int] = {}
    for c in candidates[:LIFT_WINDOW]:
        window[section_of(c.payload)] = window.get(section_of(c.payload), 0) + 1
    keys: list[float] = []
    for index, c in enumerate(candidates):
        own = 1 if index < LIFT_WINDOW else 0
        companions = window.get(section_of(c.payload), 0) - own
        # half a place more than the lift: a lifted hit passes the one it catches up with; the
        # fused first hit stays first (both legs agreeing on it outweighs coherence elsewhere)
        lift = min(companions, MAX_LIFT, index - PROTECTED_TOP) + 0.5 if companions > 0 and index > PROTECTED_TOP else 0
        keys.append(index - lift)
    return sorted(range(len(candidates)), key=lambda i: (keys[i], i))


def _version_order(candidates: list[ScoredChunk], order: list[int], query: str | None) -> list[int]:
    payloads = [c.payload for c in candidates]
    newer = newer_versions(payloads)
    if not newer:
        return order
    older = [p for p in payloads if p.rulebook_id in newer]
    current = [p for p in payloads if p.rulebook_id in set(newer.values())]
    if query and asks_about_the_past(query, older, current):
        return order
    place = {index: position for position, index in enumerate(order)}
    keys: dict[int, float] = {}
    for index in order:
        payload = payloads[index]
        key: float = place[index]
        newest = newer.get(payload.rulebook_id)
        if newest is not None:
            siblings = [place[i] for i in order if payloads[i].rulebook_id == newest]
            same_section = [place[i] for i in order if payloads[i].rulebook_id == newest
                            and payloads[i].section_path == payload.section_path]
            anchor = min(same_section or siblings)
            if anchor > key:  # never more than OLDER_VERSION_DROP places
                key = min(anchor, key + OLDER_VERSION_DROP) + 0.5
        keys[index] = key
    return sorted(order, key=lambda i: (keys[i], place[i]))


def section_coherence_rerank(candidates: list[ScoredChunk], k: int = 10,
                             query: str | None = None) -> list[ScoredChunk]:
    """The final k of the fused candidates (best first); `query` lets a question about the past
    keep older versions where fusion placed them."""
    if not candidates:
        return []
    order = _version_order(candidates, _coherence_order(candidates), query)
    contents = {i for i, c in enumerate(candidates) if is_contents(c.payload)}
    if contents:  # after the lifts: contents pages lift each other by coherence
        order = [i for i in order if i not in contents] + [i for i in order if i in contents]
    # a text's trigrams only when a kept neighbour asks for them (most hits have none): the
    # trigrams of 30 chunk texts were the largest part of a search's CPU
    grams: dict[int, set[tuple[str, ...]]] = {}

    def trigrams_of(index: int) -> set[tuple[str, ...]]:
        if index not in grams:
            grams[index] = _trigrams(candidates[index].payload.text)
        return grams[index]

    kept: list[int] = []
    for index in order:
        hit = candidates[index]
        if any(neighbours(candidates[other].payload, hit.payload)
               and jaccard(trigrams_of(index), trigrams_of(other)) >= DUPLICATE_JACCARD for other in kept):
            continue
        kept.append(index)
        if len(kept) == k:
            break
    # each hit keeps the score it came with (RRF, or the model reranker's): the order is ours
    return [candidates[index] for index in kept]
