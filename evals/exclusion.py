"""Refusal by exclusion on our golden sets: each answerable question asked with its expected
rulebooks hidden from the caller. The right outcome is a refusal.

The hiding goes through the access filter: `HiddenRulebooks` is the knowledge facade of a caller
who may see every rulebook but these. Its searches carry the visible rulebook ids inside the store
query (`AccessFilter.rulebook_ids`), so a hidden chunk is never fetched; a section, a whole
rulebook or a chunk of a hidden rulebook reads exactly like one that does not exist, and the
catalog does not list it. The question runs through the product's path (`AssistantService.ask`:
configured chat model, zoom tools, citation gate).

An answer in this view cites some other rulebook. It can be right (the SCT rulebook and the
regulation it quotes say the same thing): an answer that holds every must-contain fact of the
question's gold answer (`elsewhere`, "facts") is listed apart with what it cites, for a reader to
judge, and the refused share is reported both ways; every other answer is an error. So is an
answer from a translation of a hidden rulebook, cited on one of the pages the question expects of
the original (`elsewhere`, "translation"): the same document in another language answers the
question as well, but its facts are written in words the must-contain strings do not match. The
eval hides only the listed rulebooks, and a translation is found without trusting the catalog
(`translations`): the same `series` or ISIN in another language, or another language with the same
language-neutral text (numbers, codes, acronyms) and about the same number of pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evals.intervals import rounded, wilson


class HiddenRulebooks:
    """A `KnowledgeBase` facade on which some rulebooks do not exist (see the module docstring)."""

    def __init__(self, knowledge: Any, hidden: Sequence[str]) -> None:
        self._knowledge = knowledge
        self.hidden = frozenset(hidden)

    def __getattr__(self, name: str) -> Any:  # store, searcher, close… of the real facade
        return getattr(self._knowledge, name)

    def _visible(self, roles: Sequence[str]) -> list[str]:
        return [r.rulebook_id for r in self._knowledge.list_rulebooks(roles, include_archived=True)
                if r.rulebook_id not in self.hidden]

    def search(self, query: str, roles: Sequence[str] = (), k: int = 10, mode: Any = "hybrid",
               rulebook_ids: Sequence[str] = (), **kwargs: Any) -> list[Any]:
        visible = self._visible(roles)
        wanted = [r for r in rulebook_ids if r in visible] if rulebook_ids else visible
        if not wanted:
            return []
        return self._knowledge.search(query, roles, k=k, mode=mode, rulebook_ids=tuple(wanted), **kwargs)

    def section(self, rulebook_id: str, section_path: Any, roles: Sequence[str] = (), **kwargs: Any) -> Any:
        result = self._knowledge.section("" if rulebook_id in self.hidden else rulebook_id, section_path,
                                         roles, **kwargs)
        result.rulebook_id = rulebook_id
        result.other_rulebooks = [r for r in result.other_rulebooks if r not in self.hidden]
        return result

    def full_rulebook(self, rulebook_id: str, roles: Sequence[str] = (), **kwargs: Any) -> Any:
        result = self._knowledge.full_rulebook("" if rulebook_id in self.hidden else rulebook_id, roles, **kwargs)
        result.rulebook_id = rulebook_id
        result.other_rulebooks = [r for r in result.other_rulebooks if r not in self.hidden]
        return result

    def list_rulebooks(self, roles: Sequence[str] = (), include_archived: bool = False) -> list[Any]:
        return [r for r in self._knowledge.list_rulebooks(roles, include_archived=include_archived)
                if r.rulebook_id not in self.hidden]

    def source_uri(self, rulebook_id: str, roles: Sequence[str] = ()) -> str | None:
        return None if rulebook_id in self.hidden else self._knowledge.source_uri(rulebook_id, roles)

    def chunk(self, chunk_id: str, roles: Sequence[str] = ()) -> Any:
        return None if chunk_id.rsplit(":", 1)[0] in self.hidden else self._knowledge.chunk(chunk_id, roles)


@dataclass
class ExclusionCase:
    question_id: str
    split: str
    hidden: list[str]
    outcome: str
    view: str = "excluded"  # "normal": asked as is
    right_page: bool = False
    cited: list[str] = field(default_factory=list)  # "rulebook p.N"
    answer: str = ""
    decision: dict[str, Any] | None = None
    error: str | None = None
    # excluded view: the answer from the other rulebooks holds every must-contain fact of the gold answer
    # ("facts"), or cites a translation of a hidden rulebook on an expected page ("translation")
    elsewhere: bool = False
    elsewhere_by: str | None = None


def service_for(knowledge: Any, settings: Any, model: Any) -> Any:
    from bot.memory.history import InMemoryHistoryStore
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    review = JsonlReviewQueue(Path(settings.data_dir) / "evals" / "review_queue.jsonl")
    return AssistantService(knowledge, model, settings=settings, history=InMemoryHistoryStore(),
                            events=NullSink(), review=review)


def offline_model(knowledge: Any, settings: Any) -> Any:
    from bot.agent.chat_models import load_chat_model

    return load_chat_model(settings.chat_model, knowledge)


def right_page(q: Any, answer: Any) -> bool:
    """A citation of an expected rulebook on one of its expected pages (any page when none given)."""
    return any(c.rulebook_id == e.rulebook_id and (not e.pages or c.page in e.pages)
               for c in answer.citations for e in q.expected)


async def run_exclusion(questions: Sequence[Any], knowledge: Any, settings: Any,
                        progress: Callable[[Any], None] | None = None, calibration: bool = False,
                        views: Sequence[str] = ("excluded",)) -> list[ExclusionCase]:
    """Every answerable question with expected rulebooks, asked with those rulebooks hidden (and,
    with "normal" in `views`, as is: the signals of answerable questions for the calibration)."""
    from bot.answer import User
    from evals.e2e_runner import ask_once
    from evals.personas import roles_for

    model = offline_model(knowledge, settings)
    translated = translations(knowledge)
    decisions: list[Any] = []
    if hasattr(model, "observer"):
        model.observer = decisions.append
        if calibration:
            model.answer_everything()
    cases: list[ExclusionCase] = []
    for view_name, q in [(v, q) for v in views for q in questions]:
        hidden = sorted({e.rulebook_id for e in q.expected})
        if not q.answerable or not hidden or q.history:
            continue
        view = HiddenRulebooks(knowledge, hidden if view_name == "excluded" else [])
        service = service_for(view, settings, model)
        user = User(id=f"eval-exclusion-{q.persona}", roles=tuple(roles_for(q, None)), platform="eval",
                    name=q.persona)
        decisions.clear()
        run = await ask_once(service, q.question, user, f"exclusion-{q.id}")
        answer = run.answer
        case = ExclusionCase(q.id, getattr(q, "split", None) or "unsplit", hidden,
                             "error" if answer is None else answer.outcome, error=run.error, view=view_name)
        if answer is not None and answer.outcome == "answered":
            case.right_page = right_page(q, answer)
            case.cited = list(dict.fromkeys(f"{c.rulebook_id} p.{c.page}" for c in answer.citations))
            case.answer = answer.text[:600]
            if view_name == "excluded":
                case.elsewhere_by = ("facts" if answered_elsewhere(q, answer.text)
                                     else "translation" if cites_translation(q, answer, translated) else None)
                case.elsewhere = case.elsewhere_by is not None
        if decisions:
            case.decision = asdict(decisions[-1])
        cases.append(case)
        if progress is not None:
            progress(q)
    return cases


# language-neutral words: numbers, codes and acronyms ("30.06.2020", "QR-IID", "SIC", "IBAN")
_NEUTRAL = re.compile(r"\b(?=[\w.-]*\d)[\w.-]{2,}\b|\b[A-Z][A-Z0-9]+\b")
TRANSLATION_OVERLAP = 0.6  # Jaccard of the neutral words: translations 0.88 on real2, other pairs at most 0.33
TRANSLATION_PAGES = 0.8  # the shorter has at least this share of the longer's pages
PAGE_SLACK = 1  # a translation's text runs a page earlier or later than the original's


def translations(knowledge: Any) -> dict[str, set[str]]:
    """Rulebook id -> the ids of the rulebooks that are the same document in another language (see
    the module docstring), from every chunk of the store."""
    store = getattr(knowledge, "store", None)
    if store is None or not hasattr(store, "scroll"):
        return {}
    books: dict[str, dict[str, Any]] = {}
    for chunk in store.scroll():
        book = books.setdefault(chunk.rulebook_id, {"language": chunk.language[:2], "series": chunk.series,
                                                    "isin": (chunk.isin or "").upper() or None, "pages": 0,
                                                    "neutral": set()})
        book["pages"] = max(book["pages"], chunk.page_end)
        book["neutral"].update(_NEUTRAL.findall(" ".join([chunk.text, *chunk.tables_csv])))
    out: dict[str, set[str]] = {}
    for a, x in books.items():
        for b, y in books.items():
            if a == b or x["language"] == y["language"]:
                continue
            same = bool(x["series"] and x["series"] == y["series"]) or bool(x["isin"] and x["isin"] == y["isin"])
            if not same and x["neutral"] and y["neutral"]:
                overlap = len(x["neutral"] & y["neutral"]) / len(x["neutral"] | y["neutral"])
                pages = min(x["pages"], y["pages"]) / max(1, x["pages"], y["pages"])
                same = overlap >= TRANSLATION_OVERLAP and pages >= TRANSLATION_PAGES
            if same:
                out.setdefault(a, set()).add(b)
    return out


def cites_translation(q: Any, answer: Any, translated: dict[str, set[str]]) -> bool:
    """The answer cites a translation of an expected rulebook on one of the pages the question expects
    of the original, give or take `PAGE_SLACK` (any page when none is given)."""
    for e in q.expected:
        for c in answer.citations:
            if c.rulebook_id in translated.get(e.rulebook_id, ()) and (
                    not e.pages or any(abs(c.page - p) <= PAGE_SLACK for p in e.pages)):
                return True
    return False


def answered_elsewhere(q: Any, text: str) -> bool:
    """Does an answer from the rulebooks left in view hold every must-contain fact of the question
    (scored as the end-to-end eval scores them)? Questions without must-contain facts never are."""
    from evals.e2e_guidelines import must_contain_hits

    return bool(q.must_contain) and all(must_contain_hits(text, q.must_contain))


def summarise(cases: Sequence[ExclusionCase]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for split in sorted({c.split for c in cases}):
        rows = [c for c in cases if c.split == split and c.view == "excluded"]
        normal = [c for c in cases if c.split == split and c.view == "normal"]
        refused = sum(c.outcome != "answered" for c in rows)
        elsewhere = [c for c in rows if c.outcome == "answered" and c.elsewhere]
        out[split] = {"questions": len(rows), "refused": refused,
                      "refused_share": round(refused / len(rows), 4) if rows else None,
                      # an answer holding the gold answer's facts from another rulebook is no error
                      "refused_or_answered_elsewhere_share": round((refused + len(elsewhere)) / len(rows), 4)
                      if rows else None,
                      # 95% Wilson intervals of both shares (evals.intervals)
                      "refused_interval": rounded(wilson(refused, len(rows))),
                      "refused_or_answered_elsewhere_interval": rounded(wilson(refused + len(elsewhere), len(rows))),
                      "answered": [c.question_id for c in rows if c.outcome == "answered"],
                      "answered_elsewhere": {c.question_id: c.cited for c in elsewhere},
                      "answered_elsewhere_by": {c.question_id: c.elsewhere_by for c in elsewhere}}
        if normal:
            answered = [c for c in normal if c.outcome == "answered"]
            out[split]["normal_view"] = {
                "questions": len(normal), "answered": len(answered),
                "right_page_of_answered": round(sum(c.right_page for c in answered) / len(answered), 4)
                if answered else None}
    return out
