"""Element questions generated from the message guides' own structure tables: a benchmark nobody wrote.

A message definition report (the two ISO 20022 guides of real-pdfs-2) lists each message's elements
in a structure table, a row an element: "Assignee <Assgne> | [1..1] | ± | | 230" (name and XML tag,
multiplicity, type, the page of the element's record). Each row is a question with its answer, in
three wordings a user would use:
- "What is the multiplicity of Assignee in camt.039?"
- "Is Assignee mandatory in a CaseStatusReport message?"
- "How often can Assignee occur in the CaseStatusReport message?"

A second family asks what an element is, from its record in the message's chapter ("5.4.3
CreditorAgent <CdtrAgt> / Presence: [0..1] / Definition: Financial institution servicing an account for
the creditor."): "What is CreditorAgent in the ResolutionOfInvestigation message?" and "What does the
element CreditorAgent of camt.029 hold?"; the answer must state the definition (its first 60
characters) and cite the record's page.

A third family asks the same about an element the named message does not have ("What is the
multiplicity of ClearingSystem in camt.039?", where only other messages carry ClearingSystem): the
guide's answer is that camt.039 has none, and the assistant must refuse rather than quote another
message's row. A message has an element when its chapter, or a component its chapter details
elsewhere ("see "CaseAssignment5" on page 229"), writes the element's name
(`bot.offline.message_elements`, the same reading the assistant's check uses: this family measures
the answer path, not that reading, which its unit tests pin).

Two more families ask the first and the third in a user's words, the element's name spelled out
("Is the interbank settlement amount mandatory in a FIToFIPaymentCancellationRequest message?", "How
often can the case assignment occur in camt.039?"): `spelled` (answerable, from the structure rows)
and `spelled_absent` (refused, from the absent pairs); names of one word are not asked this way. The
assistant reads words more warily than names (`bot.offline.message_elements`): a pair whose message
writes the element's words inside another name ("payment information cancellation" inside a longer
name) is answered, so `spelled_absent` cannot reach every pair, and it is built from exact names, not
from the check's reading: it measures the answer path, and the golden sets' real wording measures the
reading (no golden question is flagged).

Two families ask when an element must be present or is not allowed, from the constraint rules a
message's chapter lists ("C26 PartialOrRejectedCancellationRule / If Status/Confirmation is present
and equal to PECR or RJCR then CancellationDetails must be present."): `required` ("When must
CancellationDetails be present in the ResolutionOfInvestigation message?") and `forbidden` ("When is
AmendmentInformationDetails not allowed in camt.029?"); the answer must state the rule (its first 60
characters) and cite a page of the message's chapter that writes it (its constraints, or the record
of the element, which lists the element's rules again). Only rules that open with their condition ("If …") and name
one element the message lists with its tag; an element two rules of the same kind constrain is left
out (either would be right).

The truth is read from the table, the record or the rule, so nobody chose a question after seeing an answer. It is the
issue's "identifier lookups in message guides" kind at scale: an element recurs in many messages
(Assignee is in nearly every E&I message), and only the named message's row or record answers.

Scored with the golden sets' rules (`evals.e2e_scoring`): answered; right page (the structure
table's page or the element's record page the row points to; a record's own page); the multiplicity
stated (the table's "[1..1]" or the record's "(1..1)": brackets count as one) or the definition; right
= all three.

Split: each (message, element) pair is dev or test by a stable hash (`split_of`), so a change tuned
on dev pairs is checked on pairs it never saw. Rows are sampled per split with a fixed seed, one
wording per row in turn. Pairs the golden sets name are left out.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from bot.offline.message_elements import FrozenMessageWords, MessageWords, constraints_section
from bot.offline.span_scoring import MessageChapter, message_chapter
from evals.e2e_golden import GoldenQuestion
from evals.e2e_scoring import QuestionResult
from knowledge.payload import ChunkPayload

SEED = 7
PER_SPLIT = 120
WORDINGS = (
    "What is the multiplicity of {name} in {message_id}?",
    "Is {name} mandatory in a {message_name} message?",
    "How often can {name} occur in the {message_name} message?",
)
DEFINITION_WORDINGS = (
    "What is {name} in the {message_name} message?",
    "What does the element {name} of {message_id} hold?",
)
# the same element spelled out in words, as a user who has not read the guide writes it ("Is the
# interbank settlement amount mandatory …?"): only names of two words or more, since one word spelled
# is the name itself
SPELLED_WORDINGS = (
    "Is the {spelled} mandatory in a {message_name} message?",
    "How often can the {spelled} occur in {message_id}?",
)
# when an element must be present or may not be, from the message's constraint rules
REQUIRED_WORDINGS = (
    "When must {name} be present in the {message_name} message?",
    "In {message_id}, under which condition is {name} required?",
)
FORBIDDEN_WORDINGS = ("When is {name} not allowed in the {message_name} message?",)
DEFINITION_CHARS = 60  # the start of a definition the answer must state (long ones wrap across lines)
# an element's record as the guides print it: "5.4.3 CreditorAgent <CdtrAgt> Presence: [0..1] Definition: …"
_RECORD = re.compile(r"\b([A-Z][A-Za-z]+) <\w+>\s+Presence:\s*[\[(]\d+\.\.(?:\d+|\*)[\])]\s+Definition:\s*([^.]{20,}?)\.")
_ELEMENT = re.compile(r"^([A-Z][A-Za-z]+)\s*<\w+>$")
_MULTIPLICITY = re.compile(r"^[\[(]\d+\.\.(?:\d+|\*)[\])]$")
# a rule of a message's "Constraints" section: "C26 PartialOrRejectedCancellationRule", a blank line, its text
_RULE = re.compile(r"(?m)^C\d+ [A-Z][A-Za-z0-9]+\s*\n\s*\n(.+?)(?=\n\s*\n|\Z)", re.S)
# "… then CancellationDetails must be present", "… then OriginalGroupInformation/Reason is not allowed": one
# element, the rule's whole consequence ("then A or B must be present" constrains neither alone)
_CONSTRAINED = re.compile(r"\bthen (?:[A-Za-z]+/)*([A-Z][a-z]\w+) (must be present|is not allowed)\b")
_RULE_FAMILY = {"must be present": "required", "is not allowed": "forbidden"}


@dataclass(frozen=True)
class ElementRow:
    rulebook_id: str
    message_id: str  # "camt.039"
    message_name: str  # "CaseStatusReport"
    element: str  # "Assignee"
    stated: str  # what the answer must state: the multiplicity "[1..1]", or a record's definition's start
    pages: tuple[int, ...]  # the structure table's pages and the record's page; a record's own pages
    # or "definition", or "absent" (the message has no such element: refuse), or "required"/"forbidden"
    family: str = "multiplicity"


def split_of(row: ElementRow) -> str:
    """"dev" or "test", fixed per (message, element) pair."""
    digest = hashlib.sha256(f"{row.message_id}/{row.element}".encode()).digest()
    return "dev" if digest[0] % 2 == 0 else "test"


def structure_rows(chunks: Iterable[ChunkPayload]) -> list[ElementRow]:
    """Every element row of the structure tables in these chunks (a table with a "Mult." column, in
    a chapter whose heading names a message), once per (message, element): the first row's
    multiplicity, right on the pages of every row of the element in that message that states the same
    one (an element recurs in a message's blocks)."""
    rows: dict[tuple[str, str], ElementRow] = {}
    for chunk, message in _in_message_chapters(chunks):
        for table in chunk.tables_csv:
            lines = list(csv.reader(io.StringIO(table)))
            if not lines:
                continue
            header = [h.strip() for h in lines[0]]
            mult = next((i for i, h in enumerate(header) if h.startswith("Mult")), None)
            page = next((i for i, h in enumerate(header) if h == "Page"), None)
            if mult is None:
                continue
            for cells in lines[1:]:
                named = next((m for c in cells if (m := _ELEMENT.match(c.strip()))), None)
                if named is None or len(cells) <= mult or not _MULTIPLICITY.match(cells[mult].strip()):
                    continue
                record = cells[page].strip() if page is not None and len(cells) > page else ""
                pages = set(range(chunk.page_start, chunk.page_end + 1))
                pages |= {int(record)} if record.isdigit() else set()
                row = ElementRow(chunk.rulebook_id, message.message_id, message.name, named.group(1),
                                 cells[mult].strip(), tuple(sorted(pages)))
                first = rows.setdefault((message.message_id, row.element), row)
                if first is not row and first.stated == row.stated:
                    # the element again, in another block of the same message ("CountryOfResidence" of the
                    # debtor and of the creditor): the same multiplicity, so its row answers as well
                    rows[(message.message_id, row.element)] = replace(
                        first, pages=tuple(sorted({*first.pages, *row.pages})))
    return list(rows.values())


def element_records(chunks: Iterable[ChunkPayload]) -> list[ElementRow]:
    """Every element record in the chunks of a message's chapter, once per (message, element), with
    the start of its definition."""
    rows: dict[tuple[str, str], ElementRow] = {}
    for chunk, message in _in_message_chapters(chunks):
        for record in _RECORD.finditer(" ".join(chunk.text.split())):
            rows.setdefault((message.message_id, record.group(1)), ElementRow(
                chunk.rulebook_id, message.message_id, message.name, record.group(1),
                record.group(2)[:DEFINITION_CHARS], tuple(range(chunk.page_start, chunk.page_end + 1)), "definition"))
    return list(rows.values())


def constraint_rules(chunks: Iterable[ChunkPayload]) -> list[ElementRow]:
    """Every constraint rule of a message's "Constraints" section that opens with its condition and says
    when an element the message lists (with its tag) must be present or is not allowed, once per
    (message, element, kind); an element two different rules of one kind constrain is left out."""
    chunks = list(chunks)
    index = _message_words(chunks)
    found: dict[tuple[str, str, str], list[ElementRow]] = {}
    for chunk, message in _in_message_chapters(chunks):
        if constraints_section(chunk) is None:
            continue
        for rule in _RULE.finditer(chunk.text):
            text = " ".join(rule.group(1).split())
            constrained = _CONSTRAINED.search(text)
            if not text.startswith("If ") or constrained is None:
                continue
            element, kind = constrained.group(1), _RULE_FAMILY[constrained.group(2)]
            if element.casefold() not in index.elements or \
                    element.casefold() not in index.words.get((chunk.rulebook_id, message.message_id), ()):
                continue
            found.setdefault((message.message_id, element, kind), []).append(ElementRow(
                chunk.rulebook_id, message.message_id, message.name, element, text[:DEFINITION_CHARS],
                tuple(range(chunk.page_start, chunk.page_end + 1)), kind))
    # the rule is right on every page of the message's chapter that writes it: its constraints, and the
    # record of the element it constrains, which lists its rules again
    chapters: dict[tuple[str, str], list[ChunkPayload]] = {}
    for chunk, message in _in_message_chapters(chunks):
        chapters.setdefault((chunk.rulebook_id, message.message_id), []).append(chunk)
    rules = []
    for rows in found.values():
        if len({r.stated for r in rows}) > 1:
            continue
        row = rows[0]
        pages = {p for chunk in chapters[(row.rulebook_id, row.message_id)] if row.stated in " ".join(chunk.text.split())
                 for p in range(chunk.page_start, chunk.page_end + 1)}
        rules.append(replace(row, pages=tuple(sorted(pages))))
    return rules


def absent_elements(chunks: Sequence[ChunkPayload], rows: Sequence[ElementRow]) -> list[ElementRow]:
    """(message, element) pairs of the same guide where the element is one of `rows` (another
    message's) and the message's chapter and the components it details never name it."""
    index = _message_words(chunks)
    elements = sorted({(r.rulebook_id, r.element) for r in rows})
    absent = []
    for (rulebook_id, message_id), held in sorted(index.words.items()):
        for guide, element in elements:
            if guide == rulebook_id and element.casefold() not in held:
                absent.append(ElementRow(rulebook_id, message_id, index.names[(rulebook_id, message_id)], element,
                                         "", (), "absent"))
    return absent


def _message_words(chunks: Iterable[ChunkPayload]) -> FrozenMessageWords:
    """Each message's words, names and constraints, read as the assistant's corpus vocabulary reads them."""
    words = MessageWords()
    for chunk in chunks:
        words.add(chunk)
    return words.freeze()


def _in_message_chapters(chunks: Iterable[ChunkPayload]) -> Iterator[tuple[ChunkPayload, MessageChapter]]:
    for chunk in chunks:
        if (message := message_chapter(chunk)) is not None:
            yield chunk, message


def probe_questions(rows: Sequence[ElementRow], per_split: int = PER_SPLIT, seed: int = SEED,
                    asked: str = "") -> list[GoldenQuestion]:
    """`per_split` questions of each split and family, sampled with `seed`, leaving out elements
    `asked` names (the golden sets' question texts); a family's wordings take turns."""
    questions: list[GoldenQuestion] = []
    for family in FAMILIES.values():
        source, wordings = family.rows, family.wordings
        for split in ("dev", "test"):
            pool = sorted((r for r in rows if r.family == source and split_of(r) == split and r.element not in asked
                           and (not family.spelled or len(name_words(r.element)) > 1)),
                          key=lambda r: (r.message_id, r.element))
            random.Random(seed).shuffle(pool)
            for index, row in enumerate(pool[:per_split]):
                wording = wordings[index % len(wordings)]
                text = wording.format(name=row.element, spelled=" ".join(name_words(row.element)),
                                      message_id=row.message_id, message_name=row.message_name)
                qid = f"el-{family.code}-{split}-{index:03d}-{row.message_id}-{row.element}"
                if source == "absent":
                    questions.append(GoldenQuestion(id=qid, question=text, language="en", corpus="real2",
                                                    answerable=False, categories=["nonexistent"], split=split))
                    continue
                questions.append(GoldenQuestion(
                    id=qid, question=text, language="en", corpus="real2",
                    expected=[{"rulebook_id": row.rulebook_id, "pages": list(row.pages)}],
                    must_contain=[row.stated], categories=[_CATEGORY.get(source, "definition")],
                    split=split))
    return questions


_CATEGORY = {"multiplicity": "table", "required": "limit", "forbidden": "limit"}  # the golden sets' kinds


def name_words(element: str) -> list[str]:
    """An element's name as words ("InterbankSettlementAmount" -> interbank, settlement, amount)."""
    return [w.lower() for w in re.findall(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+", element)]


class Family(NamedTuple):
    code: str  # in the question ids: "el-mul-dev-006-…"
    rows: str  # the `ElementRow.family` it asks about
    wordings: tuple[str, ...]
    spelled: bool = False  # the element spelled out in words (names of two words or more)


FAMILIES = {
    "multiplicity": Family("mul", "multiplicity", WORDINGS),
    "definition": Family("def", "definition", DEFINITION_WORDINGS),
    "absent": Family("abs", "absent", WORDINGS + DEFINITION_WORDINGS),
    "spelled": Family("spl", "multiplicity", SPELLED_WORDINGS, spelled=True),
    "spelled_absent": Family("spa", "absent", SPELLED_WORDINGS, spelled=True),
    "required": Family("req", "required", REQUIRED_WORDINGS),
    "forbidden": Family("frb", "forbidden", FORBIDDEN_WORDINGS),
}
ALL_WORDINGS = WORDINGS + DEFINITION_WORDINGS + SPELLED_WORDINGS + REQUIRED_WORDINGS + FORBIDDEN_WORDINGS


def wording_of(question: GoldenQuestion) -> int:
    """The wording a question was asked in: the longest wording whose fixed start it has ("Is the …"
    before "Is …")."""
    starts = [(len(w.split("{")[0]), i) for i, w in enumerate(ALL_WORDINGS) if question.question.startswith(w.split("{")[0])]
    return max(starts)[1]


def report(questions: Sequence[GoldenQuestion], results: Sequence[QuestionResult]) -> dict[str, Any]:
    """Answered, right page, the value stated and right (all three), per split, family and wording."""
    by_id = {q.id: q for q in questions}

    def figures(part: Sequence[QuestionResult]) -> dict[str, Any]:
        answered = [r for r in part if r.outcome == "answered"]
        right_page = sum(bool(r.citation_ok) for r in answered)
        stated = sum(r.must_contain_ok for r in answered)
        right = sum(_right(r) for r in part)
        n = len(part)
        return {"questions": n, "answered": len(answered), "right_page": right_page, "stated": stated,
                "right": right, "right_share": round(right / n, 4) if n else 0.0,
                "answered_share": round(len(answered) / n, 4) if n else 0.0,
                "right_page_share": round(right_page / len(answered), 4) if answered else 0.0}

    out: dict[str, Any] = {"splits": {}, "families": {}, "wordings": list(ALL_WORDINGS)}
    for split in ("dev", "test"):
        # the answerable families together (as before the absent family was added)
        part = [r for r in results if by_id[r.id].split == split and by_id[r.id].answerable]
        out["splits"][split] = figures(part) | {
            "by_wording": [figures([r for r in part if wording_of(by_id[r.id]) == i]) for i in range(len(ALL_WORDINGS))]}
    for name, family in FAMILIES.items():
        out["families"][name] = {
            split: figures([r for r in results if by_id[r.id].split == split
                            and r.id.startswith(f"el-{family.code}-")])
            for split in ("dev", "test")}
    out["failing"] = {split: [r.id for r in results if by_id[r.id].split == split and not _right(r)]
                      for split in ("dev", "test")}
    return out


def _right(result: QuestionResult) -> bool:
    """Answered, on an expected page, stating the value (`QuestionResult.passed` also fails an answer
    for a guideline violation or an unsupported sentence, which the probe does not score); for an
    element the message does not have, refused."""
    if not result.answerable:
        return result.outcome == "refused"
    return result.outcome == "answered" and bool(result.citation_ok) and result.must_contain_ok
