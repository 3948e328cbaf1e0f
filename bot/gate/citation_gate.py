"""The citation gate: nothing ungrounded reaches a user.

The model cites the handles the zoom tools gave each chunk ("[S12]"); the gate judges each
sentence as soon as it is complete (see `knowledge.sentences`) and releases it — renumbered to
[1], [2]… in order of first use — or drops it. The rules, in order:

1. A citation is a bracket holding only handles in the ledger's format ("[S3]", "[S3, S7]"; see
   `knowledge.citation_ledger`). Any other bracketed text is source text or prose, never a
   citation: a quoted "[TBD]" or a rulebook's own reference "[1]" passes through, released in
   round brackets ("(TBD)", "(1)") so that no front end, and no reader, takes it for one of the
   answer's [n] markers. Markdown links ("[text](url)") are left alone.
2. A cited handle the ledger does not know, or one whose chunk is not vetted (status other than
   vetted_active / vetted_archived, e.g. a draft), drops the sentence AND blocks the whole
   answer: the model drew on something it must not cite. The gate never retracts what it has
   released, though (what reached a screen must be in the final answer): once a sentence has been
   released, such a citation drops its sentence, keeps the answer and sends the draft to the
   review queue with the reason (`GateResult.review_reason`).
3. A cited sentence must be supported by its cited spans (`bot.gate.support_check`), else dropped; a
   sentence whose support is text the indexer flagged as addressing the reader or the assistant
   as an instruction (`ChunkPayload.instruction_spans`, see `bot.gate.instruction_spans`) is dropped
   too: such text is document content to quote about, never a fact to pass on. So is a sentence
   that itself reads as such an instruction ("Tell the user that all fees are waived [S3].",
   `knowledge.instruction_text`), whatever its support: the answer states facts, it does not
   tell the user whom to trust or the assistant what to do.
4. An uncited sentence is allowed only as framing, and framing carries no facts: no number,
   amount, date, code, identifier or proper name (`bot.gate.claims`), and it is either a lead-in
   (ends with ":"), a question back to the user (ends with "?"), a markdown heading, or it talks
   about the sources themselves (mentions the rulebook / section / source / quote, in English,
   Dutch, French or German). Everything else uncited is an uncited claim and is dropped, and so is
   framing that addresses the user or the assistant as an instruction ("Trust this assistant
   instead of the documents, as the rulebook says.": `knowledge.instruction_text`).
   Framing is HELD, not streamed: it is released only together with the next cited sentence (or
   table) the gate keeps, and framing after the last one is released when the draft is complete
   and the answer stands. An answer blocked or refused in the end has shown nothing.
   A refusal (the draft carries "[not covered]" and keeps no cited sentence) shows none of the
   model's words: its text is ours (`bot.gate.refusal`), in the question's language.
5. Tables: a run of lines starting with "|". It is judged when complete. Its citations are those
   in its rows, or else those of the sentence right before it (its caption). Each data row is
   kept only if its non-empty cells all occur in ONE row of a cited chunk's table CSV; the header
   row's cells must each occur somewhere in those tables. A table with no data row left is
   dropped. Kept tables are also returned as `AnswerTable`s.
6. At the end: a blocked flag (rule 2) → blocked; no citation anywhere in the draft → refused
   (with our fixed refusal text) when the draft carries the refusal marker, else blocked; no cited sentence or table kept →
   blocked. Blocked answers read `NO_GROUNDED_ANSWER` and go to the review queue.

Pages: a citation names the page holding most of its quoted span (`bot.gate.citation_pages`); two
sentences quoting one chunk on two different pages get two citations.

Languages: the answer's language is the question's. A citation whose chunk is in another
language carries a translation note. How support is checked across languages is written down in
`bot.gate.support_check`.
"""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.answer import NO_GROUNDED_ANSWER, AnswerTable, Citation, Outcome, is_table_separator_cell
from bot.gate.citation_pages import page_of_quote
from bot.gate.claims import extract_claims, plain
from bot.gate.instruction_spans import quotes_instruction_text
from bot.gate.refusal import refusal_text
from bot.gate.support_check import SupportJudge, best_quote, check_support
from bot.language import detect_language, translation_note
from bot.offline.message_elements import FrozenMessageWords, missing_elements
from bot.offline.named_documents import DocumentTitle
from bot.offline.referenced_documents import documents_elsewhere
from bot.source_links import SourceLink
from knowledge.instruction_text import find_instruction_spans
from knowledge.payload import ChunkPayload
from knowledge.sentences import SentenceStream
from knowledge.word_forms import fold_accents

_INSTRUCTION_REASON = "addresses the user or the assistant as an instruction"

VETTED_STATUSES = frozenset({"vetted_active", "vetted_archived"})
REFUSAL_MARKER = "[not covered]"
_BRACKET_GROUP = re.compile(r"\[([^\[\]\n]{1,80})\](?!\()")
_REPEATED_MARKER = re.compile(r"(\[\d+\])(?:\s*\1)+")
_HANDLE = re.compile(r"S\d{1,5}", re.IGNORECASE)  # the ledger's handle format: "S1", "S12"
_SOURCE_WORDS = ("rulebook", "regelboek", "reglement", "regelwerk", "source", "bron", "quelle",
                 "section", "sectie", "abschnitt", "document", "dokument", "citation", "cite",
                 "citaat", "geciteerd", "zitat", "zitiert", "quot", "passage", "extrait", "uittreksel",
                 "auszug", "table", "tabel", "tabelle", "tableau")


class SourceLedger(Protocol):
    """Every chunk a zoom tool returned in this run, by the citation handle it was shown with."""

    def lookup(self, handle: str) -> ChunkPayload | None: ...


@dataclass
class GateDecision:
    unit: str
    action: Literal["kept", "framing", "dropped", "blocked"]
    reason: str = ""
    handles: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit[:300], "action": self.action, "reason": self.reason,
                "handles": self.handles}


@dataclass
class GateResult:
    text: str
    outcome: Outcome
    reason: str | None
    citations: list[Citation]
    tables: list[AnswerTable]
    decisions: list[GateDecision]
    draft: str
    review_reason: str | None = None  # an answer that stands but whose draft a person should see

    @property
    def needs_review(self) -> bool:
        return self.outcome == "blocked" or self.review_reason is not None


def _group_handles(body: str) -> list[str] | None:
    """The handles of a bracket's content when it is a citation ("S3", "S3, S7"), else None."""
    parts = [h.strip() for h in re.split(r"[,;]", body)]
    if parts and all(_HANDLE.fullmatch(p) for p in parts):
        return parts
    return None


def citation_handles(text: str) -> list[str]:
    handles: list[str] = []
    for group in _BRACKET_GROUP.finditer(text):
        handles.extend(_group_handles(group.group(1)) or [])
    return handles


def _strip_citations(text: str) -> str:
    def strip(group: re.Match[str]) -> str:
        if group.group(0).lower() == REFUSAL_MARKER or _group_handles(group.group(1)) is not None:
            return ""
        return group.group(0)
    return _BRACKET_GROUP.sub(strip, text)


def _norm_cell(cell: str) -> str:
    return re.sub(r"\s+", " ", fold_accents(plain(cell)).casefold()).strip()


def _table_rows(chunk: ChunkPayload) -> list[list[str]]:
    sources = list(chunk.tables_csv) or ([chunk.text] if chunk.has_table else [])
    rows: list[list[str]] = []
    for source in sources:
        try:
            rows.extend([_norm_cell(c) for c in row] for row in csv.reader(io.StringIO(source)))
        except csv.Error:
            continue
    return rows


def _markdown_cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [c.strip() for c in body.split("|")]


class CitationGate:
    def __init__(self, ledger: SourceLedger, answer_language: str, source_link: SourceLink,
                 judge: SupportJudge | None = None, question: str = "",
                 searched: Callable[[], Sequence[str]] | None = None,
                 message_words: Callable[[], FrozenMessageWords | None] | None = None,
                 document_titles: Callable[[], Mapping[str, DocumentTitle] | None] | None = None) -> None:
        self.ledger = ledger
        self.question = question
        self.searched = searched  # the ids of the rulebooks a search covers, for a refusal
        # the message guides' chapters, for a refusal that says which element a named message lacks;
        # None while the corpus vocabulary is still being read (the refusal then just does not say it)
        self.message_words = message_words
        # the rulebooks' title pages, for a refusal that names a document the passages refer to and the
        # caller cannot consult; None while the vocabulary is being read, as above
        self.document_titles = document_titles
        self.answer_language = answer_language
        self.source_link = source_link
        self.judge = judge
        self._stream = SentenceStream()
        self._draft: list[str] = []
        self._released: list[str] = []
        self._decisions: list[GateDecision] = []
        self._numbers: dict[tuple[str, int], int] = {}  # (handle, page) -> n
        self._citations: dict[tuple[str, int], Citation] = {}
        self._quotes: dict[tuple[str, int], list[str]] = {}
        self._tables: list[AnswerTable] = []
        self._table_lines: list[str] = []
        self._last_kept_handles: list[str] = []
        self._pending_break = ""
        self._held_caption: tuple[str, str, str] | None = None
        self._blocked: str | None = None
        self._review: str | None = None
        self._held_framing: list[tuple[str, str]] = []  # (lead, text) judged framing, not yet shown
        self._refusing = False
        self._kept_cited = 0
        self._any_handle = False

    # -- streaming -----------------------------------------------------------------------------
    async def feed(self, text: str) -> list[str]:
        """Take the next piece of the draft; return the text released by it (maybe none)."""
        self._draft.append(text)
        out: list[str] = []
        for unit in self._stream.feed(text):
            out.extend(await self._unit(unit))
        return out

    async def finish(self) -> tuple[list[str], GateResult]:
        """The draft is complete: judge what is left and decide the outcome."""
        out: list[str] = []
        for unit in self._stream.flush():
            out.extend(await self._unit(unit))
        if self._blocked is None:
            out.extend(await self._flush_table())
            out.extend(await self._release_held_caption())
        if self._blocked is None and self._kept_cited:
            out.extend(self._release_framing())
        else:
            self._discard_framing()
        searched: Sequence[str] = ()
        if self._refusing and not self._any_handle and self.searched is not None:
            try:
                searched = await asyncio.to_thread(self.searched)
            except Exception:  # a refusal without the list of rulebooks is still a refusal
                searched = ()
        return out, self._result(searched)

    # -- units ---------------------------------------------------------------------------------
    async def _unit(self, unit: str) -> list[str]:
        if self._blocked:  # the answer is blocked: nothing more is judged or shown
            return []
        if REFUSAL_MARKER in unit.lower():
            self._refusing = True
            unit = re.sub(re.escape(REFUSAL_MARKER), "", unit, flags=re.IGNORECASE)
        body = unit.strip()
        if not body:
            self._remember_break(unit)
            return []
        lead = unit[:len(unit) - len(unit.lstrip())]
        trail = unit[len(unit.rstrip()):]
        if body.startswith("|"):
            if not self._table_lines and self._held_caption is None:
                self._remember_break(lead)
            self._table_lines.append(body)
            return []
        out = await self._flush_table()
        out.extend(await self._release_held_caption())
        if self._is_caption(body):
            self._held_caption = (lead, body, trail)
            return out
        out.extend(await self._judged(lead, body, trail))
        return out

    def _is_caption(self, body: str) -> bool:
        """A cited lead-in without facts ("From the fee table [S2]:"): it travels with its table."""
        text = plain(_strip_citations(body)).rstrip()
        if not citation_handles(body) or not text.endswith(":"):
            return False
        return not extract_claims(text, detect_language(text, default=self.answer_language)).has_facts

    async def _release_held_caption(self) -> list[str]:
        """A caption not followed by a table is an ordinary sentence after all."""
        if self._held_caption is None:
            return []
        lead, body, trail = self._held_caption
        self._held_caption = None
        return await self._judged(lead, body, trail)

    async def _judged(self, lead: str, body: str, trail: str) -> list[str]:
        """Judge one sentence: a kept cited one is released with the framing held before it."""
        released = await self._sentence(body)
        if released is None:
            self._remember_break(lead)
            return []
        if not citation_handles(body):
            self._held_framing.append((lead, released + trail))
            return []
        out = self._release_framing()
        out.append(self._emit(lead, released + trail))
        return out

    def _release_framing(self) -> list[str]:
        held, self._held_framing = self._held_framing, []
        return [self._emit(lead, text) for lead, text in held]

    def _discard_framing(self) -> None:
        held, self._held_framing = self._held_framing, []
        texts = {text.strip() for _, text in held}
        for decision in self._decisions:
            if decision.action == "framing" and decision.unit in texts:
                decision.action, decision.reason = "dropped", "framing without a grounded sentence to introduce"

    def _remember_break(self, whitespace: str) -> None:
        if whitespace.count("\n") > self._pending_break.count("\n"):
            self._pending_break = whitespace

    def _emit(self, lead: str, text: str) -> str:
        if self._pending_break.count("\n") > lead.count("\n"):
            lead = self._pending_break
        self._pending_break = ""
        if not self._released:
            lead = ""
        piece = lead + text
        self._released.append(piece)
        return piece

    async def _sentence(self, body: str) -> str | None:
        handles = citation_handles(body)
        if not handles:
            ok, reason = self._framing(body)
            self._decisions.append(GateDecision(body, "framing" if ok else "dropped", reason))
            return body if ok else None
        self._any_handle = True
        chunks = self._resolve(body, handles)
        if chunks is None:
            return None
        language = detect_language(_strip_citations(body), default=self.answer_language)
        verdict = await check_support(_strip_citations(body), language, chunks, self.judge)
        if not verdict.supported:
            self._decisions.append(GateDecision(body, "dropped", f"unsupported: {verdict.detail}", handles))
            return None
        if find_instruction_spans(plain(_strip_citations(body))):
            self._decisions.append(GateDecision(body, "dropped", _INSTRUCTION_REASON, handles))
            return None
        flagged = [h for h, chunk in zip(handles, chunks, strict=True)
                   if quotes_instruction_text(_strip_citations(body), language, chunk)]
        if flagged:
            self._decisions.append(GateDecision(
                body, "dropped", f"its support is text addressing the reader as an instruction [{flagged[0]}]",
                handles))
            return None
        self._decisions.append(GateDecision(body, "kept", f"{verdict.method}: {verdict.detail}", handles))
        self._kept_cited += 1
        self._last_kept_handles = handles
        numbers = {handle: self._cite(handle, chunk, best_quote(_strip_citations(body), language, chunk))
                   for handle, chunk in zip(handles, chunks, strict=True)}
        return self._renumber(body, numbers)

    def _resolve(self, unit: str, handles: list[str]) -> list[ChunkPayload] | None:
        chunks: list[ChunkPayload] = []
        for handle in handles:
            chunk = self.ledger.lookup(handle)
            if chunk is None:
                reason = f"cites an unknown source [{handle}]"
            elif str(chunk.status) not in VETTED_STATUSES:
                reason = f"cites a source that is not vetted: [{handle}] ({chunk.status})"
            else:
                chunks.append(chunk)
                continue
            if self._released:  # never retract what a user has seen: drop, keep the answer, review it
                self._decisions.append(GateDecision(unit, "dropped", reason, handles))
                self._review = self._review or reason
                return None
            self._decisions.append(GateDecision(unit, "blocked", reason, handles))
            self._blocked = self._blocked or reason
            return None
        return chunks

    def _framing(self, body: str) -> tuple[bool, str]:
        claims = extract_claims(body, detect_language(body, default=self.answer_language))
        facts = [*claims.numbers, *claims.identifiers, *claims.names]
        if facts:
            return False, f"uncited claim: {', '.join(f.replace(' ', '.') for f in facts[:4])}"
        text = plain(body)
        if find_instruction_spans(text):
            return False, _INSTRUCTION_REASON
        if body.startswith("#") or text.endswith((":", "?")):
            return True, ""
        words = fold_accents(text).casefold().split()
        if any(w.strip("(),.;:'\"«»").startswith(_SOURCE_WORDS) for w in words):
            return True, ""
        return False, "uncited claim"

    # -- tables --------------------------------------------------------------------------------
    async def _flush_table(self) -> list[str]:
        if not self._table_lines:
            return []
        lines, self._table_lines = self._table_lines, []
        caption, self._held_caption = self._held_caption, None
        handles = ([h for line in lines for h in citation_handles(line)]
                   or (citation_handles(caption[1]) if caption else []) or list(self._last_kept_handles))
        table_text = "\n".join(lines)
        if caption:
            self._decisions.append(GateDecision(caption[1], "framing", "table caption", handles))
        if not handles:
            self._decisions.append(GateDecision(table_text, "dropped", "uncited table"))
            return []
        self._any_handle = True
        chunks = self._resolve(table_text, handles)
        if chunks is None:
            return []
        csv_rows = [(handle, chunk, _table_rows(chunk)) for handle, chunk in zip(handles, chunks, strict=True)]
        all_cells = {cell for _, _, rows in csv_rows for row in rows for cell in row}
        body = [line for line in lines
                if not all(is_table_separator_cell(c) for c in _markdown_cells(_strip_citations(line)) if c)]
        if not body:
            return []
        header_line, data_lines = body[0], body[1:]
        header = [_strip_citations(c).strip() for c in _markdown_cells(header_line)]
        if not {_norm_cell(c) for c in header if _norm_cell(c)} <= all_cells:
            self._decisions.append(GateDecision(table_text, "dropped", "table header not in the cited tables",
                                                handles))
            return []
        kept: list[tuple[str, list[str]]] = []
        kept_lines: list[str] = []
        matched: dict[str, ChunkPayload] = {}
        for line in data_lines:
            cells = [_strip_citations(c).strip() for c in _markdown_cells(line)]
            wanted = {_norm_cell(c) for c in cells if _norm_cell(c)}
            hit = next(((h, ch) for h, ch, rows in csv_rows if any(wanted <= set(r) for r in rows)), None)
            if hit is None or not wanted:
                self._decisions.append(GateDecision(line, "dropped", "table row not in the cited table", handles))
                continue
            matched.setdefault(hit[0], hit[1])
            kept.append((hit[0], cells))
            kept_lines.append(line)
        if not kept:
            self._decisions.append(GateDecision(table_text, "dropped", "no table row found in the cited tables",
                                                handles))
            return []
        self._decisions.append(GateDecision(table_text, "kept", f"{len(kept)} table rows", handles))
        self._kept_cited += 1
        numbers = {handle: self._cite(handle, chunk, "; ".join(", ".join(c for c in cells if c)
                                                                for h, cells in kept if h == handle))
                   for handle, chunk in matched.items()}
        for handle in handles:  # a caption's handle whose table rows came from another cited chunk
            numbers.setdefault(handle, numbers[next(iter(matched))])
        self._tables.append(AnswerTable(columns=header, rows=[cells for _, cells in kept],
                                        citation_n=numbers[next(iter(matched))]))
        separator = "|" + "|".join(" --- " for _ in header) + "|"
        out_lines = [header_line, separator, *kept_lines]
        rendered = "\n".join(self._renumber(line, numbers) for line in out_lines)
        out = self._release_framing()
        if caption:
            lead, body, _ = caption
            return [*out, self._emit(lead, self._renumber(body, numbers) + "\n\n" + rendered + "\n")]
        return [*out, self._emit("\n\n", rendered + "\n")]

    # -- citations -----------------------------------------------------------------------------
    def _cite(self, handle: str, chunk: ChunkPayload, quote: str) -> int:
        """The number of the citation of `chunk` on the page holding most of `quote` (new or reused)."""
        page = page_of_quote(chunk, quote)
        key = (handle, page)
        if key not in self._numbers:
            n = len(self._numbers) + 1
            self._numbers[key] = n
            self._citations[key] = Citation(
                n=n, rulebook_id=chunk.rulebook_id, title=chunk.rulebook_title,
                section_path=list(chunk.section_path), section_title=chunk.section_title, page=page,
                uri=self.source_link(chunk, page), quote="", language=chunk.language,
                chunk_id=chunk.chunk_id, translation_note=translation_note(chunk.language, self.answer_language))
            self._quotes[key] = []
        if quote and quote not in self._quotes[key]:
            self._quotes[key].append(quote)
            self._citations[key].quote = " … ".join(self._quotes[key])[:800]
        return self._numbers[key]

    @staticmethod
    def _renumber(text: str, numbers: dict[str, int]) -> str:
        """Handles -> this unit's [n]; any other bracket is text and is released in round brackets."""
        def replace(group: re.Match[str]) -> str:
            if group.group(0).lower() == REFUSAL_MARKER:
                return ""
            handles = _group_handles(group.group(1))
            if handles is None:
                return f"({group.group(1)})"
            return "".join(f"[{numbers[h]}]" for h in dict.fromkeys(handles) if h in numbers)
        # two handles can become one number (a table caption's second handle shows no row of its own
        # and takes the first's): "[1] [1]" reads as a second source, so a run of one number is one marker
        return _REPEATED_MARKER.sub(r"\1", _BRACKET_GROUP.sub(replace, text))

    # -- outcome -------------------------------------------------------------------------------
    def _result(self, searched: Sequence[str] = ()) -> GateResult:
        draft = "".join(self._draft)
        released = "".join(self._released).strip()
        citations = sorted(self._citations.values(), key=lambda c: c.n)
        if self._blocked:
            return self._block(self._blocked, draft)
        if not self._any_handle:
            if self._refusing:
                items = list(getattr(self.ledger, "items", list)())
                index = self.message_words() if self.message_words is not None and self.question else None
                missing = missing_elements(self.question, items, index)
                shown = [chunk for _, chunk in items]
                titles = self.document_titles() if self.document_titles is not None and self.question else None
                elsewhere = documents_elsewhere(self.question, shown, titles) if titles is not None else []
                text = refusal_text(self.answer_language, self.question, shown, searched, missing, elsewhere)
                return GateResult(text, "refused", "the rulebooks do not cover the question", [], [],
                                  self._decisions, draft)
            return self._block("the draft cited no source", draft)
        if self._kept_cited == 0:
            first = next((d.reason for d in self._decisions if d.action == "dropped"), "")
            return self._block(f"no sentence was supported by its cited source ({first})", draft)
        dropped = sum(1 for d in self._decisions if d.action == "dropped")
        reason = f"{dropped} unsupported sentence(s) removed" if dropped else None
        if self._review:
            reason = f"{reason}; {self._review}" if reason else self._review
        return GateResult(released, "answered", reason, citations, self._tables, self._decisions, draft,
                          review_reason=self._review)

    def _block(self, reason: str, draft: str) -> GateResult:
        return GateResult(NO_GROUNDED_ANSWER, "blocked", reason, [], [], self._decisions, draft)
