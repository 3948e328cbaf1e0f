"""ObliQA as an ANSWERING benchmark, and refusal by exclusion.

The passages of the 40 ADGM rulebooks (see `evals.obliqa`) are indexed as chunks into a
collection of their own ("obliqa-answering", or a subset's), each passage carrying one role, the
role of its document ("obliqa-doc:adgm-3"). Questions go through the product's own path:
`AssistantService.ask` with the configured chat model (the offline model by default), the zoom
tools and the citation gate. The caller's roles decide what it may see, inside the store query:

- normal view: the roles of every document — everything is visible;
- exclusion view: every role but those of the question's gold documents — the documents that hold
  the answer do not exist for this caller, so the right outcome is a refusal. Where a cited
  passage of another document states the same rule as a gold passage (ADGM rulebooks repeat
  rules and definitions), the answer may be right: such cases are listed apart
  (`also_answered_elsewhere`), judged by word overlap with the gold passage, for a reader to check.

Scores (over the questions asked): answered share; of the answered, the share whose citations
include a gold passage ((DocumentID, PassageID) of the cited chunk); refused share in the
exclusion view. ObliQA's dev split carries no reference answers (only gold passages), so
must-contain cannot be scored on it; the report says so.

Sampling and split: questions are ordered by the SHA-1 of their QuestionID (a fixed, random-looking
order), and each is `dev` or `test` by the parity of the first byte of that digest. A sample of N
takes the first N of a split in that order, so a smaller sample is a prefix of a larger one.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evals.intervals import rounded, wilson
from evals.obliqa import Question, rulebook_id_of

ROLE_PREFIX = "obliqa-doc:"
COLLECTION = "obliqa-answering"
SPLITS = ("dev", "test")
ELSEWHERE_OVERLAP = 0.6  # a cited passage sharing this much of a gold passage's words states the same rule


def subset_answering_collection(documents: Sequence[str]) -> str:
    """The answering collection of a subset of ObliQA's documents (beside the retrieval eval's own)."""
    from evals.obliqa import subset_collection

    return subset_collection(documents).replace("obliqa-", f"{COLLECTION}-", 1)


def digest(question_id: str) -> str:
    return hashlib.sha1(question_id.encode()).hexdigest()


def split_of(question_id: str) -> str:
    """Our own deterministic dev/test halves of ObliQA's dev split."""
    return "dev" if int(digest(question_id)[:2], 16) % 2 == 0 else "test"


def sample(questions: Sequence[Question], split: str | None, limit: int | None) -> list[Question]:
    chosen = [q for q in questions if split in (None, "all") or split_of(q.question_id) == split]
    chosen.sort(key=lambda q: digest(q.question_id))
    return chosen[:limit] if limit else chosen


def role_of(rulebook_id: str) -> str:
    return f"{ROLE_PREFIX}{rulebook_id}"


def with_document_roles(chunks: Sequence[Any]) -> list[Any]:
    """The passages, each visible only to its own document's role."""
    return [c.model_copy(update={"roles": [role_of(c.rulebook_id)]}) for c in chunks]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]{3,}", text.casefold())}


def overlap(a: str, b: str) -> float:
    """Share of the shorter text's words found in the other."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / min(len(wa), len(wb))


@dataclass
class AnswerCase:
    """One question asked in one view, and what came back."""

    question_id: str
    split: str
    view: str  # "normal" | "excluded"
    outcome: str  # answered | refused | blocked | error
    gold_cited: bool = False
    cited: list[str] = field(default_factory=list)  # "adgm-3/18.8.2"
    elsewhere: float = 0.0  # best word overlap of a cited passage with a gold passage (excluded view)
    decision: dict[str, Any] | None = None  # the offline model's answer/refuse signals
    latency_ms: float = 0.0
    error: str | None = None


@dataclass
class PassageIndex:
    """chunk id -> (rulebook id, passage id, text), for scoring citations."""

    by_chunk: dict[str, tuple[str, str, str]]
    by_key: dict[tuple[str, str], str]

    @classmethod
    def of(cls, chunks: Sequence[Any]) -> PassageIndex:
        return cls({c.chunk_id: (c.rulebook_id, c.section_key, c.text) for c in chunks},
                   {(c.rulebook_id, c.section_key): c.text for c in chunks})


def score_answer(q: Question, answer: Any, passages: PassageIndex) -> tuple[bool, list[str], float]:
    cited: list[str] = []
    gold_cited = False
    elsewhere = 0.0
    gold_texts = [passages.by_key.get(g, "") for g in q.gold]
    for citation in getattr(answer, "citations", []) or []:
        entry = passages.by_chunk.get(citation.chunk_id)
        if entry is None:
            continue
        rulebook_id, passage_id, text = entry
        cited.append(f"{rulebook_id}/{passage_id}")
        if (rulebook_id, passage_id) in q.gold:
            gold_cited = True
        else:
            elsewhere = max([elsewhere, *(overlap(text, g) for g in gold_texts if g)])
    return gold_cited, list(dict.fromkeys(cited)), elsewhere


Progress = Callable[[int, int, str], None]


async def ask_all(service: Any, model: Any, questions: Sequence[Question], all_rulebooks: Sequence[str],
                  passages: PassageIndex, views: Sequence[str] = ("normal", "excluded"),
                  progress: Progress | None = None) -> list[AnswerCase]:
    """Every question in every view, one conversation each, through `service.ask`."""
    from bot.answer import User
    from evals.e2e_runner import ask_once

    decisions: list[Any] = []
    model.observer = decisions.append
    cases: list[AnswerCase] = []
    total = len(questions) * len(views)
    done = 0
    everyone = [role_of(r) for r in all_rulebooks]
    for view in views:
        for q in questions:
            gold_docs = {rb for rb, _ in q.gold}
            roles = everyone if view == "normal" else [role_of(r) for r in all_rulebooks if r not in gold_docs]
            user = User(id=f"eval-answering-{view}", roles=tuple(roles), platform="eval", name=view)
            decisions.clear()
            run = await ask_once(service, q.text, user, f"answering-{view}-{q.question_id}")
            case = AnswerCase(q.question_id, split_of(q.question_id), view,
                              "error" if run.answer is None else run.answer.outcome,
                              latency_ms=round(run.latency_ms, 1), error=run.error)
            if run.answer is not None:
                case.gold_cited, case.cited, elsewhere = score_answer(q, run.answer, passages)
                if view == "excluded":
                    case.elsewhere = round(elsewhere, 3)
            if decisions:
                case.decision = asdict(decisions[-1])
            cases.append(case)
            done += 1
            if progress is not None:
                progress(done, total, case.outcome)
    return cases


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def summarise(cases: Sequence[AnswerCase]) -> dict[str, Any]:
    """Figures per split (dev, test) and view."""
    out: dict[str, Any] = {}
    for split in SPLITS:
        rows = [c for c in cases if c.split == split]
        normal = [c for c in rows if c.view == "normal"]
        excluded = [c for c in rows if c.view == "excluded"]
        answered = [c for c in normal if c.outcome == "answered"]
        ex_answered = [c for c in excluded if c.outcome == "answered"]
        elsewhere = [c for c in ex_answered if c.elsewhere >= ELSEWHERE_OVERLAP]
        gold_cited = sum(c.gold_cited for c in answered)
        refused = len(excluded) - len(ex_answered)
        out[split] = {
            "questions": len(normal),
            "answered_share": _share(len(answered), len(normal)),
            "gold_cited_of_answered": _share(gold_cited, len(answered)),
            "gold_cited_of_all": _share(gold_cited, len(normal)),
            "blocked": sum(c.outcome == "blocked" for c in normal),
            "errors": sum(c.outcome == "error" for c in rows),
            "excluded_questions": len(excluded),
            "refused_when_excluded": _share(refused, len(excluded)),
            "refused_when_excluded_not_counting_elsewhere": _share(refused, len(excluded) - len(elsewhere)),
            "answered_when_excluded": len(ex_answered),
            "also_answered_elsewhere": len(elsewhere),
            # 95% Wilson intervals of the shares (evals.intervals): fifty questions a half tell little
            "intervals": {
                "answered_share": rounded(wilson(len(answered), len(normal))),
                "gold_cited_of_answered": rounded(wilson(gold_cited, len(answered))),
                "refused_when_excluded": rounded(wilson(refused, len(excluded))),
            },
        }
    return out


def elsewhere_cases(cases: Sequence[AnswerCase], questions: Sequence[Question], passages: PassageIndex,
                    limit: int = 30) -> list[dict[str, Any]]:
    """Excluded-view answers whose cited passage repeats a gold passage: for a reader to check."""
    texts = {q.question_id: q for q in questions}
    out = []
    for c in sorted(cases, key=lambda c: -c.elsewhere):
        if c.view != "excluded" or c.outcome != "answered" or c.elsewhere < ELSEWHERE_OVERLAP:
            continue
        q = texts[c.question_id]
        out.append({"question_id": c.question_id, "question": q.text, "overlap": c.elsewhere,
                    "gold": sorted(f"{rb}/{p}" for rb, p in q.gold), "cited": c.cited})
        if len(out) >= limit:
            break
    return out


@dataclass
class ObliqaAnswering:
    """Open the answering collection (indexing what is missing) and the assistant over it."""

    settings: Any
    chunks: list[Any]
    collection: str
    store: Any = None
    knowledge: Any = None
    service: Any = None
    model: Any = None
    indexed_now: int = 0

    def open(self, on_progress: Callable[[int], None] | None = None) -> ObliqaAnswering:
        from bot.memory.history import InMemoryHistoryStore
        from bot.memory.review_queue import JsonlReviewQueue
        from bot.offline.offline_model import OfflineRulebookModel
        from bot.service import AssistantService
        from evals.obliqa import index_passages
        from events.usage_sinks import NullSink
        from knowledge.embedding_cache import load_cached_encoder
        from knowledge.knowledge_base import KnowledgeBase
        from knowledge.model_rerank import load_reranker
        from knowledge.store import open_store

        encoder = load_cached_encoder(self.settings)
        self.store = open_store(self.settings, collection=self.collection)
        self.indexed_now = index_passages(self.store, encoder, self.chunks, on_progress=on_progress)
        self.knowledge = KnowledgeBase(self.store, encoder, reranker=load_reranker(self.settings.reranker),
                                       rerank_threshold=self.settings.rerank_threshold)
        if (self.settings.chat_model or "offline") == "offline":
            from bot.offline.subject_terms import CorpusVocabulary

            # as `load_chat_model` builds it: the store's term rarity feeds the subject check
            self.model = OfflineRulebookModel(encoder=encoder, vocabulary=CorpusVocabulary(self.store))
        else:
            from bot.agent.chat_models import load_chat_model

            self.model = load_chat_model(self.settings.chat_model, self.knowledge)
        review = JsonlReviewQueue(Path(self.settings.data_dir) / "evals" / "review_queue.jsonl")
        self.service = AssistantService(self.knowledge, self.model, settings=self.settings,
                                        history=InMemoryHistoryStore(), events=NullSink(), review=review)
        return self

    def close(self) -> None:
        if self.knowledge is not None:
            self.knowledge.close()


def run(settings: Any, chunks: list[Any], questions: Sequence[Question], collection: str,
        views: Sequence[str] = ("normal", "excluded"), progress: Progress | None = None,
        index_progress: Callable[[int], None] | None = None, calibration: bool = False) -> dict[str, Any]:
    """Index (what is missing), ask, score: the report `rulebook eval answering` prints.
    `calibration`: the offline model's answer/refuse thresholds set to 0, so every question with
    no absent name is answered and `evals.calibration` can replay any threshold from the signals."""
    started = time.perf_counter()
    bench = ObliqaAnswering(settings, with_document_roles(chunks), collection).open(index_progress)
    if calibration and hasattr(bench.model, "min_dense"):
        bench.model.answer_everything()
    thresholds = ({"min_dense": bench.model.min_dense, "min_lexical": bench.model.min_lexical}
                  if hasattr(bench.model, "min_dense") else None)
    try:
        rulebooks = sorted({c.rulebook_id for c in chunks})
        passages = PassageIndex.of(chunks)
        cases = asyncio.run(ask_all(bench.service, bench.model, questions, rulebooks, passages, views, progress))
    finally:
        bench.close()
    return {
        "benchmark": "ObliQA dev split as an answering benchmark (passages as chunks)",
        "chat_model": settings.chat_model or "offline",
        "collection": collection, "passages": len(chunks), "passages_indexed_now": bench.indexed_now,
        "documents": len(rulebooks), "views": list(views), "thresholds": thresholds, "calibration_run": calibration,
        "sampling": "questions ordered by SHA-1 of QuestionID; split by parity of its first byte",
        "must_contain": "not scored: ObliQA's dev split has gold passages, no reference answers",
        "splits": summarise(cases),
        "also_answered_elsewhere": elsewhere_cases(cases, questions, passages),
        "seconds": round(time.perf_counter() - started, 1),
        "cases": [asdict(c) for c in cases],
    }


__all__ = ["COLLECTION", "subset_answering_collection", "ROLE_PREFIX", "AnswerCase", "ObliqaAnswering", "PassageIndex", "overlap", "role_of",
           "rulebook_id_of", "run", "sample", "split_of", "summarise", "with_document_roles"]
