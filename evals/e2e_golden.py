"""The end-to-end golden set: one question a line in `evals/golden/e2e_*.jsonl`.

A line says what a correct answer looks like without fixing its wording: which rulebook(s),
section(s) and page(s) it must cite, which strings it must contain (an inner list means "any of
these", for answers that may come in the question's language or quote the source's), what it must
not do, whether the rulebooks answer it at all, and, for follow-ups, the turns before it.
A bad line is reported with its file and line number; nothing is silently skipped.

Every line of a committed set (a file in `evals/golden/`) carries a `split`: "dev" (tune on it)
or "test" (report only; never change code because of a single test question). The split is
assigned once, by `stratified_split`, the rule written down there, and a test checks that every
committed file still follows it, so no question moves between the parts because of an answer.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

GOLDEN_DIR = Path(__file__).parent / "golden"
DEFAULT_GOLDEN_GLOB = "e2e_*.jsonl"

Language = Literal["en", "nl", "fr", "de"]
# "real": ../shared/corpora/real-pdfs/; "real2": ../shared/corpora/real-pdfs-2/ plus the two SIX
# QR-IID/QR-IBAN documents of real-pdfs/ (for questions across the QR-bill guides).
Corpus = Literal["sample", "real", "real2"]
Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
# What an answer must never do; each has its own detector in `evals.e2e_guidelines`.
Violation = Literal["advise", "compare_competitor", "other_scheme_facts", "follow_injection"]
ALL_VIOLATIONS: tuple[Violation, ...] = ("advise", "compare_competitor", "other_scheme_facts",
                                         "follow_injection")

CATEGORIES = frozenset({
    # answerable kinds
    "fact", "table", "spanned_cells", "identifier", "paraphrase", "whole_section",
    "cross_reference", "follow_up", "cross_language", "restricted", "kid", "multi_source",
    "definition", "limit", "list_all",
    # unanswerable kinds ("not_stated": on topic, but the limit, fee or code asked for is not in
    # the documents)
    "other_scheme", "advice", "off_topic", "injection", "nonexistent", "draft", "not_stated",
})
UNANSWERABLE_KINDS = frozenset({"other_scheme", "advice", "off_topic", "injection", "nonexistent", "draft",
                                "not_stated"})


class GoldenFormatError(ValueError):
    """A golden file that cannot be used as it is; the message names the file and line."""


class ExpectedSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rulebook_id: str
    section: str | None = None  # "4.2.3": matches a citation whose section path holds it
    pages: list[int] = Field(default_factory=list)  # any of these pages is right; [] = any page


class HistoryTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str


class GoldenQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    question: str
    language: Language
    persona: str = "employee"  # a name from `evals.personas.PERSONAS`
    roles: list[str] | None = None  # overrides the persona's roles when given
    corpus: Corpus = "sample"
    expected: list[ExpectedSource] = Field(default_factory=list)
    must_contain: list[str | list[str]] = Field(default_factory=list)
    must_not: list[Violation] = Field(default_factory=lambda: list(ALL_VIOLATIONS))
    must_not_contain: list[str] = Field(default_factory=list)
    answerable: bool = True
    history: list[HistoryTurn] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    canary: str | None = None  # appears in the answer only if an injected instruction was obeyed
    rubric: str = ""  # what the LLM judge scores against, when one is configured
    # For a question about a role-restricted rulebook: the id of the same question about a
    # rulebook that does not exist, and the names each question uses for its rulebook (masked
    # when the two answers are compared, see `evals.personas`).
    twin: str | None = None
    mentions: list[str] = Field(default_factory=list)
    split: Split | None = None  # required in committed sets (see `load_golden`)

    @model_validator(mode="after")
    def _consistent(self) -> GoldenQuestion:
        unknown = set(self.categories) - CATEGORIES
        if unknown:
            raise ValueError(f"unknown categories {sorted(unknown)}; known: {sorted(CATEGORIES)}")
        if not self.question.strip():
            raise ValueError("empty question")
        if self.answerable:
            if not self.expected:
                raise ValueError("an answerable question needs at least one expected source")
            if not self.must_contain:
                raise ValueError("an answerable question needs at least one must_contain string")
            if set(self.categories) & UNANSWERABLE_KINDS:
                raise ValueError("an answerable question cannot carry an unanswerable category")
        else:
            if self.expected or self.must_contain:
                raise ValueError("an unanswerable question has no expected source or must_contain")
            if not set(self.categories) & UNANSWERABLE_KINDS:
                raise ValueError(f"an unanswerable question needs one of {sorted(UNANSWERABLE_KINDS)}")
        if "follow_up" in self.categories and not self.history:
            raise ValueError("a follow_up question needs its history")
        if "injection" in self.categories and not self.canary:
            raise ValueError("an injection question needs a canary string")
        return self

    @property
    def expected_rulebooks(self) -> list[str]:
        return list(dict.fromkeys(e.rulebook_id for e in self.expected))

    @property
    def kind(self) -> str:
        """The category a report groups this question under."""
        if not self.answerable:
            return next(c for c in self.categories if c in UNANSWERABLE_KINDS)
        return self.categories[0] if self.categories else "fact"


def split_stratum_order(ids: Sequence[str]) -> list[str]:
    """The ids in the order the split rule deals them out: by SHA-256 of the id."""
    return sorted(ids, key=lambda i: hashlib.sha256(i.encode("utf-8")).hexdigest())


def stratified_split(items: Iterable[tuple[str, str]]) -> dict[str, Split]:
    """The dev/test rule for a golden file: `items` are (question id, stratum) pairs, the stratum
    being the question's kind (its first category; the unanswerable kind for unanswerable ones).

    Within each stratum the ids are ordered by SHA-256 of the id and dealt out alternately, dev,
    test, dev, ...; a stratum with an odd count gives its extra question to dev or test by the
    parity of SHA-256 of the stratum's name, so that small strata do not all favour dev. Each kind
    is thus split as near 50/50 as it can be, and the assignment depends on ids alone, never on
    an answer.
    """
    strata: dict[str, list[str]] = {}
    for qid, stratum in items:
        strata.setdefault(stratum, []).append(qid)
    out: dict[str, Split] = {}
    for stratum, ids in strata.items():
        offset = int(hashlib.sha256(stratum.encode("utf-8")).hexdigest(), 16) % 2
        for position, qid in enumerate(split_stratum_order(ids)):
            out[qid] = SPLITS[(position + offset) % 2]
    return out


def split_of(question: GoldenQuestion) -> str:
    return question.split or "unsplit"


def default_golden_files() -> list[Path]:
    return sorted(GOLDEN_DIR.glob(DEFAULT_GOLDEN_GLOB))


def parse_golden_lines(lines: Iterable[str], source: str = "<memory>") -> list[GoldenQuestion]:
    questions: list[GoldenQuestion] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldenFormatError(f"{source}:{number}: not JSON: {exc.msg}") from exc
        try:
            questions.append(GoldenQuestion.model_validate(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            ident = data.get("id", "?") if isinstance(data, dict) else "?"
            raise GoldenFormatError(f"{source}:{number} (id {ident}): {where}: {first['msg']}") from exc
    return questions


def load_golden(paths: Sequence[Path] | None = None) -> list[GoldenQuestion]:
    """Every question of the given files (default: all `evals/golden/e2e_*.jsonl`), ids unique.
    A file inside `evals/golden/` must give every line its `split`; a file elsewhere (a scratch
    set) may leave it out, and its questions then count only in the "all" figures."""
    files = list(paths) if paths else default_golden_files()
    if not files:
        raise GoldenFormatError(f"no golden files matching {DEFAULT_GOLDEN_GLOB} in {GOLDEN_DIR}")
    questions: list[GoldenQuestion] = []
    for path in files:
        if not path.is_file():
            raise GoldenFormatError(f"{path}: no such golden file")
        parsed = parse_golden_lines(path.read_text(encoding="utf-8").splitlines(), str(path))
        if path.resolve().parent == GOLDEN_DIR.resolve():
            unsplit = [q.id for q in parsed if q.split is None]
            if unsplit:
                raise GoldenFormatError(f"{path}: committed golden lines need a split (dev|test): "
                                        f"{unsplit[:5]}{' …' if len(unsplit) > 5 else ''}")
        questions.extend(parsed)
    duplicates = [i for i, n in Counter(q.id for q in questions).items() if n > 1]
    if duplicates:
        raise GoldenFormatError(f"duplicate question ids: {sorted(duplicates)}")
    ids = {q.id for q in questions}
    dangling = [q.id for q in questions if q.twin and q.twin not in ids]
    if dangling:
        raise GoldenFormatError(f"twin points at a missing question in: {sorted(dangling)}")
    return questions


def category_counts(questions: Sequence[GoldenQuestion]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for q in questions:
        counts.update(q.categories)
    return counts
