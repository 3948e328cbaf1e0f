"""What a quoted sentence needs around it to answer a yes/no question: the permissions and
prohibitions next to it in its chunk.

A question asking whether something may, must or can be done ("May the cover be cancelled
separately?", "Can we put advertising on the back side?") is answered by a rule, and rulebooks
state the situation in one sentence and the rule in the next ("The cancellation of a payment …
always results in the cancellation of the whole transaction, including the cover. … The case
assigner must not request the cancellation of the cover separately."). The sentence closest to
the question is often the situation; the permission or prohibition sits beside it. So the
sentences within `RULE_REACH` of the best quote that state what must, may or must not be done,
and share a word with the question, are quoted with it, in reading order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.offline.span_scoring import Span, asks_yes_no, is_heading

RULE_REACH = 2  # sentences before or after the best quote searched for a rule
MAX_RULES = 2

_STATES_RULE = re.compile(
    r"\b(?:must|shall|may|can(?:not)?|should|not|never|only|permitted|allowed|prohibited|forbidden|"
    r"incorrect|mandatory|required|moet|mag|niet|nooit|alleen|verplicht|toegestaan|verboden|"
    r"doit|peut|ne|pas|jamais|seulement|interdit|autorisé|obligatoire|"
    r"muss|darf|kann|nicht|nie|nur|verboten|erlaubt|zulässig|pflicht)\b", re.IGNORECASE)


def states_rule(sentence: str) -> bool:
    """Does the sentence state what must, may or must not be done?"""
    return bool(_STATES_RULE.search(sentence))


def with_context(quotes: list[Span], spans: Sequence[Span], question: str, best: Span | None) -> list[Span]:
    """The quotes, in place, with the rules next to the best sentence quoted when the question is a
    yes/no question (see the module docstring)."""
    if best is None or best not in quotes or best.table is not None or not asks_yes_no(question):
        return quotes
    same = {s.position: s for s in spans if s.table is None and s.chunk.chunk_id == best.chunk.chunk_id}
    rules = [s for offset in range(1, RULE_REACH + 1)
             for s in (same.get(best.position + offset), same.get(best.position - offset))
             if s is not None and s not in quotes and not is_heading(s.text, s.chunk) and s.lexical > 0
             and states_rule(s.text)][:MAX_RULES]
    before = sorted((s for s in rules if s.position < best.position), key=lambda s: s.position)
    after = sorted((s for s in rules if s.position > best.position), key=lambda s: s.position)
    at = quotes.index(best)
    return [*quotes[:at], *before, best, *after, *quotes[at + 1:]]
