"""What a quoted sentence needs around it to answer: the sentences next to it in its chunk that
carry the rule, the condition or the conclusion.

Rulebooks and message guides state a rule in one sentence and qualify it in the next ("The
RequestToModifyPayment must be processed on an all or nothing basis. If one of the elements …
cannot be altered, the assignment must be rejected in full"; "… then a CustomerPaymentCancellation
Request must be used. In this context it is incorrect to use the CancelCaseAssignment message").
The sentence closest to the question is often only one half, and the key fact sits in the other:
- a sentence that opens with a condition ("If …", "Unless …") qualifies the rule before it: the
  best quote that is one brings that rule with it;
- a sentence that leans on the one before ("In this context …", "This means …") finishes it: it
  follows the quote it leans on;
- a question asking whether something may, must or can be done ("May the cover be cancelled
  separately?", "Can we put advertising on the back?") is answered by the permissions and
  prohibitions next to the best sentence ("The case assigner must not request the cancellation of
  the cover separately."), when they share a word with the question.
Only the neighbours of the best quote are added, so an answer grows by a sentence or two. A text
is quoted once however many chunks repeat it, cited to the places that state it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.offline.span_scoring import Span, asks_yes_no, depends_on_previous, is_condition, is_heading

MAX_ECHOES = 1  # other places one quoted text is cited to, when several chunks state it word for word
RULE_REACH = 2  # sentences before or after the best quote searched for a rule (yes/no questions)
MAX_RULES = 2

_STATES_RULE = re.compile(
    r"\b(?:must|shall|may|can(?:not)?|should|not|never|only|permitted|allowed|prohibited|forbidden|"
    r"incorrect|mandatory|required|moet|mag|niet|nooit|alleen|verplicht|toegestaan|verboden|"
    r"doit|peut|ne|pas|jamais|seulement|interdit|autorisé|obligatoire|"
    r"muss|darf|kann|nicht|nie|nur|verboten|erlaubt|zulässig|pflicht)\b", re.IGNORECASE)


# "How can you tell a QR-IBAN from an IBAN, and how long is the IBAN on a QR-bill?": two questions in one
_SECOND_QUESTION = re.compile(
    r"(?:[,;]?\s+(?:and|en|et|und)\s+|[?]\s+)(?=(?:what|which|how|when|where|who|why|does|do|is|are|can|may|must|"
    r"in\s+which|wat|welke?|hoe|wanneer|waar|wie|quel(?:le)?s?|comment|quand|où|qui|was|welche[rs]?|wie|wann|wo)\b)",
    re.IGNORECASE)
MIN_PART_WORDS = 3


def question_parts(question: str) -> list[str]:
    """The questions a question asks ("When were QR-IIDs published, and in which months are new
    guidelines published?" -> two); one part when it asks one thing."""
    parts = [p.strip(" ,;") for p in _SECOND_QUESTION.split(question)]
    parts = [p for p in parts if len(re.findall(r"[^\W\d_]{3,}", p)) >= MIN_PART_WORDS]
    return parts if len(parts) > 1 else [question]


def states_rule(sentence: str) -> bool:
    """Does the sentence state what must, may or must not be done?"""
    return bool(_STATES_RULE.search(sentence))


def text_key(span: Span) -> str:
    """What makes two spans the same quote: their text, case and spacing aside."""
    return " ".join(span.text.casefold().split())


def distinct_quotes(candidates: Sequence[Span], limit: int, echoes: int = MAX_ECHOES) -> list[Span]:
    """The best `limit` distinct texts of the candidates, each with up to `echoes` other places
    that state it word for word: a type's definition repeated under every element that uses it
    ("The number of fractional digits … must comply with ISO 4217") takes one place in the answer,
    not three, and is cited once to each place it is stated (`group_by_text`)."""
    counts: dict[str, int] = {}
    out: list[Span] = []
    for span in candidates:
        key = text_key(span)
        if key not in counts:
            if len(counts) >= limit:
                continue
            counts[key] = 0
        elif counts[key] >= echoes or any(s.chunk.chunk_id == span.chunk.chunk_id and text_key(s) == key for s in out):
            continue
        else:
            counts[key] += 1
        out.append(span)
    return out


def group_by_text(quotes: Sequence[Span]) -> list[list[Span]]:
    """The quotes with the same text together, in the order each text is first quoted."""
    groups: dict[str, list[Span]] = {}
    for span in quotes:
        groups.setdefault(text_key(span), []).append(span)
    return list(groups.values())


def with_context(quotes: list[Span], spans: Sequence[Span], question: str, best: Span | None) -> list[Span]:
    """The quotes, in place, with what the best sentence quoted needs around it (see the module
    docstring)."""
    if best is None or best not in quotes:
        return quotes
    same = {s.position: s for s in spans if s.table is None and s.chunk.chunk_id == best.chunk.chunk_id}

    def usable(span: Span | None) -> bool:
        return span is not None and span not in quotes and not is_heading(span.text, span.chunk)

    before: list[Span] = []
    after: list[Span] = []
    previous = same.get(best.position - 1)
    if is_condition(best.text) and usable(previous) and not depends_on_previous(best.text):
        before.append(previous)  # type: ignore[arg-type]
    following = same.get(best.position + 1)
    if usable(following) and depends_on_previous(following.text):  # type: ignore[union-attr]
        after.append(following)  # type: ignore[arg-type]
    if asks_yes_no(question):
        rules = [s for offset in range(1, RULE_REACH + 1) for s in (same.get(best.position + offset),
                                                                   same.get(best.position - offset))
                 if usable(s) and s not in before and s not in after and s.lexical > 0  # type: ignore[union-attr]
                 and states_rule(s.text)]  # type: ignore[union-attr]
        for rule in rules[:MAX_RULES]:
            (after if rule.position > best.position else before).append(rule)
    at = quotes.index(best)
    ordered = (sorted(before, key=lambda s: s.position) + [best] + sorted(after, key=lambda s: s.position))
    return [*quotes[:at], *ordered, *quotes[at + 1:]]
