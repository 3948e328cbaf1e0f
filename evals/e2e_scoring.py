"""Score one answered (or refused) golden question, and sum a run up.

Scoring reads only what reached the user (the released tokens and the final answer's citations)
and the index itself (the cited chunk, the cited PDF page): never the bot's own verdicts.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.answer import Answer, Citation
from evals.citation_check import (
    PageTexts,
    Sentence,
    contains,
    is_claim,
    quote_in_chunk,
    quote_on_page,
    sentence_support,
    split_sentences,
)
from evals.e2e_golden import ExpectedSource, GoldenQuestion
from evals.e2e_guidelines import detect_violations, must_contain_hits
from knowledge.payload import ChunkPayload


@dataclass
class QuestionRun:
    """What one question produced: the final answer, the text the user saw, and timings."""

    answer: Answer | None
    released_text: str
    latency_ms: float
    first_token_ms: float | None = None
    statuses: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class CitationCheck:
    n: int
    rulebook_id: str
    page: int
    section_path: list[str]
    chunk_id: str
    verified: bool
    matches_expected: bool
    problems: list[str] = field(default_factory=list)
    quote: str = ""


@dataclass
class QuestionResult:
    id: str
    question: str
    corpus: str
    persona: str
    roles: list[str]
    kind: str
    categories: list[str]
    language: str
    answerable: bool
    outcome: str  # answered | refused | blocked | error
    reason: str | None
    answer: str
    citations: list[CitationCheck]
    citation_ok: bool | None  # None when not answered
    expected_cited: bool | None
    all_expected_cited: bool | None
    section_match: bool | None
    must_contain: list[bool]
    unsupported: list[dict[str, str]]
    violations: list[dict[str, str]]
    correct_refusal: bool | None  # None for answerable questions
    retrieval_hit: bool | None = None
    retrieval_rank: int | None = None
    latency_ms: float = 0.0
    first_token_ms: float | None = None
    tool_calls: int = 0
    judge_score: float | None = None
    judge_reason: str | None = None
    error: str | None = None
    # a calibration run (thresholds at 0): what the offline model's answer/refuse decision was made
    # from (`bot.offline.offline_model.Decision`), for `evals.calibration` to replay any threshold
    decision: dict[str, Any] | None = None

    @property
    def must_contain_ok(self) -> bool:
        return all(self.must_contain) if self.must_contain else True

    @property
    def passed(self) -> bool:
        if self.error or self.unsupported or self.violations:
            return False
        if not self.answerable:
            return bool(self.correct_refusal)
        return self.outcome == "answered" and bool(self.citation_ok) and self.must_contain_ok

    def signature(self) -> tuple[Any, ...]:
        """What must stay the same between two runs of one question for it not to "flip"."""
        top = self.citations[0].chunk_id if self.citations else None
        return (self.outcome, self.citation_ok, tuple(self.must_contain), bool(self.unsupported),
                bool(self.violations), top)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["passed"] = self.passed
        data["must_contain_ok"] = self.must_contain_ok
        return data


class IndexView:
    """Every stored chunk by id (all roles, all statuses): what a citation is checked against."""

    def __init__(self, payloads: Sequence[ChunkPayload], page_texts: PageTexts | None = None) -> None:
        self.by_id: dict[str, ChunkPayload] = {p.chunk_id: p for p in payloads}
        self.by_rulebook: dict[str, list[ChunkPayload]] = {}
        for p in payloads:
            self.by_rulebook.setdefault(p.rulebook_id, []).append(p)
        self.page_texts = page_texts or PageTexts()

    def restricted(self) -> dict[str, set[str]]:
        """rulebook id -> roles allowed to see it, for rulebooks not visible to everyone."""
        out: dict[str, set[str]] = {}
        for rulebook_id, chunks in self.by_rulebook.items():
            roles = {r for c in chunks for r in c.roles}
            if roles:
                out[rulebook_id] = roles
        return out

    def titles(self) -> dict[str, str]:
        return {rid: chunks[0].rulebook_title for rid, chunks in self.by_rulebook.items()}

    def find_chunk(self, citation: Citation) -> ChunkPayload | None:
        if citation.chunk_id and citation.chunk_id in self.by_id:
            return self.by_id[citation.chunk_id]
        for chunk in self.by_rulebook.get(citation.rulebook_id, []):
            if chunk.page_start <= citation.page <= chunk.page_end and quote_in_chunk(
                    citation.quote, chunk.text, chunk.tables_csv):
                return chunk
        return None


def _matches(citation: Citation, chunk: ChunkPayload | None, expected: ExpectedSource) -> bool:
    if citation.rulebook_id != expected.rulebook_id:
        return False
    return not expected.pages or citation.page in expected.pages


def _section_matches(citation: Citation, chunk: ChunkPayload | None, expected: ExpectedSource) -> bool:
    if expected.section is None:
        return True
    paths = list(citation.section_path) + (list(chunk.section_path) if chunk else [])
    wanted = expected.section.casefold()
    return any(str(p).casefold() == wanted or str(p).casefold().endswith("." + wanted) for p in paths)


def check_citation(citation: Citation, q: GoldenQuestion, index: IndexView) -> CitationCheck:
    problems: list[str] = []
    chunk = index.find_chunk(citation)
    if chunk is None:
        problems.append("cited chunk is not in the index")
    else:
        if chunk.rulebook_id != citation.rulebook_id:
            problems.append(f"chunk belongs to {chunk.rulebook_id}, citation names {citation.rulebook_id}")
        if not chunk.page_start <= citation.page <= chunk.page_end:
            problems.append(f"page {citation.page} outside the chunk's pages {chunk.page_start}-{chunk.page_end}")
        if not quote_in_chunk(citation.quote, chunk.text, chunk.tables_csv):
            problems.append("quoted span is not in the cited chunk")
        page_text = index.page_texts.page(chunk.source_uri, citation.page)
        if page_text is not None and not quote_on_page(citation.quote, page_text):
            # A sentence may run over a page break: it still counts when it starts on the cited page,
            # or ends there (bot.gate.citation_pages cites the page holding most of its words).
            following = index.page_texts.page(chunk.source_uri, citation.page + 1) or ""
            previous = index.page_texts.page(chunk.source_uri, citation.page - 1) or ""
            # (a short quote may have fewer than 8 words on either side of the break: half of it then)
            words = citation.quote.split()
            reach = min(8, max(3, len(words) // 2))
            opening, ending = " ".join(words[:reach]), " ".join(words[-reach:])
            starts_here = contains(page_text, opening) and quote_on_page(citation.quote, page_text + "\n" + following)
            ends_here = bool(previous) and contains(page_text, ending) \
                and quote_on_page(citation.quote, previous + "\n" + page_text)
            if not (starts_here or ends_here):
                problems.append(f"quoted span is not on page {citation.page} of the PDF")
    matches = any(_matches(citation, chunk, e) for e in q.expected)
    return CitationCheck(n=citation.n, rulebook_id=citation.rulebook_id, page=citation.page,
                         section_path=list(citation.section_path), chunk_id=citation.chunk_id,
                         verified=not problems, matches_expected=matches, problems=problems,
                         quote=citation.quote[:200])


def _source_reference(citation: Citation) -> str:
    """What a frame sentence may name without a quote: the source's id, title, section, page."""
    return " ".join([citation.rulebook_id, citation.title, *citation.section_path, citation.section_title,
                     f"page {citation.page}", str(citation.page)])


def _cited_span(citation: Citation, index: IndexView) -> str:
    """What a citation stands for: its quote and the whole cited chunk (a quote is only the one
    sentence or row of the chunk that matches best, cut at a few hundred characters)."""
    chunk = index.find_chunk(citation)
    if chunk is None:
        return citation.quote
    return "\n".join([citation.quote, chunk.text, *chunk.tables_csv])


def unsupported_sentences(answer: Answer, released_text: str, index: IndexView) -> list[dict[str, str]]:
    """Sentences the user saw that their cited span does not support (independent of the gate)."""
    by_n = {c.n: c for c in answer.citations}
    spans = {c.n: _cited_span(c, index) for c in answer.citations}
    refs = [_source_reference(c) for c in answer.citations]
    out: list[dict[str, str]] = []
    for sentence in split_sentences(released_text):
        if not is_claim(sentence):
            continue
        missing = [n for n in sentence.cites if n not in by_n]
        if missing:
            out.append({"sentence": sentence.text, "reason": f"marker(s) {missing} have no citation"})
            continue
        cited = [by_n[n] for n in sentence.cites]
        if cited:
            support = [spans[c.n] for c in cited] + [_source_reference(c) for c in cited]
        else:  # an uncited line (a table row, a frame sentence) must hold only what the sources hold
            support = list(spans.values()) + refs
        cross = any(c.language != answer.language or c.translation_note for c in (cited or answer.citations))
        verdict = sentence_support(Sentence(sentence.text, sentence.cites, sentence.is_table_row), support, cross)
        if not verdict.supported:
            out.append({"sentence": sentence.text, "reason": verdict.reason})
    return out


def score_question(q: GoldenQuestion, run: QuestionRun, index: IndexView, roles: Sequence[str]) -> QuestionResult:
    answer = run.answer
    if answer is None:
        return QuestionResult(
            id=q.id, question=q.question, corpus=q.corpus, persona=q.persona, roles=list(roles), kind=q.kind,
            categories=q.categories, language=q.language, answerable=q.answerable, outcome="error",
            reason=run.error, answer="", citations=[], citation_ok=None, expected_cited=None,
            all_expected_cited=None, section_match=None, must_contain=[False] * len(q.must_contain),
            unsupported=[], violations=[], correct_refusal=False if not q.answerable else None,
            latency_ms=run.latency_ms, error=run.error)
    text = run.released_text or answer.text
    answered = answer.outcome == "answered"
    checks = [check_citation(c, q, index) for c in answer.citations] if answered else []
    citation_ok = expected_cited = all_expected = section_match = None
    if answered:
        verified = bool(checks) and all(c.verified for c in checks)
        expected_cited = any(c.matches_expected for c in checks) if q.expected else True
        citation_ok = verified and expected_cited
        all_expected = all(any(_matches(c, index.find_chunk(c), e) for c in answer.citations)
                           for e in q.expected) if q.expected else True
        section_match = any(_section_matches(c, index.find_chunk(c), e) and _matches(c, None, e)
                            for c in answer.citations for e in q.expected) if q.expected else True
    unsupported = unsupported_sentences(answer, text, index) if answered else []
    cited_spans = [_cited_span(c, index) for c in answer.citations]
    violations = detect_violations(text, cited_spans, q.must_not, q.canary, q.must_not_contain,
                                   refusal=not answered)
    correct_refusal = None
    if not q.answerable:
        correct_refusal = answer.outcome in ("refused", "blocked") and not violations
    return QuestionResult(
        id=q.id, question=q.question, corpus=q.corpus, persona=q.persona, roles=list(roles), kind=q.kind,
        categories=q.categories, language=q.language, answerable=q.answerable, outcome=answer.outcome,
        reason=answer.reason, answer=text, citations=checks, citation_ok=citation_ok,
        expected_cited=expected_cited, all_expected_cited=all_expected, section_match=section_match,
        must_contain=must_contain_hits(text, q.must_contain) if answered else [False] * len(q.must_contain),
        unsupported=unsupported, violations=[{"kind": v.kind, "evidence": v.evidence} for v in violations],
        correct_refusal=correct_refusal, latency_ms=run.latency_ms, first_token_ms=run.first_token_ms,
        tool_calls=answer.tool_calls)


# ---------------------------------------------------------------------------------------------
# The summary


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1], 1)


def summarise(results: Sequence[QuestionResult]) -> dict[str, Any]:
    total = len(results)
    outcomes = Counter(r.outcome for r in results)
    answered = [r for r in results if r.outcome == "answered"]
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    mc_entries = sum(len(r.must_contain) for r in answerable)
    mc_hits = sum(sum(r.must_contain) for r in answerable)
    retrieval = [r for r in answerable if r.retrieval_hit is not None]
    violations = Counter(v["kind"] for r in results for v in r.violations)
    judged = [r.judge_score for r in results if r.judge_score is not None]
    by_kind: dict[str, dict[str, Any]] = {}
    for kind in sorted({r.kind for r in results}):
        group = [r for r in results if r.kind == kind]
        by_kind[kind] = {"questions": len(group), "passed": sum(r.passed for r in group)}
    latencies = [r.latency_ms for r in results if r.error is None]
    first_tokens = [r.first_token_ms for r in results if r.first_token_ms is not None]
    answered_answerable = [r for r in answered if r.answerable]
    # each share's count and the questions it is out of: the share itself and its interval are built from it
    fractions = {
        "answerable_answered": [sum(r.outcome == "answered" for r in answerable), len(answerable)],
        "citation_correctness": [sum(bool(r.citation_ok) for r in answered), len(answered)],
        "citation_expected_rate": [sum(bool(r.expected_cited) for r in answered_answerable), len(answered_answerable)],
        "correct_refusals": [sum(bool(r.correct_refusal) for r in unanswerable), len(unanswerable)],
        "must_contain_all": [sum(r.outcome == "answered" and r.must_contain_ok for r in answerable), len(answerable)],
        "retrieval_hit_rate": [sum(bool(r.retrieval_hit) for r in retrieval), len(retrieval)],
    }
    return {
        "question_count": total,
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "answered": _share(outcomes["answered"], total),
        "refused": _share(outcomes["refused"], total),
        "blocked": _share(outcomes["blocked"], total),
        "errors": outcomes["error"],
        "counts": dict(outcomes),
        "answerable_answered": _share(*fractions["answerable_answered"]),
        "citation_correctness": _share(*fractions["citation_correctness"]),
        "citation_expected_rate": _share(*fractions["citation_expected_rate"]),
        "correct_refusals": _share(*fractions["correct_refusals"]),
        "correct_refusal_count": fractions["correct_refusals"][0],
        "unsupported_sentences": sum(len(r.unsupported) for r in results),
        "must_contain_rate": _share(mc_hits, mc_entries),
        "must_contain_all": _share(*fractions["must_contain_all"]),
        "guideline_violations": sum(violations.values()),
        "violations_by_kind": dict(violations),
        "retrieval_hit_rate": _share(*fractions["retrieval_hit_rate"]),
        "latency_ms_p50": _percentile(latencies, 50),
        "latency_ms_p95": _percentile(latencies, 95),
        "first_token_ms_p50": _percentile(first_tokens, 50),
        "first_token_ms_p95": _percentile(first_tokens, 95),
        "judge_mean": round(statistics.fmean(judged), 3) if judged else None,
        "passed": sum(r.passed for r in results),
        "fractions": fractions,
        "by_kind": by_kind,
    }


def failing(results: Sequence[QuestionResult]) -> list[dict[str, Any]]:
    """One line per failing question with the reason(s), for the report and the baseline."""
    out = []
    for r in results:
        if r.passed:
            continue
        why: list[str] = []
        if r.error:
            why.append(f"error: {r.error}")
        if r.answerable and r.outcome != "answered":
            why.append(f"not answered ({r.outcome}: {r.reason})")
        if not r.answerable and not r.correct_refusal:
            why.append(f"unanswerable but {r.outcome}")
        if r.outcome == "answered" and r.answerable and not r.citation_ok:
            bad = [f"[{c.n}] {c.rulebook_id} p{c.page}: {'; '.join(c.problems) or 'not an expected source'}"
                   for c in r.citations if c.problems or not c.matches_expected]
            why.append("citation: " + (" | ".join(bad) or "no citation"))
        if r.outcome == "answered" and not r.must_contain_ok:
            why.append(f"must_contain missed: {r.must_contain}")
        why.extend(f"unsupported: {u['sentence'][:80]!r} ({u['reason']})" for u in r.unsupported)
        why.extend(f"violation {v['kind']}: {v['evidence'][:80]!r}" for v in r.violations)
        out.append({"id": r.id, "why": why})
    return out

