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
question's gold answer (`elsewhere`) is listed apart with what it cites, for a reader to judge, and
the refused share is reported both ways; every other answer is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


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
    elsewhere: bool = False


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
            case.elsewhere = view_name == "excluded" and answered_elsewhere(q, answer.text)
        if decisions:
            case.decision = asdict(decisions[-1])
        cases.append(case)
        if progress is not None:
            progress(q)
    return cases


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
                      "answered": [c.question_id for c in rows if c.outcome == "answered"],
                      "answered_elsewhere": {c.question_id: c.cited for c in elsewhere}}
        if normal:
            answered = [c for c in normal if c.outcome == "answered"]
            out[split]["normal_view"] = {
                "questions": len(normal), "answered": len(answered),
                "right_page_of_answered": round(sum(c.right_page for c in answered) / len(answered), 4)
                if answered else None}
    return out
