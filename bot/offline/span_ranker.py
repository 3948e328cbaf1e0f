"""How much each clue about a span counts when the offline model chooses what to quote.

A span's score is its dense similarity with the question plus a weighted sum of its signals
(`SIGNALS`): the share of the question's content words it holds, whether it names or defines the
identifier asked about, holds a fact of the kind asked for, sits in the chunk the search ranked
first, and so on. The score stays in units of dense similarity (the weight of `dense` is 1). The
fitted clues spread scores further apart than the hand weights did, so the quote margin (spans this
close to the best are quoted with it) is fitted too: the one at which an answer quotes as many spans
per dev question as before, so that more right answers come from better ranking, not more quoting.

The weights are not set by hand: `rulebook eval spans` fits them on dev questions only (a
conditional logit over each question's spans, the spans on a gold page being the right ones,
L2-regularised, the strength chosen by cross-validation over dev questions) and writes them to
`span_weights.json` beside this module, with the data and figures behind them. `HAND_WEIGHTS` are
the constants this model used before the fit (kept as the baseline every fit is compared with).

Two sets: a question about one element of a message ("Is Creator mandatory in a CancelCaseAssignment
message?", `span_scoring.element_question`) wants the element's own row or record over the sentences
about the message around it, which one set fitted on every question cannot give both kinds
(`evals/baselines/span_kinds.json`). `ELEMENT_WEIGHTS` serve those questions, `WEIGHTS` the rest; both
share the quote margin (at 0.08 the element set quotes as many spans per golden element question as
the main set: 2.8).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

# Every signal a span can carry, each 0 or 1 unless said otherwise. "lexical" and "dense_gain"
# are measured for every span; the others are clues set by `span_scoring.SpanScorer.score`.
SIGNALS: tuple[str, ...] = (
    "lexical",  # share of the question's content terms in the span (0..1)
    "rare_lexical",  # the same share, each term weighed by its rarity in the corpus (-log of its chunk share)
    "name_parts",  # share of the question's content terms the span holds only inside run-together names
    "dense_gain",  # similarity with the whole question minus that without its document-naming words
    "identifier",  # an identifier the question names ("AC01", "camt.056.001.08") is in the span
    "defines",  # ... and the span defines it (its row's key cell, "AC01 means …")
    "code_row",  # the row keyed by a capitalised code the question asks the meaning of ("SLEV")
    "condition",  # "when is X required?": the sentence states a condition and shares the question's words
    "element_defines",  # the record or row of a message element the question asks about
    "acronyms",  # all the question's acronyms are in the span, whatever its language
    "other_language",  # the span is in another language than the question
    "acronyms_other_language",  # both of the above: acronyms are the clue that crosses languages
    "asked_identifier",  # the question asks "which code/message" and the span names a new one
    "asked_fact",  # the question asks for an amount or a time and the span holds a new number
    "fact",  # the span holds a number or identifier the question does not
    "place",  # the chunk is about the place the question names
    "about_document",  # a sentence about the document itself, and the question is not about it
    "title_match",  # the question covers the section's whole title
    "section_title",  # share of the question's words in the section title (0..1)
    "first_chunk",  # the span's chunk is the first one the tools showed
    "chunk_rank",  # 1 / (1 + the rank of the span's chunk among those shown)
    "from_section",  # the chunk belongs to a section read whole
    "table_row",  # the span is a table row, not a sentence
    "opening",  # the span is the first of its chunk
    "length",  # log(1 + words) / log(101), capped at 1: a label of three words says less than a sentence
)

HAND_WEIGHTS: Mapping[str, float] = MappingProxyType({
    "lexical": 0.05, "dense_gain": 0.0, "identifier": 0.15, "defines": 0.1, "code_row": 0.25,
    "condition": 0.05, "element_defines": 0.08, "acronyms": 0.03, "asked_identifier": 0.05,
    "asked_fact": 0.03, "fact": 0.01, "place": 0.08, "about_document": -0.08, "title_match": 0.06,
    "section_title": 0.02, "first_chunk": 0.0, "chunk_rank": 0.0, "from_section": 0.0, "table_row": 0.0,
    "rare_lexical": 0.0, "opening": 0.0, "length": 0.0, "other_language": 0.0, "acronyms_other_language": 0.0,
    # added after the fit of session 6: the same evidence as `lexical` (the question's word in the span)
    # written inside a name, so its prior is what the fit gave `lexical` (0.0986)
    "name_parts": 0.1,
})

# spans within this of the best span's score are quoted with it (offline_model, subject_terms); the fit
# sets its own, at which the fitted scores quote as many spans per question as these hand weights did
HAND_QUOTE_MARGIN = 0.03
# at most this many sentences within the margin are quoted (a table counts apart): the budget swept on
# dev questions by `rulebook eval quotes` (evals/baselines/quote_budget.json); the offline model takes it
# as its `max_quotes`. Session 13: 4 (dev key facts 218 -> 220 of 277, flat after; 3 before). Session 20: the
# rule with its minimum gain (a sign test) keeps 4: 6 gets two more dev questions right (p = .5)
MAX_QUOTES = 4
WEIGHTS_FILE = Path(__file__).with_name("span_weights.json")


def load_weights(path: Path = WEIGHTS_FILE, key: str = "weights") -> Mapping[str, float]:
    """The fitted weights under `key` (every signal; one the file lacks counts 0); the main set when
    the file has no such key (a fit without element questions), the hand weights when no fit has been
    written."""
    if not path.exists():
        return HAND_WEIGHTS
    stored = json.loads(path.read_text(encoding="utf-8"))
    fitted = stored.get(key, stored["weights"])
    unknown = set(fitted) - set(SIGNALS)
    if unknown:
        raise ValueError(f"{path.name} weighs signals this model does not have: {sorted(unknown)}")
    return MappingProxyType({name: float(fitted.get(name, 0.0)) for name in SIGNALS})


def load_quote_margin(path: Path = WEIGHTS_FILE) -> float:
    if not path.exists():
        return HAND_QUOTE_MARGIN
    return float(json.loads(path.read_text(encoding="utf-8")).get("quote_margin", HAND_QUOTE_MARGIN))


WEIGHTS: Mapping[str, float] = load_weights()
ELEMENT_WEIGHTS: Mapping[str, float] = load_weights(key="element_weights")
QUOTE_MARGIN: float = load_quote_margin()


def weighted(signals: Mapping[str, float], weights: Mapping[str, float] = WEIGHTS) -> float:
    """The signals' part of a span's score."""
    return sum(weights.get(name, 0.0) * value for name, value in signals.items())
