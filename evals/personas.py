"""Personas: the same golden set asked by people with different roles, and the diff between them.

What the diff enforces (DESIGN: "no access" reads exactly like "does not exist"):
- a rulebook restricted to roles the persona lacks is never cited, quoted or named in anything the
  persona sees (answer text, status lines, citations);
- a question about such a rulebook gets the same outcome and the same words as the same question
  about a rulebook that does not exist at all (its golden `twin`).
Which rulebooks are restricted is read from the index itself (the chunks' `roles`), not from a
list kept here, so a catalog change cannot make the check pass vacuously.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from evals.citation_check import split_sentences, squash, strip_markers
from evals.e2e_golden import GoldenQuestion
from evals.e2e_scoring import IndexView, QuestionResult
from knowledge import sentences


@dataclass(frozen=True)
class Persona:
    name: str
    roles: tuple[str, ...]
    description: str


# Roles as the sample catalog spells them (examples/rulebooks/catalog.yaml).
PERSONAS: dict[str, Persona] = {
    "employee": Persona("employee", (), "any employee: sees every rulebook open to all"),
    "risk_officer": Persona("risk_officer", ("risk-officer",),
                            "a risk officer: also sees the fraud and risk management rulebook"),
    "operations": Persona("operations", ("operations",), "operations and treasury staff"),
}
DEFAULT_PERSONAS = ("employee", "risk_officer", "operations")


class UnknownPersonaError(ValueError):
    pass


def persona(name: str) -> Persona:
    try:
        return PERSONAS[name]
    except KeyError:
        raise UnknownPersonaError(f"unknown persona {name!r}; known: {', '.join(PERSONAS)}") from None


def roles_for(q: GoldenQuestion, as_persona: str | None = None) -> tuple[str, ...]:
    """The roles a question is asked with: an explicit persona wins, then the line's own roles."""
    if as_persona is not None:
        return persona(as_persona).roles
    if q.roles is not None:
        return tuple(q.roles)
    return persona(q.persona).roles


def visible(rulebook_id: str, roles: Iterable[str], restricted: Mapping[str, set[str]]) -> bool:
    allowed = restricted.get(rulebook_id)
    return allowed is None or bool(allowed & set(roles))


def as_seen_by(q: GoldenQuestion, roles: Sequence[str], restricted: Mapping[str, set[str]]) -> GoldenQuestion:
    """The question as this persona should experience it: when none of its expected rulebooks is
    visible, the right answer is the refusal a non-existent rulebook gets."""
    if not q.answerable or any(visible(e.rulebook_id, roles, restricted) for e in q.expected):
        return q
    return q.model_copy(update={
        "answerable": False, "expected": [], "must_contain": [],
        "categories": [c for c in q.categories if c != "restricted"] + ["nonexistent"],
    })


@dataclass
class Leak:
    persona: str
    question_id: str
    rulebook_id: str
    how: str  # cited | quoted | named
    evidence: str


@dataclass
class TwinMismatch:
    persona: str
    question_id: str
    twin_id: str
    restricted: str  # what the restricted question got
    nonexistent: str  # what the twin got


@dataclass
class PersonaDiff:
    personas: dict[str, tuple[str, ...]]
    leaks: list[Leak] = field(default_factory=list)
    twin_mismatches: list[TwinMismatch] = field(default_factory=list)
    # question id -> persona -> (outcome, cited rulebooks)
    table: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.leaks and not self.twin_mismatches

    def differing(self) -> dict[str, dict[str, tuple[str, tuple[str, ...]]]]:
        """Only the questions whose outcome or cited rulebooks differ between personas."""
        return {qid: row for qid, row in self.table.items() if len(set(row.values())) > 1}

    def to_dict(self) -> dict:
        return {
            "personas": {k: list(v) for k, v in self.personas.items()},
            "ok": self.ok,
            "leaks": [vars(x) for x in self.leaks],
            "twin_mismatches": [vars(x) for x in self.twin_mismatches],
            "differing": {qid: {p: {"outcome": o, "cited": list(c)} for p, (o, c) in row.items()}
                          for qid, row in self.differing().items()},
        }


def _restricted_sentences(index: IndexView, rulebook_id: str) -> list[str]:
    """Squashed sentences of a restricted rulebook long enough that finding one elsewhere is a quote."""
    out = []
    for chunk in index.by_rulebook.get(rulebook_id, []):
        for sentence in sentences.split_sentences(chunk.text):
            if len(sentence.split()) >= 8:
                out.append(squash(sentence))
    return out


def _name_pattern(rulebook_id: str, title: str) -> re.Pattern[str]:
    names = [re.escape(rulebook_id)] + ([re.escape(title)] if len(title) > 6 else [])
    return re.compile(r"(?<![\w-])(" + "|".join(names) + r")(?![\w-])", re.IGNORECASE)


def _visible_cited_text(result: QuestionResult, index: IndexView, hidden: Sequence[str]) -> str:
    """The text of the chunks this answer cites that the persona may see: anything in it (a public
    rulebook naming a restricted one, say) is public knowledge, not a leak."""
    parts = []
    for c in result.citations:
        chunk = index.by_id.get(c.chunk_id)
        if chunk is not None and chunk.rulebook_id not in hidden:
            parts.extend([chunk.text, *chunk.tables_csv])
    return "\n".join(parts)


def find_leaks(persona_name: str, roles: Sequence[str], results: Sequence[QuestionResult],
               index: IndexView, statuses: Mapping[str, Sequence[str]] | None = None) -> list[Leak]:
    restricted = index.restricted()
    hidden = [rid for rid in restricted if not visible(rid, roles, restricted)]
    if not hidden:
        return []
    titles = index.titles()
    patterns = {rid: _name_pattern(rid, titles.get(rid, "")) for rid in hidden}
    quotes = {rid: _restricted_sentences(index, rid) for rid in hidden}
    leaks: list[Leak] = []
    for r in results:
        for c in r.citations:
            if c.rulebook_id in hidden:
                leaks.append(Leak(persona_name, r.id, c.rulebook_id, "cited", f"[{c.n}] {c.rulebook_id} p{c.page}"))
        public = _visible_cited_text(r, index, hidden)
        public_squashed = squash(public)
        answer_text = strip_markers(r.answer)
        for rid in hidden:
            # Echoing a name the asker typed reveals nothing, nor does quoting a public rulebook
            # that names it; naming it from anywhere else does (answer text or status lines).
            if not patterns[rid].search(r.question):
                match = patterns[rid].search(answer_text)
                if match and not patterns[rid].search(public):
                    leaks.append(Leak(persona_name, r.id, rid, "named", match.group(0)))
                for status in (statuses or {}).get(r.id, ()):
                    match = patterns[rid].search(status)
                    if match:
                        leaks.append(Leak(persona_name, r.id, rid, "named", f"status: {status}"))
                        break
            for sentence in split_sentences(r.answer):
                body = squash(strip_markers(sentence.text))
                if len(body) >= 40 and body not in public_squashed and \
                        any(body in s or s in body for s in quotes[rid] if len(s) >= 40):
                    leaks.append(Leak(persona_name, r.id, rid, "quoted", sentence.text[:120]))
                    break
    return leaks


def _normalised_reply(result: QuestionResult, own_ids: Sequence[str]) -> str:
    text = strip_markers(result.answer)
    for ident in own_ids:
        text = re.sub(re.escape(ident), "<RULEBOOK>", text, flags=re.IGNORECASE)
    return f"{result.outcome}|{' '.join(text.split())}"


def twin_mismatches(persona_name: str, roles: Sequence[str], questions: Sequence[GoldenQuestion],
                    results: Sequence[QuestionResult], index: IndexView) -> list[TwinMismatch]:
    """Restricted questions this persona may not see, compared with their non-existent twins."""
    restricted = index.restricted()
    by_id = {r.id: r for r in results}
    by_q = {q.id: q for q in questions}
    out = []
    for q in questions:
        if not q.twin or q.id not in by_id or q.twin not in by_id:
            continue
        if any(visible(e.rulebook_id, roles, restricted) for e in q.expected):
            continue
        mine_result = by_id[q.id]
        if mine_result.outcome == "answered" and all(
                visible(c.rulebook_id, roles, restricted) for c in mine_result.citations):
            # Answered from public rulebooks that refer to the restricted one (PS-01 lists the
            # whole rulebook set): the difference comes from visible text, which find_leaks
            # has checked sentence by sentence.
            continue
        twin_q = by_q.get(q.twin)
        ids = [e.rulebook_id for e in q.expected] + (twin_q.mentions if twin_q else [])
        mine = _normalised_reply(by_id[q.id], ids + q.mentions)
        theirs = _normalised_reply(by_id[q.twin], ids + q.mentions)
        if mine != theirs:
            out.append(TwinMismatch(persona_name, q.id, q.twin, mine[:200], theirs[:200]))
    return out


def diff_personas(questions: Sequence[GoldenQuestion], runs: Mapping[str, Sequence[QuestionResult]],
                  index: IndexView, statuses: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
                  declared_roles: Mapping[str, Sequence[str]] | None = None) -> PersonaDiff:
    """`runs`: persona name -> its results. `declared_roles` (default: PERSONAS) is what each
    persona is entitled to; a leak is anything beyond it, whatever roles the run really carried."""
    entitled = {name: tuple(declared_roles[name]) if declared_roles and name in declared_roles
                else persona(name).roles for name in runs}
    diff = PersonaDiff(personas=entitled)
    for name, results in runs.items():
        diff.leaks.extend(find_leaks(name, entitled[name], results, index, (statuses or {}).get(name)))
        diff.twin_mismatches.extend(twin_mismatches(name, entitled[name], questions, results, index))
        for r in results:
            cited = tuple(sorted({c.rulebook_id for c in r.citations}))
            diff.table.setdefault(r.id, {})[name] = (r.outcome, cited)
    return diff
