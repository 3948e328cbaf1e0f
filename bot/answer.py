"""What the assistant hands every front end: one stream of events, ending in one `FinalEvent`.

Adapters (Teams, Slack, terminal) and cards consume these types and nothing else of `bot`.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Literal

Outcome = Literal["answered", "refused", "blocked"]

# A cell of the row under a markdown table's header: dashes, with a colon at either end for
# alignment. The one rule for answers: the gate judges tables by it and the cards render by it.
_TABLE_SEPARATOR_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")


def is_table_separator_cell(cell: str) -> bool:
    return bool(_TABLE_SEPARATOR_CELL.match(cell))


@dataclass
class User:
    """Who asks. `id` is the platform's id; the event log stores only a keyed hash of it."""

    id: str
    roles: tuple[str, ...] = ()
    platform: str = "terminal"  # terminal | teams | slack | eval
    name: str = ""


@dataclass
class Citation:
    n: int
    rulebook_id: str
    title: str
    section_path: list[str]
    section_title: str
    page: int
    uri: str  # opens the PDF at `page` (bot's /sources/... link, or a Blob SAS URL)
    quote: str  # the span that supports the cited sentences
    language: str
    chunk_id: str = ""
    translation_note: str | None = None  # set when the quoted language differs from the answer's


@dataclass
class AnswerTable:
    """A table that answers the question: header row plus rows, and the citation it came from."""

    columns: list[str]
    rows: list[list[str]]
    citation_n: int
    caption: str = ""


@dataclass
class Answer:
    text: str  # markdown with [n] markers
    outcome: Outcome
    citations: list[Citation] = field(default_factory=list)
    tables: list[AnswerTable] = field(default_factory=list)
    reason: str | None = None  # one line, for refused/blocked
    language: str = "en"
    question: str = ""
    conversation_id: str = ""
    message_id: str = ""
    latency_ms: float = 0.0
    tool_calls: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class StepSource:
    """Something a tool step read: a rulebook section and the page it starts on."""

    rulebook_id: str
    title: str
    section: str  # "4.2 Fees", or "" for a whole rulebook
    page: int


@dataclass
class StatusEvent:
    text: str  # "Searching the rulebooks…", "Reading section 4.2 of PS-04…"
    kind: Literal["status"] = "status"
    # For front ends that show the agent's steps one by one: the tool step this status starts
    # (its `StepEvent` ends it) and the rulebook it reads. Not part of equality: a status is its text.
    step: str = field(default="", compare=False)
    rulebook_id: str = field(default="", compare=False)


@dataclass
class StepEvent:
    """The tool step a `StatusEvent` with the same `step` started has ended, with what it read."""

    step: str
    text: str  # the step's status text
    ok: bool = True
    sources: list[StepSource] = field(default_factory=list)
    kind: Literal["step"] = "step"


@dataclass
class TokenEvent:
    text: str  # answer text released by the citation gate, in order
    kind: Literal["token"] = "token"


@dataclass
class FinalEvent:
    answer: Answer
    kind: Literal["final"] = "final"


AnswerEvent = StatusEvent | StepEvent | TokenEvent | FinalEvent

NO_GROUNDED_ANSWER = (
    "I could not find a grounded answer in the rulebooks; please ask the rulebook desk."
)
