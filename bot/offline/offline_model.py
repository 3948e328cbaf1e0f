"""The built-in offline chat model: no account, no download, the same agent loop as a real model.

It is honest about what it is: not a language model but a quoting engine that speaks the chat
model protocol. Bound to the zoom tools (`bind_tools`), it reads the conversation and decides:
0. a request for advice ("Should I invest…", "devrais-je conseiller…") is refused at once with a
   plain line that it gives no advice (`bot.offline.advice_request`): no search, nothing quoted;
1. no search yet for this question → call `search_rulebooks` (a follow-up such as "and for
   cross-border?" is searched together with the previous question); a question that asks two
   things or of two documents ("…, and how long is the IBAN on a QR-bill?") is then searched part
   by part (`bot.offline.question_parts`), and a name or identifier of the question that no chunk
   shown mentions ("the ABN AMRO addendum" among QR-bill chunks) is searched once in its own words;
2. read a whole section with `retrieve_rulebook_sections` (at most two per question) when
   - the question names one ("Summarise section 2.2 …"),
   - or the top hits gather in one section (two of the top three),
   - or the best sentence points elsewhere ("… as set out in Rulebook PS-08, section 3.3") and
     that rulebook is one the search showed (`bot.offline.cross_reference`);
   - or the question asks what an identifier is for ("What is camt.026 used for?") and a chunk shown
     stands under the heading naming it, but not the section's opening (`bot.offline.section_opening`):
     the opening says what it is for, and is quoted alone under that heading;
   - or the question names a message component ("… in BranchData3?") that a guide details in a
     section of its own (`bot.offline.component_sections`): every component has its own "Name";
3. otherwise answer: pick the most relevant sentences and table rows of what the tools returned
   (`bot.offline.span_scoring`) and quote them verbatim, each with the citation handle of its chunk, under
   a one-line frame in the question's language (which names the source language when it
   differs); a table answers as a markdown table copied cell for cell; a question about a whole
   section gets that section's opening sentences in order; a followed cross-reference adds the
   best span of the section it points to; a yes/no question's best sentence brings the permissions
   and prohibitions next to it (`bot.offline.quote_context`); the two best quotes bring the sentence
   after them (`NEXT_SENTENCE_QUOTES`: it often holds what they lead up to); a question of several parts is answered
   part by part (each part's spans scored against the part, each part decided as a question of its
   own) when every part is covered, else as a whole, the covered parts adding their quotes. Nothing
   is paraphrased, so the citation gate's lexical check applies exactly.
It refuses ("[not covered]") when nothing relevant came back: a name or identifier of the
question (e.g. "Visa") that appears in none of the passages — unless it is a place name that a
passage writes in its own language ("Pays-Bas" / "Nederland", `bot.offline.exonyms`) — or no passage
whose best span is close enough to the question (dense similarity with multilingual-e5 when an
encoder is available — which also carries French questions to Dutch sources — plus content-word
overlap), or when the evidence does not cover the question (`covers`): it asks for an amount of
money, a duration or a count (`bot.offline.asked_value`) and no span holding a value of that kind
is close enough, so the passages on its topic do not state the fee, timeout or maximum asked for;
and, once the quotes are chosen, when a question asking for such a value (not who sets it, why, or
whether) gets quotes and tables that hold none (`require_value_quoted`): they are about the topic only.
A version ("version 7.0") or a quoted title that no passage holds is absent like a name, and so is
a section, chapter or annex ("Annex D", "Kapitel D") that the documents of the first passages
neither number nor name anywhere (`bot.offline.document_parts`), and so is an element asked about in
a named message whose chapter, and the components it details, never name it while another message
of a guide shown does ("InterbankSettlementAmount of camt.033", `bot.offline.message_elements`): the
other messages' rows would answer for the wrong message; a name that
only its own search found must be in a document the answer quotes. It
streams its reply word by word (`_astream`).
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field, PrivateAttr

from bot.gate.claims import SpanIndex, extract_claims
from bot.gate.instruction_spans import document_text_only
from bot.gate.refusal import elsewhere_sentence, mentioned, searchable_text
from bot.language import detect_language, language_name
from bot.offline.advice_request import advice_refusal, is_advice_request
from bot.offline.asked_codes import asks_for_codes, states_codes
from bot.offline.asked_value import asked_slot, asked_unit, holds_value
from bot.offline.building_blocks import block_rows
from bot.offline.component_sections import RUN_TOGETHER_NAME, in_section
from bot.offline.cross_reference import (
    SectionReference,
    asked_section,
    references,
    type_references,
    wants_whole_section,
)
from bot.offline.document_coverage import uncovered_slots
from bot.offline.document_parts import chunk_parts, missing_parts, named_parts
from bot.offline.exonyms import other_forms, rendering_in
from bot.offline.heading_lists import heading_list, titled_target
from bot.offline.message_elements import elements_outside_messages
from bot.offline.named_documents import unnamed_documents
from bot.offline.neutral_terms import MAX_MISSING_NEUTRAL, missing_neutral_share, neutral_coverage
from bot.offline.pointed_component import holds_table_of, inner_row, pointed_components
from bot.offline.question_parts import question_parts
from bot.offline.quote_context import with_context
from bot.offline.referenced_documents import documents_elsewhere
from bot.offline.section_opening import headed_section
from bot.offline.section_opening import to_read as opening_to_read
from bot.offline.span_ranker import (  # spans this close to the best are quoted, this many at most
    HAND_QUOTE_MARGIN,
    MAX_QUOTES,
    QUOTE_MARGIN,
)
from bot.offline.span_scoring import (
    DENSE_CHUNKS,
    MAX_UNCOVERED,
    MIN_DENSE,
    MIN_DENSE_DEFINING,
    MIN_DENSE_DISAGREE,
    MIN_DENSE_OTHER_LANGUAGE,
    MIN_DENSE_SLOT,
    MIN_LEXICAL,
    REQUIRE_VALUE_QUOTED,
    Span,
    SpanScorer,
    asked_fact,
    asks_about_element,
    asks_for_condition,
    asks_for_list,
    asks_yes_no,
    depends_on_previous,
    element_names,
    is_condition,
    is_heading,
    is_list_item,
    is_record,
    message_names,
    next_list_marker,
    parse_table,
    purpose_identifiers,
    spelled_element_names,
    uncovered_terms,
    with_unversioned,
    without_bullet,
)
from bot.offline.subject_phrases import (
    HELD_MAX_MISSING,
    HELD_PHRASE_SHARE,
    MIN_DENSE_PHRASE,
    MIN_MISSING_PHRASES,
    PHRASE_MAX_SHARE,
    PHRASE_SCOPE,
    phrase_coverage,
    phrase_missing,
    phrases_held,
)
from bot.offline.subject_terms import (
    MAX_MISSING_SUBJECT,
    MAX_SLOT_GAP,
    SUBJECT_MAX_HEADINGS,
    SUBJECT_MAX_SHARE,
    SUBJECT_SCOPE,
    missing_subject_weight,
    subject_coverage,
    value_gap,
)
from bot.offline.value_subject import MAX_SHARE as MAX_VALUE_SHARE
from bot.offline.value_subject import ValueSubject, about_subject, value_subject
from knowledge.change_tool import CHANGES, change_question
from knowledge.payload import ChunkPayload
from knowledge.sentences import SentenceStream
from knowledge.word_forms import fold_accents

__all__ = ["MIN_DENSE", "MIN_LEXICAL", "OfflineRulebookModel", "Plan"]

SEARCH = "search_rulebooks"
SECTION = "retrieve_rulebook_sections"
CATALOG = "list_available_rulebooks"

MAX_SECTION_QUOTES = 4
MAX_TABLE_ROWS = 8
MAX_LIST_QUOTES = 10  # "list all …": the items after the best sentence, in order
MAX_LIST_ROWS = 20
MAX_LEAD_IN_ITEMS = 5  # the items quoted after a lead-in ending in ":" (not a "list all" question)
MAX_TABLES = 2
MAX_CONDITIONS = 3  # condition sentences quoted after a number or record, as one run of alternatives
# the best quotes that bring the sentence after them (in their chunk, not a heading): measured on dev
# (session 20) against none, the first quote only, the first and its previous one, and every quote
NEXT_SENTENCE_QUOTES = 2
MAX_ITEM_CARRY = 3  # sentences of the last item's description the next chunk may open with before its next item
MAX_SECTION_READS = 2
# the span signals (bot.offline.span_ranker.SIGNALS) of a span that defines what the question names
DEFINING_SIGNALS = ("defines", "code_row", "element_defines")
# the best span of a followed cross-reference (or holding the fact asked for, or pointing to the quote) is
# quoted when this close: 0.1 at the hand weights' spread of scores, scaled as the fitted quote margin is
FOLLOWED_MARGIN = 0.1 * QUOTE_MARGIN / HAND_QUOTE_MARGIN

# (every quote in the question's language, every quote in another, some in another)
_FRAME = {
    "en": ("Here is what the rulebooks say:", "Here is what the rulebooks say (quoted in {lang}):",
           "Here is what the rulebooks say (partly quoted in {lang}):"),
    "nl": ("Dit zeggen de regelboeken:", "Dit zeggen de regelboeken (geciteerd in het {lang}):",
           "Dit zeggen de regelboeken (deels geciteerd in het {lang}):"),
    "fr": ("Voici ce que disent les règlements :", "Voici ce que disent les règlements (citation en {lang}) :",
           "Voici ce que disent les règlements (citations en partie en {lang}) :"),
    "de": ("Das sagen die Regelwerke:", "Das sagen die Regelwerke (zitiert auf {lang}):",
           "Das sagen die Regelwerke (teils zitiert auf {lang}):"),
}
# the guide numbers its items flat: which of the headings after the one asked about nest under it is not
# written anywhere, and the answer says so rather than guess (`heading_lists`), in few enough words to be a
# connective, not a claim needing a source (evals.citation_check.is_claim)
_HEADING_RUN_NOTE = {
    "en": "Its nesting is not marked; the headings in order:",
    "nl": "De nesting is niet aangegeven; de koppen in volgorde:",
    "fr": "L'imbrication n'est pas indiquée ; les titres dans l'ordre :",
    "de": "Die Verschachtelung ist nicht gekennzeichnet; die Überschriften in Reihenfolge:",
}
_TABLE_CAPTION = {
    "en": "From the table in the rulebook {refs}:",
    "nl": "Uit de tabel in het regelboek {refs}:",
    "fr": "Extrait du tableau du règlement {refs} :",
    "de": "Aus der Tabelle im Regelwerk {refs}:",
}
_REFUSAL = {
    "en": ("[not covered] The rulebooks I can consult do not cover this question.",
           " They do not mention {terms}."),
    "nl": ("[not covered] De regelboeken die ik kan raadplegen behandelen deze vraag niet.",
           " Ze vermelden {terms} niet."),
    "fr": ("[not covered] Les règlements que je peux consulter ne traitent pas de cette question.",
           " Ils ne mentionnent pas {terms}."),
    "de": ("[not covered] Die Regelwerke, die ich einsehen kann, behandeln diese Frage nicht.",
           " Sie erwähnen {terms} nicht."),
}
_FOLLOW_UP = re.compile(r"^\s*(and|what about|how about|en|et|und|ook|aussi|auch|idem)\b", re.I)


@dataclass
class Plan:
    text: str = ""
    tool: str | None = None
    args: dict[str, Any] | None = None


@dataclass(frozen=True)
class Decision:
    """What one answer/refuse decision was made from: the calibration sweep replays it offline
    (`answered` is `OfflineRulebookModel.answers` of it, when nothing is absent)."""

    query: str
    hits: int
    absent: list[str]  # names or identifiers of the question no passage mentions
    max_dense: float | None  # best similarity of a span in the question's language (None: no such span)
    max_lexical: float  # best span's share of the question's content terms
    answered: bool
    # best similarity of a span in another language: such pairs score lower and share no words, and
    # the dev sets of the calibration are almost all single-language, so they keep their own bar
    max_dense_other_language: float | None = None
    # more of what the decision could be made from (recorded for the calibration sweep): the retrieval
    # rank of the chunk holding the best-scoring span, and whether the densest and the lexically best
    # span come from the same chunk (the two signals agree on where the answer is)
    best_rank: int | None = None
    agree: bool | None = None
    # the question asks for an amount/time ("quantity") or a code ("identifier"), and the best
    # similarity of a span that holds such a fact (None: no span does)
    asks: str | None = None
    max_dense_fact: float | None = None
    # evidence coverage (bot.offline.asked_value, span_scoring.uncovered_terms): the kind of value the
    # question asks for ("money", "duration", "count"; None: no such kind) and the best similarity
    # of a span holding a value of that kind (None: no span shown holds one); the share of the
    # question's content terms that no passage in its language holds (None: no such passage), and those terms
    slot: str | None = None
    max_dense_slot: float | None = None
    slot_held: bool = False  # some span holds a value of that kind (its dense may be unmeasured: no encoder)
    # the question names a section by number and quoted title, and that very section was read: the
    # evidence is the section itself, whatever the bars say ("Summarise section 2.2 'Description of …'")
    named_section: bool = False
    uncovered: float | None = None
    uncovered_terms: list[str] | None = None
    # the subject (bot.offline.subject_terms): each content term of the question with its rarity in the
    # corpus and whether the evidence an answer would quote holds it (None: not measured); and how far
    # the best span holding a value of the kind asked scores below the best span (None: none holds one)
    subject: list[tuple[str, float, int, bool, bool, bool]] | None = None
    slot_gap: float | None = None
    # the question's phrases the corpus holds, with their rarity and whether the evidence holds them
    # (bot.offline.subject_phrases; None: not measured)
    phrases: list[tuple[str, float, bool, bool, bool]] | None = None
    # evidence in another language: the question's acronyms and codes, with their rarity and whether the
    # evidence's documents hold them (bot.offline.neutral_terms; None: not measured)
    neutral: list[tuple[str, float, bool]] | None = None
    # the best similarity of a span that defines what the question names: the code list row keyed by
    # its code, the record of its element, the sentence defining its identifier (None: no span does)
    max_dense_defining: float | None = None
    # the answer as composed holds a value of the kind asked (bot.offline.asked_value.holds_value over
    # its quotes and tables; None: no kind asked, or no answer composed)
    value_quoted: bool | None = None
    # a question asking which codes a set holds: the answer as composed states some (bot.offline.asked_codes;
    # None: no codes asked, or no answer composed)
    codes_quoted: bool | None = None
    # how far the values quoted are from the question's subject (bot.offline.value_subject; None: not
    # measured): too far at the model's `max_value_share`, the answer is refused as one quoting no value
    value_subject: ValueSubject | None = None


@dataclass
class Reading:
    """What the tools returned for this question, as the model works from it."""

    hits: list[tuple[str, ChunkPayload]]  # every chunk shown, first showing first
    search_hits: list[tuple[str, ChunkPayload]]
    section_ids: set[str]
    read: list[tuple[str, str]]  # (rulebook id, section) of each section read


class OfflineRulebookModel(BaseChatModel):
    """A chat model that quotes the rulebooks (see the module docstring)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    encoder: Any = Field(default=None, exclude=True)
    # evals only: called with what each answer/refuse decision was made from (see `Decision`)
    observer: Any = Field(default=None, exclude=True)
    # evals only: called with the query and its scored spans, best first (`rulebook eval spans` fits on them)
    span_observer: Any = Field(default=None, exclude=True)
    # the answer/refuse bars (calibrated: evals/baselines/calibration_offline.json); an eval sets them
    # all to 0 (`answer_everything`) to see every question answered and replay any bar from the signals
    min_dense: float = MIN_DENSE
    min_lexical: float = MIN_LEXICAL
    min_dense_other_language: float = MIN_DENSE_OTHER_LANGUAGE
    min_dense_disagree: float | None = MIN_DENSE_DISAGREE
    # evidence coverage (see `Decision`): a question asking for money, a duration or a count is refused
    # when no span holding such a value is this close in meaning; a question is refused when more
    # than this share of its content terms is in no passage (None: no such check)
    min_dense_slot: float | None = MIN_DENSE_SLOT
    max_uncovered: float | None = MAX_UNCOVERED
    # the subject check (bot.offline.subject_terms): refused when the question's subject terms missing
    # from the evidence weigh more than `max_missing_subject` of its terms (None: no check), and, for a
    # question asking for a value, when the best span holding one scores more than `max_slot_gap` below the best
    vocabulary: Any = Field(default=None, exclude=True)
    max_missing_subject: float | None = MAX_MISSING_SUBJECT
    subject_max_share: float = SUBJECT_MAX_SHARE
    subject_max_headings: int = SUBJECT_MAX_HEADINGS
    subject_scope: str = SUBJECT_SCOPE  # passage, section or document (bot.offline.subject_terms.SCOPES)
    max_slot_gap: float | None = MAX_SLOT_GAP
    # a rare phrase of the question missing from the evidence's document: only a best span this close in
    # meaning answers (bot.offline.subject_phrases; None: no check)
    min_dense_phrase: float | None = MIN_DENSE_PHRASE
    phrase_max_share: float = PHRASE_MAX_SHARE
    phrase_scope: str = PHRASE_SCOPE
    min_missing_phrases: float = MIN_MISSING_PHRASES
    # disagreeing signals whose passages hold the question's rarest phrases meet the usual dense bar
    # (bot.offline.subject_phrases.phrases_held; None: the disagreeing bar always applies)
    held_phrase_share: float | None = HELD_PHRASE_SHARE
    held_max_missing: float = HELD_MAX_MISSING
    # evidence in another language: refused when more than this share of the question's acronyms and
    # codes is missing from its documents (bot.offline.neutral_terms; None: no check)
    max_missing_neutral: float | None = MAX_MISSING_NEUTRAL
    # a span defining the question's code or element answers at this dense bar (None: no such route)
    min_dense_defining: float | None = MIN_DENSE_DEFINING
    max_quotes: int = MAX_QUOTES  # an eval sweeps it (evals.quote_budget)
    # a question asking for money, a duration, a length or a count whose composed answer holds no value
    # of that kind is refused: the quotes are about the topic, not the value (REQUIRE_VALUE_QUOTED)
    require_value_quoted: bool = REQUIRE_VALUE_QUOTED
    # ... and so is one whose values come only from passages holding no subject term of the question this
    # rare (bot.offline.value_subject; None: a value anywhere in the answer is enough)
    max_value_share: float | None = MAX_VALUE_SHARE
    tool_names: tuple[str, ...] = ()
    remember_queries: bool = True  # False: no query vector outlives its question (settings.question_caches)
    _query_vectors: dict[str, np.ndarray] = PrivateAttr(default_factory=dict)

    @property
    def _llm_type(self) -> str:
        return "rulebook-offline"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": "offline"}

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> OfflineRulebookModel:
        # a BaseTool's name is at hand; converting its whole schema costs ~8 ms a tool per question
        names = tuple(getattr(t, "name", None) or convert_to_openai_tool(t)["function"]["name"] for t in tools)
        return self.model_copy(update={"tool_names": names})

    # -- the chat model protocol ---------------------------------------------------------------
    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        plan = self.plan(messages)
        return ChatResult(generations=[ChatGeneration(message=_message(plan))])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        plan = await asyncio.to_thread(self.plan, messages)
        return ChatResult(generations=[ChatGeneration(message=_message(plan))])

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        yield from _chunks(self.plan(messages))

    async def _astream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                       run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any
                       ) -> AsyncIterator[ChatGenerationChunk]:
        plan = await asyncio.to_thread(self.plan, messages)  # scoring embeds: keep the loop free
        for chunk in _chunks(plan):
            yield chunk
            await asyncio.sleep(0)

    # -- deciding ------------------------------------------------------------------------------
    def plan(self, messages: Sequence[BaseMessage]) -> Plan:
        asked = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
        if not asked:
            return Plan(text=_REFUSAL["en"][0])
        question = _text(messages[asked[-1]])
        language = detect_language(question)
        if is_advice_request(question):
            return Plan(text=advice_refusal(language))
        earlier = [_text(messages[i]) for i in asked[:-1]]
        query = question
        if earlier and (_FOLLOW_UP.match(question)
                        or (len(question.split()) <= 4 and len(extract_claims(question, language).content_terms) <= 1)):
            query = f"{earlier[-1]} {question}"
        turn = messages[asked[-1] + 1:]
        calls = [call for m in turn if isinstance(m, AIMessage) for call in m.tool_calls]
        searches = [c for c in calls if c["name"] == SEARCH]
        if CHANGES in self.tool_names and (changes := change_question(question)) is not None:
            # "what changed in PS-04?": the audit log's tool, then its sections' new text quoted
            if not any(c["name"] == CHANGES for c in calls):
                return Plan(tool=CHANGES, args=changes)
            shown = [hit for m in turn if isinstance(m, ToolMessage) and m.name == CHANGES for hit in _artifact_chunks(m)]
            # the changes answer only when they hold what the question names ("version 2.4",
            # "camt.029.001.11", "ABN AMRO"): otherwise the question is searched like any other
            if shown and not _names_missing(question, language, [c for _, c in shown]):
                return Plan(text=self.compose_changes(language, shown))
        if SEARCH in self.tool_names and not searches:
            return Plan(tool=SEARCH, args={"query": query})
        reading = _reading(turn, calls)
        # a question asking two things (or of two documents) is searched part by part after the whole
        # (`bot.offline.question_parts`): one search tends to return one document's chunks only
        parts = question_parts(question, language) if query == question else [question]
        parts = parts if len(parts) > 1 else []
        if SEARCH in self.tool_names:
            asked_parts = {str(c["args"].get("query", "")) for c in searches if not c["args"].get("rulebook_ids")}
            pending = [part for part in parts if part not in asked_parts]
            if pending:
                return Plan(tool=SEARCH, args={"query": pending[0]})
        if SEARCH in self.tool_names and len(searches) == 1 + len(parts):
            # one more search at most: a place name spelled in the other languages, else a name of the
            # question no passage mentions searched in its own words, else the definition a span points to
            renamed = _with_place_names(query, language, reading.search_hits)
            if renamed is not None:
                return Plan(tool=SEARCH, args={"query": renamed})
            named = _name_search(query, language, reading.hits)
            if named is not None:
                return Plan(tool=SEARCH, args={"query": named})
            pointer = self._pointer_search(query, language, reading, listing=asks_for_list(question),
                                           asks_value=asked_fact(question) is not None)
            if pointer is not None:
                return Plan(tool=SEARCH, args=pointer)
        if SECTION in self.tool_names and len(reading.read) < MAX_SECTION_READS:
            target = self._section_to_read(question, query, reading)
            if target is not None:
                return Plan(tool=SECTION, args={"rulebook_id": target[0], "section_path": target[1]})
        followed = [(rb, sec) for rb, sec in reading.read if not _holds_section(reading.search_hits, rb, sec)]
        plain_frame = _FRAME.get(language, _FRAME["en"])[0]
        answered = self.compose_parts(parts, language, turn, reading, followed)
        # the question as a whole is composed last (also when every part is answered) so that an eval's
        # observer records the whole question's decision last: evals keep the last one per question
        text = self.compose(query, language, reading.hits, reading.section_ids, question=question,
                            read=reading.read, followed=followed)
        if parts and all(answered):
            text = _joined_answers([t for t in answered if t], plain_frame)
        elif not text.startswith("[not covered]") and any(answered):
            # a part the evidence does not cover on its own: the question as a whole decides (a half
            # answer that leaves a part unsaid would read as complete), and the parts that are covered
            # add their own quotes to its answer
            text = _joined_answers([text, *(t for t in answered if t)], plain_frame)
        searched = _searched_names(query, language, turn, 1 + len(parts))
        if searched and not text.startswith("[not covered]"):
            # a name found only by its own search is covered when the answer quotes the document that
            # names it ("the entry costs of the SOLEDVSP certificate" from its KID's cost table), not
            # when one passage elsewhere says it in passing ("Instant payments, if introduced, …" in a fee
            # schedule, beside quotes about other credit transfers)
            quoted = {c.rulebook_id for c in _cited_chunks(text, reading.hits)}
            missing = [term for term in searched if not quoted & _naming_rulebooks(term, query, reading.hits)]
            if missing:
                self._observe(Decision(query, len(reading.hits), missing, None, 0.0, False))
                refusal, detail = _REFUSAL.get(language, _REFUSAL["en"])
                text = refusal + detail.format(terms=", ".join(missing))
        # a refusal: the gate's own text names the caller's catalogue (every rulebook searched)
        if (text.startswith("[not covered]") and not is_advice_request(question) and CATALOG in self.tool_names
                and not any(c["name"] == CATALOG for c in calls)):
            return Plan(tool=CATALOG, args={})
        return Plan(text=text)

    def _pointer_search(self, query: str, language: str, reading: Reading, listing: bool = False,
                        asks_value: bool = False) -> dict[str, Any] | None:
        """A search for the definition a best span points to ('Datatype: "Frequency6Code" on page
        374') in its own rulebook, when no chunk shown holds it: the definition is the answer (for a
        "list all" question, the code list of any type a best span names; for a question asking a
        length or a code, the type the best field record names)."""
        spans = self._scored(query, language, reading.hits, reading.section_ids)
        if not spans:
            return None
        quoted = self._quotable(spans)
        typed = _typed_record(quoted) if asks_value else None
        for span in quoted:
            if (_is_pointer(span) or ((listing or span is typed) and type_references(span.text))) \
                    and _pointed_definition(span, spans, pointer_only=False) is None:
                name = type_references(span.text)[0].name
                # a type's definition shares no words with a question about a field that uses it: its
                # name alone finds it (a "list all" question's words also find the list's own chunks)
                return {"query": f"{name} {query}" if listing else name, "rulebook_ids": [span.chunk.rulebook_id]}
        return None

    def _quotable(self, spans: Sequence[Span]) -> list[Span]:
        """The sentences close enough to the best span to be quoted (before the answer's own choices)."""
        return [s for s in spans if s.table is None and s.score >= spans[0].score - QUOTE_MARGIN][:self.max_quotes]

    def _section_to_read(self, question: str, query: str, reading: Reading) -> tuple[str, str] | None:
        read = {(rb.casefold(), sec.casefold()) for rb, sec in reading.read}

        def new(target: tuple[str, str] | None) -> tuple[str, str] | None:
            return target if target and (target[0].casefold(), target[1].casefold()) not in read else None

        named = asked_section(question)
        if named is not None and (target := new(_named_target(named, reading.search_hits))):
            return target
        # "Which items does the addendum list under 2.101 Referred Document Information?": a heading named
        # by its number and title, without the word "section" (`heading_lists`)
        if named is None and (target := new(titled_target(question, reading.search_hits))):
            return target
        if not reading.read and (target := new(_gathering_section(reading.search_hits[:3]))):
            return target
        # "What is camt.026 used for?": the section its heading names opens with what it is for
        if target := new(opening_to_read(purpose_identifiers(question, reading.hits), reading.hits)):
            return target
        # "When must CancellationDetails be present in a ResolutionOfInvestigation?": the rules of the named
        # message's constraints say (other messages carry the same element, often under the same rule)
        if asks_for_condition(question) and self.vocabulary is not None:
            visible = {chunk.rulebook_id for _, chunk in reading.hits}
            for constraints in self.vocabulary.message_words().constraints_naming(question, visible):
                if target := new(constraints):
                    return target
        # "How many debtor activations can one RequestToPayDebtorActivationRequest carry?": the chapter of
        # the message the question names holds its structure and its building blocks' records
        if target := new(_message_chapter(question, reading.search_hits)):
            return target
        # "How long may the name of a branch be in BranchData3?": the section detailing the component the
        # question names (every component has a Name, each its own)
        if self.vocabulary is not None:
            shown = [chunk.rulebook_id for _, chunk in reading.search_hits]
            for component in self.vocabulary.component_sections().named(question, shown):
                if target := new(component):
                    return target
        visible = {chunk.rulebook_id for _, chunk in reading.hits}
        spans = self._scored(query, detect_language(question), reading.hits, reading.section_ids)
        if self.vocabulary is not None and spans and asks_about_element(question) and not asks_for_list(question):
            # "once a CancellationReason is given, is the Reason inside it mandatory?": the component a
            # quoted record points to ('contains the following elements (see "X" on page 65 …)') lists
            # the elements inside it in its own structure table (`pointed_component`)
            for _, section in pointed_components(self._quotable(spans), spans, self.vocabulary.component_sections()):
                if not holds_table_of(spans, section) and (target := new(section)):
                    return target
        for span in [s for s in spans if s.table is None][:1]:
            for ref in references(span.text):
                rulebook_id, section = ref.resolved(span.chunk.rulebook_id)
                if rulebook_id not in visible or _holds_section(reading.hits, rulebook_id, section):
                    continue
                if target := new((rulebook_id, section)):
                    return target
        return None

    # -- writing -------------------------------------------------------------------------------
    def compose_parts(self, parts: Sequence[str], language: str, turn: Sequence[BaseMessage], reading: Reading,
                      followed: Sequence[tuple[str, str]] = ()) -> list[str | None]:
        """Each part of a question answered as a question of its own (None: refused): its spans are
        scored against the part itself, first among the chunks its own search showed, and it is
        decided by `compose` (the same absent-name check and bars)."""
        first_search = next((hits for args, hits in _search_results(turn) if "rulebook_ids" not in args), [])
        texts: list[str | None] = []
        for part in parts:
            own = [hits for args, hits in _search_results(turn) if args.get("query") == part]
            hits = _interleaved(own[0] if own else [], first_search, reading.hits)
            text = self.compose(part, language, hits, reading.section_ids, question=part, read=reading.read,
                                followed=followed)
            texts.append(None if text.startswith("[not covered]") else text)
        return texts

    def compose_changes(self, language: str, hits: list[tuple[str, ChunkPayload]]) -> str:
        """The opening sentences of each changed section's new text, in reading order, cited."""
        spans = SpanScorer(None, None).score("", hits, set())
        by_section: dict[tuple[str, str], list[Span]] = {}
        for span in sorted(spans, key=lambda s: (s.rank, s.position)):
            if span.table is None and not is_heading(span.text, span.chunk):
                by_section.setdefault((span.chunk.rulebook_id, span.chunk.section_key), []).append(span)
        chosen = [span for group in by_section.values() for span in group[:2]]
        return self._write(language, chosen, [], spans)

    def compose(self, query: str, language: str, hits: list[tuple[str, ChunkPayload]],
                section_ids: set[str] | None = None, *, question: str | None = None,
                read: Sequence[tuple[str, str]] = (), followed: Sequence[tuple[str, str]] = ()) -> str:
        """The answer from what the tools showed: `read` lists the sections read whole, `followed`
        those of them the search had not shown (a cross-reference followed)."""
        section_ids = section_ids or set()
        question = question or query
        refusal, detail = _REFUSAL.get(language, _REFUSAL["en"])
        if not hits:
            self._observe(Decision(query, 0, [], None, 0.0, False))
            return refusal
        absent, renderings, folded = _name_coverage(query, language, hits)
        absent += _absent_versions(query, folded)
        if self.vocabulary is not None:
            # "the QR-bill change document" asked, only the QR-IID guide shown: a sibling document's quotes
            # would answer what the named one says
            absent += unnamed_documents(query, language, [c.rulebook_id for _, c in hits],
                                        self.vocabulary.document_titles(), " ".join(c.text for _, c in hits))
        # a title the question quotes ("section 4.3 'Change management cycle'") names what it is about
        sections = fold_accents(" ".join(c.section_title or "" for _, c in hits)).casefold()
        absent += [f"'{t}'" for t in _quoted_titles(query) if not _quoted_held(t, f"{folded} {sections}")]
        absent += self._missing_parts(query, hits)
        # an element of another message than the one the question names ("InterbankSettlementAmount of
        # camt.033"): the other messages' rows and records would answer for the wrong message
        absent += elements_outside_messages(
            query, hits, self.vocabulary.message_words() if self.vocabulary is not None else None)
        if not absent and self.vocabulary is not None and asked_slot(query, asked_fact(query)) is not None:
            # a value of the rules of a document the passages only refer to ("the pre-notification period of
            # a SEPA Core Direct Debit", named by the SCT rulebook): that document states it, and the
            # passages that name it quote their own rules (`bot.offline.referenced_documents`)
            elsewhere = documents_elsewhere(query, [c for _, c in hits], self.vocabulary.document_titles())
            if elsewhere:
                self._observe(Decision(query, len(hits), elsewhere, None, 0.0, False))
                return f"{refusal} {elsewhere_sentence(language, elsewhere)}"
        if absent:
            self._observe(Decision(query, len(hits), absent, None, 0.0, False))
            return refusal + detail.format(terms=", ".join(absent))
        listed = heading_list(question, hits, read)
        if listed:
            # a heading with no text of its own, named by number and title: the headings the guide lists
            # after it are the answer, in order (`heading_lists`); the section read is the evidence
            headings = [Span(handle, chunk, rank, " ".join(chunk.text.split()), from_section=True)
                        for rank, (handle, chunk) in enumerate(listed)]
            self._observe(Decision(query, len(hits), [], None, 0.0, True, named_section=True))
            return self._write(language, headings, [], headings, listing=True,
                               note=_HEADING_RUN_NOTE.get(language, _HEADING_RUN_NOTE["en"]))
        spans = self._scored(query, language, hits, section_ids, renderings)
        if self.span_observer is not None:
            self.span_observer(query, spans)

        def best_dense(same_language: bool) -> float | None:
            return max((d for s in spans if (s.chunk.language[:2] == language) == same_language
                        for d in (s.dense, s.dense_full) if d is not None), default=None)

        asks = asked_fact(query)
        # the uncovered share only decides with its bar on (off today) and is otherwise only recorded for
        # the sweep: it tokenizes every passage shown, work an answer need not do
        coverage = (uncovered_terms(query, language, hits)
                    if self.max_uncovered is not None or self.observer is not None else None)
        decision = Decision(query, len(hits), [], best_dense(True), max((s.lexical for s in spans), default=0.0),
                            False, best_dense(False), *_agreement(spans), asks,
                            max((d for sp in spans if sp.holds_asked_fact for d in (sp.dense, sp.dense_full)
                                 if d is not None), default=None),
                            slot=asked_slot(query, asks),
                            max_dense_slot=max((d for sp in spans if sp.holds_value for d in (sp.dense, sp.dense_full)
                                                if d is not None), default=None),
                            slot_held=any(sp.holds_value for sp in spans),
                            uncovered=None if coverage is None else round(len(coverage[0]) / max(1, coverage[1]), 4),
                            uncovered_terms=None if coverage is None else coverage[0])
        decision = replace(decision, named_section=_named_section_read(question, spans, read))
        if self.vocabulary is not None and (self.max_missing_subject is not None or self.observer is not None):
            decision = replace(decision, subject=subject_coverage(query, language, spans, self.vocabulary))
        # the phrases serve two checks: the phrase bar and the held-phrase relief of the disagreeing bar
        if self.vocabulary is not None and (self.min_dense_phrase is not None or self.held_phrase_share is not None
                                            or self.observer is not None):
            decision = replace(decision, phrases=phrase_coverage(query, language, spans, self.vocabulary))
        if self.vocabulary is not None and (self.max_missing_neutral is not None or self.observer is not None):
            decision = replace(decision, neutral=neutral_coverage(query, language, spans, self.vocabulary))
        if decision.slot is not None:
            decision = replace(decision, slot_gap=value_gap(spans))
        decision = replace(decision, max_dense_defining=max(
            (d for s in spans if any(s.signals.get(k) for k in DEFINING_SIGNALS) for d in (s.dense, s.dense_full)
             if d is not None), default=None))
        decision = replace(decision, answered=self.answers(decision))
        self._observe(decision)
        if not decision.answered:
            return refusal
        text = self._quote(question, language, spans, hits, read, followed)
        # the frame line and the source handles ("[S3]") are no part of what the rulebooks say
        body = _HANDLE.sub(" ", text.split("\n", 1)[-1])
        if asks_for_codes(query) and not decision.named_section:
            decision = replace(decision, codes_quoted=states_codes(body))
            self._observe(decision)
            if not decision.codes_quoted and self.require_value_quoted:
                return refusal
        if decision.slot is None or decision.named_section or not _asks_for_the_value(question, language):
            return text
        unit = asked_unit(query)
        # a value of the asked kind, quoted from a passage about the question's subject
        quoted = holds_value(body, decision.slot, unit)
        # measured only for the check's bar or a recording (the sweep replays any bar), as coverage is
        measured = (value_subject(query, language, _quoted_lines(text, hits), spans, decision.slot, unit,
                                  self.vocabulary)
                    if self.max_value_share is not None or self.observer is not None else None)
        self._observe(replace(decision, value_quoted=quoted, value_subject=measured))
        answered = quoted and about_subject(measured, self.max_value_share)
        return text if answered or not self.require_value_quoted else refusal

    def _quote(self, question: str, language: str, spans: list[Span], hits: list[tuple[str, ChunkPayload]],
               read: Sequence[tuple[str, str]], followed: Sequence[tuple[str, str]]) -> str:
        """The answer's quotes and tables, chosen from the scored spans once the question is answered."""
        named = asked_section(question)
        if named is not None and wants_whole_section(question):
            in_order = _section_opening(spans, named, read)
            if in_order:
                return self._write(language, in_order, [], spans)
        best = spans[0]
        chosen = _distinct_texts([s for s in spans if s.table is None
                                  and s.score >= best.score - QUOTE_MARGIN])[:self.max_quotes]
        rows = [s for s in spans if s.table is not None and s.score >= best.score - QUOTE_MARGIN]
        keyed = _defining_row(spans, rows, best)
        if keyed is not None:
            rows.insert(0, keyed)
        structure = self._component_structure(question, spans, read)
        if structure is not None:
            # "In Charges8, are the amount and the agent mandatory?": the named component's own structure
            # table gives each element's multiplicity, where a record gives one element's only
            rows = [structure, *(r for r in rows if r is not structure)]
        elif self.vocabulary is not None and asks_about_element(question) and not asks_for_list(question):
            # an element inside the component a quoted record points to: its row in that component's
            # structure table (`pointed_component.inner_row`)
            for pointing, section in pointed_components(chosen, spans, self.vocabulary.component_sections()):
                inner = inner_row(question, spans, pointing, section)
                if inner is not None:
                    rows = [inner, *(r for r in rows if r is not inner)]
                    break
        pointed = [*followed, *_pointed_to(best if best.table is None else chosen[0] if chosen else None)]
        for target in _followed(spans, pointed):
            if target.score >= best.score - FOLLOWED_MARGIN and target not in chosen and target not in rows:
                (rows if target.table is not None else chosen).append(target)
        if best.table is not None:
            chosen = chosen[:self.max_quotes - 1]
        chosen = _definition_together(chosen, spans, question, hits)
        # a pointer to where a type is defined ('Datatype: "Frequency6Code" on page 374') says nothing
        # by itself: the definition it points to is quoted instead, when a tool showed it
        replaced: list[Span] = []
        for span in chosen:
            target = _pointed_definition(span, spans) or span
            if target not in replaced:
                replaced.append(target)
        chosen = replaced
        listing = asks_for_list(question)
        if listing and best.table is None and (own := _named_element_list(spans, best, question)) is not None:
            # "List all the elements of the GarnishmentRemittance block": the table after that element's
            # record is the list, not the one after a better-scoring record of the element enclosing it
            chosen = [own, *(s for s in chosen if s is not own)][:self.max_quotes]
        elif listing and best.table is None and (head := _list_head(spans, best)) is not None:
            # "list all …": the sentence that opens the list ("… is composed of 5 MessageBuildingBlocks:")
            # leads the answer, its items after it, rather than the section's opening sentence
            chosen = [head, *(s for s in chosen if s is not head)][:self.max_quotes]
        typed = _typed_record(chosen) if not listing and best.table is None and asked_fact(question) else None
        if typed is not None:
            # a field record gives its length or its codes by type ('Datatype: "Max15NumericText" on page
            # 387'): the value asked is where the type is defined, quoted after the record with the
            # type's code list when one follows it
            definition = _pointed_definition(typed, spans, pointer_only=False)
            if definition is not None and definition not in chosen:
                chosen.insert(chosen.index(typed) + 1, definition)
                table = _table_after(definition, spans)
                if table is not None and table not in rows:
                    rows.insert(0, table)
        if listing and chosen and best.table is None:
            # "list all …": a list laid out as a table right after the best sentence is the list, or
            # the code list of the type the best sentence names ('Datatype: "X" on page N')
            table = _table_after(chosen[0], spans)
            definition = None if table is not None else _pointed_definition(chosen[0], spans, pointer_only=False)
            if table is None and definition is None:
                definition = _introducing_table(spans, best)
            if definition is not None:
                table = _table_after(definition, spans)
                if table is not None and definition not in chosen:
                    chosen.insert(1, definition)
            if table is not None and table not in rows:
                rows.insert(0, table)
        if chosen and not rows and not any(s.holds_asked_fact for s in chosen):
            # the question asks for an amount, a time or a code: make sure one is quoted
            fact = next((s for s in spans if s.holds_asked_fact and s.table is None
                         and s.score >= best.score - FOLLOWED_MARGIN), None)
            if fact is not None:
                chosen.append(fact)
        for source in _pointing(spans, [*chosen, *rows], self._relevant):
            # the passage that sends the reader to the quoted section ("see Rulebook PS-03, section
            # 5.1"): the question often starts from it, so it is cited beside what it points to
            if source.score >= best.score - FOLLOWED_MARGIN and source not in chosen:
                chosen.append(source)
        if self.vocabulary is not None:
            # a question naming two documents ("the E&I and the Request To Pay message definitions") is answered
            # from both: each named document no quote comes from brings its own best span (`document_coverage`)
            quoted = [s.chunk.rulebook_id for s in (*chosen, *rows)]
            for slot in uncovered_slots(question, quoted, [c.rulebook_id for _, c in hits],
                                        self.vocabulary.document_titles()):
                own = next((s for s in spans if s.chunk.rulebook_id in slot and s.score >= best.score - FOLLOWED_MARGIN
                            and not is_heading(s.text, s.chunk) and self._relevant(s, language)), None)
                if own is not None:
                    (rows if own.table is not None else chosen).append(own)
        for record in reversed(_pointed_records(chosen, spans, best)):
            # "The message contains a reason code (attribute AT-R071 see section 4.6.1)": the record of the
            # attribute a quote names (its value range holds the codes) is the first table shown
            if record in rows:
                rows.remove(record)
            rows.insert(0, record)
        first = chosen[0] if chosen else None
        chosen = _with_neighbours(chosen, spans, listing=listing and not rows)
        chosen = with_context(chosen, spans, question, first)
        announced = None
        if not listing:
            # "ClearingSystemMemberIdentification <ClrSysMmbId> contains the following elements": the table it
            # opens, right after it, lists those elements with their multiplicities, shown whole (up to
            # MAX_TABLE_ROWS); without it, the quote announces what it does not show. When the best span is a
            # row ("Data <Data> [1..1]"), its table stays first and the announced one follows it
            for span in chosen[:INTRODUCED_TABLE_QUOTES]:
                if _INTRODUCES_TABLE.search(span.text) and (announced := _table_after(span, spans)) is not None:
                    rows = _with_announced_table(rows, announced, best if best.table is not None else None)
                    break
        blocks: list[Span] = []
        if not listing and asks_about_element(question):
            # "which building block carries the changes, and is it mandatory?": the quote that lists a
            # message's blocks says what each is for, the message's structure table how often each occurs
            for span in chosen[:INTRODUCED_TABLE_QUOTES]:
                if blocks := block_rows(span, spans):
                    rows = [blocks[0], *(r for r in rows if not _same_table(r, blocks[0]))]
                    if best.row is not None and _same_table(best, blocks[0]) and best not in blocks:
                        # the best span is a row of that structure table but no block ("Message root
                        # <Document> <ReqToPayCdtrEnrlmntAmdmntReq>"): it answers, the blocks' rows add to it
                        blocks = [best, *blocks]
                    break
        chosen = [_with_own_name(span) for span in chosen]
        return self._write(language, chosen, rows, spans, table_first=best.table is not None, listing=listing,
                           whole=announced, picked=blocks)

    def _component_structure(self, question: str, spans: Sequence[Span], read: Sequence[tuple[str, str]]
                             ) -> Span | None:
        """The best row of the structure table opening the section of a component the question names and
        the assistant read (`component_sections`), when the question asks about its elements; else None."""
        if self.vocabulary is None or not asks_about_element(question) or asks_for_list(question):
            return None
        read_sections = {(rb.casefold(), sec.casefold()) for rb, sec in read}
        shown = [s.chunk.rulebook_id for s in spans]
        for rulebook_id, section in self.vocabulary.component_sections().named(question, shown):
            if (rulebook_id.casefold(), section.casefold()) not in read_sections:
                continue
            rows = [s for s in spans if s.table is not None and s.row is not None and s.chunk.rulebook_id == rulebook_id
                    and s.chunk.section_path[-1:] == [section]]
            if rows:
                return rows[0]
        return None

    def answers(self, decision: Decision) -> bool:
        """The answer/refuse rule at this model's bars: the evidence covers the question (`covers`),
        and the best span is close enough in words or in
        meaning (a higher dense bar when the densest and the lexically best span disagree on the
        chunk), or a span defining the question's code or element is (`min_dense_defining`), or a span
        in another language is close enough in meaning."""
        if decision.named_section:
            return True
        if not self.covers(decision):
            return False
        dense_bar = self.min_dense
        if decision.agree is False and self.min_dense_disagree is not None \
                and not phrases_held(decision.phrases, self.held_phrase_share, self.held_max_missing):
            dense_bar = max(self.min_dense, self.min_dense_disagree)
        if self.min_dense_phrase is not None and phrase_missing(decision.phrases, self.phrase_max_share,
                                                                self.phrase_scope, self.min_missing_phrases):
            # the evidence's document never names what the question does: closeness in meaning only
            return decision.max_dense is not None and decision.max_dense >= max(dense_bar, self.min_dense_phrase)
        return (decision.max_lexical >= self.min_lexical
                or (decision.max_dense is not None and decision.max_dense >= dense_bar)
                or (self.min_dense_defining is not None and decision.max_dense_defining is not None
                    and decision.max_dense_defining >= self.min_dense_defining)
                or (decision.max_dense_other_language is not None
                    and decision.max_dense_other_language >= self.min_dense_other_language))

    def covers(self, decision: Decision) -> bool:
        """Evidence coverage at this model's bars: a question asking for money, a duration or a count
        has a span holding such a value close enough in meaning, and not too many of its content
        terms are missing from every passage."""
        if self.min_dense_slot is not None and decision.slot is not None:
            if decision.max_dense_slot is None and not decision.slot_held:
                return False  # no passage shown holds a value of the kind asked
            if decision.max_dense_slot is not None and decision.max_dense_slot < self.min_dense_slot:
                return False  # (no encoder: the spans holding one were not measured, and pass)
        if self.max_missing_subject is not None and missing_subject_weight(
                decision.subject, self.subject_max_share, self.subject_max_headings,
                self.subject_scope) > self.max_missing_subject:
            return False  # the evidence is about another subject than the question's
        if self.max_missing_neutral is not None and missing_neutral_share(decision.neutral) > self.max_missing_neutral:
            return False  # evidence in another language that never writes the question's acronyms or codes
        if self.max_slot_gap is not None and decision.slot_gap is not None and decision.slot_gap > self.max_slot_gap:
            return False  # the value of the kind asked is held by a span far from the answer's evidence
        return not (self.max_uncovered is not None and decision.uncovered is not None
                    and decision.uncovered > self.max_uncovered)

    def answer_everything(self) -> None:
        """Every bar at 0 (evals only): each question without an absent name is answered, and the
        calibration sweep replays any bar from the recorded `Decision`s."""
        self.min_dense = self.min_lexical = self.min_dense_other_language = 0.0
        self.min_dense_disagree = self.min_dense_slot = self.max_uncovered = None
        self.max_missing_subject = self.max_slot_gap = self.min_dense_phrase = self.max_missing_neutral = None
        self.min_dense_defining = self.held_phrase_share = None
        self.require_value_quoted = False

    def _missing_parts(self, query: str, hits: Sequence[tuple[str, ChunkPayload]]) -> list[str]:
        """The sections, chapters and annexes the question names ("Annex D", "Kapitel D") that the
        rulebooks it is about (those of the first chunks shown) neither number nor name anywhere, as the
        vocabulary read them whole: none without a vocabulary (the chunks shown are too few to tell)."""
        named = named_parts(query) if self.vocabulary is not None else []
        if not named:
            return []
        held: set[tuple[str, str]] = set()
        for rulebook_id in dict.fromkeys(c.rulebook_id for _, c in hits[:DENSE_CHUNKS]):
            held |= self.vocabulary.parts_of(rulebook_id)
        for _, chunk in hits:
            held |= chunk_parts(chunk)
        return missing_parts(named, held)

    def _relevant(self, span: Span, language: str | None = None) -> bool:
        """Span.relevant at this model's bars (an eval may lower them); given the question's language, a
        span in another language is held to the other-language dense bar, as the answer is (`answers`)."""
        dense = max((d for d in (span.dense, span.dense_full) if d is not None), default=None)
        other = language is not None and span.chunk.language[:2] != language[:2]
        bar = self.min_dense_other_language if other else self.min_dense
        return span.lexical >= self.min_lexical or (dense is not None and dense >= bar)

    def _observe(self, decision: Decision) -> None:
        if self.observer is not None:
            self.observer(decision)

    def _write(self, language: str, chosen: list[Span], rows: list[Span], spans: list[Span],
               table_first: bool = False, listing: bool = False, whole: Span | None = None,
               picked: Sequence[Span] = (), note: str | None = None) -> str:
        """The answer: the frame, a `note` under it if any, the quotes and the tables (each table's rows that
        answer, every row of `whole`'s table, which a quote announced, or exactly the `picked` rows of theirs)."""
        tables, rendered = self._tables(_distinct_tables(rows), spans, language, listing, whole, picked)
        # the row keyed by what the question names answers it: shown before sentences that only mention it
        table_first = table_first or (any(r.defining for r in rows) and not any(s.defining for s in chosen))
        quoted = [*chosen, *tables]
        source_languages = list(dict.fromkeys(s.chunk.language[:2] for s in quoted))
        frames = _FRAME.get(language, _FRAME["en"])
        other = [lang for lang in source_languages if lang != language]
        # an English answer quoting one German sentence among English ones is not "quoted in German"
        mixed = len(other) < len(source_languages)
        frame = frames[2 if mixed else 1].format(lang=language_name(other[0], language)) if other else frames[0]
        prose = [f"- {_cited(without_bullet(span.text), span.handle)}" for span in _distinct_texts(chosen)]
        parts = [*rendered, prose] if table_first else [prose, *rendered]
        lines = [frame, "", note] if note else [frame]
        for part in parts:
            if part:
                lines += ["", *part]
        return "\n".join(lines)

    def _tables(self, candidates: list[Span], spans: list[Span], language: str, listing: bool,
                whole: Span | None = None, picked: Sequence[Span] = ()
                ) -> tuple[list[Span], list[list[str]]]:
        """The first MAX_TABLES tables as they will read, each with its caption. A guide prints the same
        code list in its message chapter and in its annex: the same rows quoted twice say it once, under
        one caption citing both pages, and leave the second place to another table."""
        tables: list[Span] = []
        bodies: list[list[str]] = []
        refs: list[list[str]] = []
        for best in candidates:
            body = self._table_body(best, spans, listing, whole=whole is not None and _same_table(best, whole),
                                    picked=[p for p in picked if _same_table(best, p)])
            if body in bodies:
                refs[bodies.index(body)].append(best.handle)
            elif len(bodies) < MAX_TABLES:
                bodies.append(body)
                refs.append([best.handle])
            else:
                continue
            tables.append(best)
        template = _TABLE_CAPTION.get(language, _TABLE_CAPTION["en"])
        rendered = [[template.format(refs=" ".join(f"[{h}]" for h in handles)), "", *body]
                    for body, handles in zip(bodies, refs, strict=True)]
        return tables, rendered

    def _table_body(self, best: Span, spans: list[Span], listing: bool = False, whole: bool = False,
                    picked: Sequence[Span] = ()) -> list[str]:
        header, rows = parse_table(best.chunk.tables_csv[best.table or 0])
        if picked:
            chosen = [r for r in rows if any(p.row == r for p in picked)]
        elif listing:  # "list all …": the table is the list, with its continuation after a page break
            chosen = [*rows, *_continued_rows(best.chunk, best.table or 0, header)][:MAX_LIST_ROWS]
        elif whole:
            chosen = rows[:MAX_TABLE_ROWS]
        else:
            same = [s for s in spans if _same_table(s, best) and s.row is not None]
            # the row keyed by the identifier asked about answers; rows that only mention it do not
            wanted = [s for s in same if s.defining] or [
                s for s in same if s.lexical > 0 or s.score >= best.score - QUOTE_MARGIN]
            chosen = _best_rows(rows, wanted) or [best.row or rows[0]]
        return [_md_row(header), "|" + "|".join(" --- " for _ in header) + "|", *(_md_row(r) for r in chosen)]

    # -- scoring -------------------------------------------------------------------------------
    def _scored(self, query: str, language: str, hits: list[tuple[str, ChunkPayload]], section_ids: set[str],
                extra_terms: Sequence[str] = ()) -> list[Span]:
        if self.encoder is None:
            return SpanScorer(None, None, vocabulary=self.vocabulary).score(query, hits, section_ids, extra_terms,
                                                                             language=language)
        return SpanScorer(self._embed_query, self.encoder.embed_passages, vocabulary=self.vocabulary).score(
            query, hits, section_ids, extra_terms, language=language)

    def _embed_query(self, text: str) -> np.ndarray:
        """Query vectors are kept for the model's life: one question is scored on every turn."""
        vector = self._query_vectors.get(text)
        if vector is None:
            vector = np.asarray(self.encoder.embed_query(text), dtype=np.float32)
            if not self.remember_queries:
                return vector  # one question's vectors are still shared: knowledge.query_vectors
            if len(self._query_vectors) > 256:
                self._query_vectors.clear()
            self._query_vectors[text] = vector
        return vector


# -- helpers -------------------------------------------------------------------------------------
def _text(message: BaseMessage) -> str:
    return message.text if isinstance(message.text, str) else str(message.content)


def _artifact_chunks(message: ToolMessage) -> list[tuple[str, ChunkPayload]]:
    """(handle, chunk) pairs a zoom tool returned, from the ToolMessage's structured artifact."""
    out: list[tuple[str, ChunkPayload]] = []
    for item in message.artifact or []:
        if isinstance(item, dict) and "handle" in item and "chunk_id" in item:
            fields = {k: v for k, v in item.items() if k != "handle"}
            out.append((item["handle"], document_text_only(ChunkPayload.model_validate(fields))))
    return out


def _message_chapter(question: str, hits: Sequence[tuple[str, ChunkPayload]]) -> tuple[str, str] | None:
    """The chapter of a message guide that the message the question names heads ("6 reda.070.001.01
    RequestToPayDebtorActivationRequestV01"), when the question asks about one of its elements or
    building blocks: an element recurs in many messages and components of a guide, each with its own
    multiplicity, and the named message's own structure and records say which applies."""
    if not (asks_about_element(question) or _BUILDING_BLOCK.search(question)):
        return None
    names = element_names(question) | {i.casefold() for i in extract_claims(question, "en").identifiers
                                       if re.search(r"[a-z]{4}\.\d{3}", i, re.IGNORECASE)}
    if not names:
        return None
    for _, chunk in hits:
        if not chunk.section_path:
            continue
        top = chunk.parent_titles[0] if chunk.parent_titles else chunk.section_title
        # message_names reads a name the PDF wrapped ("…Amendment RequestV01") as the guide means it
        heading = _top_names(top) | message_names([chunk])
        if any(n in heading or any(h.startswith(n + ".") for h in heading) for n in names):
            return chunk.rulebook_id, chunk.section_path[0]
    return None


_BUILDING_BLOCK = re.compile(r"\b(?:building\s+blocks?|root|bouwstenen|blocs?|bausteine?)\b", re.IGNORECASE)


def _top_names(title: str) -> set[str]:
    """The message names and identifiers a chapter heading gives ("reda.070.001.01", its versioned and
    unversioned name)."""
    return with_unversioned({i.casefold() for i in extract_claims(title, "en").identifiers} | element_names(title))


def _gathering_section(top: list[tuple[str, ChunkPayload]]) -> tuple[str, str] | None:
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    for _, chunk in top:
        if chunk.section_path:
            key = (chunk.rulebook_id, tuple(chunk.section_path))
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return None
    (rulebook_id, path), count = max(counts.items(), key=lambda kv: kv[1])
    return (rulebook_id, path[-1]) if count >= 2 else None


def _reading(turn: Sequence[BaseMessage], calls: Sequence[dict[str, Any]]) -> Reading:
    results = [m for m in turn if isinstance(m, ToolMessage)]
    hits: dict[str, tuple[str, ChunkPayload]] = {}
    for m in results:
        for handle, chunk in _artifact_chunks(m):
            hits.setdefault(chunk.chunk_id, (handle, chunk))
    return Reading(
        hits=list(hits.values()),
        search_hits=[hit for m in results if m.name == SEARCH for hit in _artifact_chunks(m)],
        section_ids={chunk.chunk_id for m in results if m.name == SECTION for _, chunk in _artifact_chunks(m)},
        read=[(str(c["args"].get("rulebook_id", "")), str(c["args"].get("section_path", "")))
              for c in calls if c["name"] == SECTION])


def _with_place_names(query: str, language: str, hits: Sequence[tuple[str, ChunkPayload]]) -> str | None:
    """The query with a place name that no hit mentions spelled in the other languages too
    ("Pays-Bas" -> "Pays-Bas Netherlands Nederland …"): a second search finds the passage written
    in another language. None when every name is found (or none is a known place)."""
    folded = fold_accents(" ".join(c.text for _, c in hits)).casefold()
    renamed = query
    for name in extract_claims(query, language).names:
        forms = other_forms(name)
        folded_name = fold_accents(name).casefold()
        if not forms or re.search(r"(?<!\w)" + re.escape(folded_name) + r"(?!\w)", folded) \
                or rendering_in(name, folded) is not None:
            continue
        renamed = renamed.replace(name, " ".join([name, *forms]))
    return renamed if renamed != query else None


def _search_results(turn: Sequence[BaseMessage]) -> list[tuple[dict[str, Any], list[tuple[str, ChunkPayload]]]]:
    """Each search of this question (its arguments) with the chunks it returned, in the order made."""
    args = {call["id"]: call["args"] for m in turn if isinstance(m, AIMessage) for call in m.tool_calls}
    return [(args.get(m.tool_call_id, {}), _artifact_chunks(m)) for m in turn
            if isinstance(m, ToolMessage) and m.name == SEARCH]


def _interleaved(own: Sequence[tuple[str, ChunkPayload]], first: Sequence[tuple[str, ChunkPayload]],
                 rest: Sequence[tuple[str, ChunkPayload]]) -> list[tuple[str, ChunkPayload]]:
    """A part's chunks in the order its spans are scored: its own search's hits and the whole
    question's taken in turn (the scorer measures the first few chunks by meaning, and the whole
    question's search may hold a part's answer that the part's fewer words miss), then the rest."""
    out: dict[str, tuple[str, ChunkPayload]] = {}
    for index in range(max(len(own), len(first))):
        for hits in (own, first):
            if index < len(hits):
                out.setdefault(hits[index][1].chunk_id, hits[index])
    for hit in rest:
        out.setdefault(hit[1].chunk_id, hit)
    return list(out.values())


def _joined_answers(texts: Sequence[str], plain_frame: str) -> str:
    """The parts' answers as one: one frame (the one naming a source language, if a part has it),
    then each part's quotes and tables in order, a quote or table already given left out."""
    frames = [text.split("\n", 1)[0] for text in texts]
    frame = next((f for f in frames if f != plain_frame), frames[0])
    blocks: list[list[str]] = []
    seen: set[str] = set()
    for text in texts:
        for block in text.split("\n", 1)[1].strip("\n").split("\n\n") if "\n" in text else []:
            lines = block.split("\n")
            if lines[0].startswith("- "):  # quotes: each line on its own
                lines = [line for line in lines if line not in seen]
                seen.update(lines)
            elif block in seen:  # a table (caption and rows): as a whole
                lines = []
            else:
                seen.add(block)
            if lines:
                blocks.append(lines)
    return "\n\n".join([frame, *("\n".join(lines) for lines in blocks)])


_NAME_WINDOW = 2  # words either side of a name that phrase the search for it (the name weighs more there)


def _name_coverage(query: str, language: str, hits: Sequence[tuple[str, ChunkPayload]]
                   ) -> tuple[list[str], list[str], str]:
    """The question's names and identifiers that no chunk shown mentions, how the chunks write the
    place names among the others in their own language ("Nederland" for "Pays-Bas"), and the shown
    text as searched (accents folded, case folded). A name the question gives a shown rulebook ("the
    SCT rulebook") is covered by that rulebook's title even when no passage repeats it, and a name
    an enclosing section's title gives ("camt.087.001.07") by that title."""
    claims = extract_claims(query, language)
    titles = {f"{c.rulebook_id} {c.rulebook_title}" for _, c in hits}
    # the headings a passage stands under name what it is about ("18 camt.087.001.07" above its rules)
    titles |= {" ".join(c.parent_titles) for _, c in hits if c.parent_titles}
    folded = searchable_text(" ".join([*titles, *(c.text + " " + " ".join(c.tables_csv) for _, c in hits)]))
    absent: list[str] = []
    renderings: list[str] = []
    for term in dict.fromkeys([*claims.names, *claims.identifiers]):
        if mentioned(term, folded, query):
            continue
        rendering = rendering_in(term, folded) if term in claims.names else None
        if rendering is not None:
            renderings.append(rendering)
        else:
            absent.append(term)
    return absent, renderings, folded


def _unmentioned(query: str, language: str, hits: Sequence[tuple[str, ChunkPayload]]) -> list[str]:
    """The question's names and identifiers that no chunk shown mentions, as `compose` checks them."""
    return _name_coverage(query, language, hits)[0]


def _name_search(query: str, language: str, hits: Sequence[tuple[str, ChunkPayload]]) -> str | None:
    """The words around each name or identifier of the question that no chunk shown mentions: a
    search in those words finds the document that holds the name, which a search for the whole
    question can miss when the rest of it matches another document ("the ABN AMRO addendum" among
    QR-bill chunks). None when every name is mentioned; a name the corpus lacks stays absent after
    this search, and `compose` refuses."""
    absent = _unmentioned(query, language, hits)
    if not absent:
        return None
    words = query.split()
    keep: set[int] = set()
    for index, word in enumerate(words):
        if any(term in word for term in absent):
            keep.update(range(max(0, index - _NAME_WINDOW), min(len(words), index + _NAME_WINDOW + 1)))
    phrased = " ".join(words[i] for i in sorted(keep))
    return phrased if phrased and phrased != query else None


def _searched_names(query: str, language: str, turn: Sequence[BaseMessage], before: int) -> list[str]:
    """The names a name search (`_name_search`, made after the first `before` searches) looked for."""
    results = _search_results(turn)
    if len(results) <= before:
        return []
    shown = [hit for _, hits in results[:before] for hit in hits]
    named = _name_search(query, language, shown)
    return _unmentioned(query, language, shown) if named is not None and results[before][0].get("query") == named \
        else []


def _naming_rulebooks(term: str, query: str, hits: Sequence[tuple[str, ChunkPayload]]) -> set[str]:
    """The rulebooks of the chunks shown that mention `term` (title included)."""
    out: set[str] = set()
    for _, c in hits:
        folded = searchable_text(f"{c.rulebook_id} {c.rulebook_title} {c.text} {' '.join(c.tables_csv)}")
        if mentioned(term, folded, query) or rendering_in(term, folded) is not None:
            out.add(c.rulebook_id)
    return out


_CITED = re.compile(r"\[([A-Z]+\d+)\]")  # a source handle as the tools hand them out ("[S3]")


def _cited_chunks(text: str, hits: Sequence[tuple[str, ChunkPayload]]) -> list[ChunkPayload]:
    handles = set(_CITED.findall(text))
    return [chunk for handle, chunk in hits if handle in handles]


def _quoted_lines(text: str, hits: Sequence[tuple[str, ChunkPayload]]) -> list[tuple[str, list[ChunkPayload]]]:
    """Each line of a composed answer after its frame line, without its handles, with the passages it cites;
    a table's rows cite nothing themselves: theirs is the passage its "From the table …" line cites."""
    out: list[tuple[str, list[ChunkPayload]]] = []
    cited: list[ChunkPayload] = []
    for line in text.split("\n")[1:]:
        if _CITED.search(line) or (line.strip() and not line.lstrip().startswith("|")):
            cited = _cited_chunks(line, hits)
        out.append((_HANDLE.sub(" ", line), cited))
    return out


def _holds_section(hits: Sequence[tuple[str, ChunkPayload]], rulebook_id: str, section: str) -> bool:
    return any(c.rulebook_id == rulebook_id and in_section(c, section) for _, c in hits)


def _named_target(named: SectionReference, search_hits: Sequence[tuple[str, ChunkPayload]]
                  ) -> tuple[str, str] | None:
    """The (rulebook, section) a question names: its rulebook is the one named, else the best hit
    holding a section of that number, else the best hit's."""
    if named.rulebook_id:
        return named.resolved("")
    for _, chunk in search_hits:
        if in_section(chunk, named.section):
            return chunk.rulebook_id, named.section
    return (search_hits[0][1].rulebook_id, named.section) if search_hits else None


def _section_opening(spans: list[Span], named: SectionReference, read: Sequence[tuple[str, str]]) -> list[Span]:
    """The first sentences of the section the question names, in reading order."""
    wanted = {rb for rb, sec in read if sec.casefold() == named.section.casefold()}
    inside = [s for s in spans if s.table is None and s.from_section and s.chunk.rulebook_id in wanted
              and in_section(s.chunk, named.section)]
    inside.sort(key=lambda s: (s.chunk.chunk_index, s.position))
    return inside[:MAX_SECTION_QUOTES]


def _definition_together(chosen: list[Span], spans: Sequence[Span], question: str,
                         hits: Sequence[tuple[str, ChunkPayload]]) -> list[Span]:
    """For a question asking what an identifier is for (`purpose_identifiers`) whose best quote defines
    it: that quote's fellow defining sentences of its passage, in reading order, and nothing that only
    shares the question's words. A section opens with what its subject is in two sentences ("The
    ClaimNonReceipt message is sent by … to …" / "This message is used to initiate an investigation
    for missing funds …"), and the second is the purpose asked for even when the first scores
    higher; they come under the heading that names the identifier when a tool showed it ("2
    camt.026.001.08 UnableToApplyV08": the sentences say "the UnableToApply message", the question
    "camt.026")."""
    identifiers = purpose_identifiers(question, hits)
    if not identifiers or not chosen or not chosen[0].defining or chosen[0].table is not None:
        return chosen
    first = chosen[0]
    together = sorted((s for s in spans if s.defining and s.table is None and s.chunk.chunk_id == first.chunk.chunk_id),
                      key=lambda s: s.position)
    heading = _heading_span(first, identifiers, hits)
    return [*([heading] if heading else []), *together, *(s for s in chosen if s.defining and s not in together)]


def _heading_span(span: Span, identifiers: set[str], hits: Sequence[tuple[str, ChunkPayload]]) -> Span | None:
    """The heading naming what `span` opens, quoted from the chunk a tool showed that holds only that
    heading ("2 camt.026.001.08 UnableToApplyV08"); None when no such chunk was shown."""
    key = headed_section(span.chunk, identifiers)
    for rank, (handle, chunk) in enumerate(hits):
        if chunk.rulebook_id == span.chunk.rulebook_id and chunk.section_path[-1:] == [key] \
                and _flat(chunk.text) == _flat(f"{key} {chunk.section_title}"):
            return Span(handle, chunk, rank, _flat(chunk.text))
    return None


def _with_neighbours(chosen: list[Span], spans: list[Span], listing: bool = False) -> list[Span]:
    """The quotes with the neighbours they need, in place: the sentence before one that leans on it
    ("This period …", or a lead-in ending in ":"), the sentence after one that leans on it and is close
    to the question itself (its conclusion: "It is therefore acceptable …"), the condition after one that
    states a number ("… within 10 days." / "If the payer …", with the alternatives that follow it:
    "When true …" / "When false …"), the items after a quoted lead-in ending in ":",
    for a "list all" question the sentences that follow the best one in its chunk (the list itself), and
    otherwise the sentence after each of the `NEXT_SENTENCE_QUOTES` best quotes."""
    prose_spans = {(s.chunk.chunk_id, s.position): s for s in spans if s.table is None}
    out: list[Span] = []
    for index, span in enumerate(chosen):
        key = (span.chunk.chunk_id, span.position)
        before = prose_spans.get((key[0], key[1] - 1))
        if before is not None and before not in out and before not in chosen \
                and (depends_on_previous(span.text) or before.text.rstrip().endswith(":")):
            out.append(before)
        if span not in out:
            out.append(span)
        after = prose_spans.get((key[0], key[1] + 1))
        lead_in = span.text.rstrip().endswith(":")
        if (index == 0 and listing) or lead_in:
            # the list itself; a lead-in ending in ":" ("Rejecting a case assignment occurs when:") says
            # nothing without the items that follow it, list question or not
            out += [item for item in _list_after(span, prose_spans, spans, listing, lead_in) if item not in out]
        elif after is not None and after not in out and after not in chosen and depends_on_previous(after.text) \
                and after.relevant:
            # the sentence after leans on the quote and is itself close to the question ("In such a situation,
            # it would be redundant …" / "It is therefore quite acceptable … to skip …"): its conclusion
            out.append(after)
        elif after is not None and after not in out and after not in chosen and is_condition(after.text) \
                and (span.holds_asked_fact or re.search(r"\d", span.text)):
            out.append(after)
            # conditions come as alternatives ("When true, …" / "When false, …", "If … / Unless …"): the
            # one the question asks about may be the second, so the run of conditions is quoted whole
            position = key[1] + 2
            while (item := prose_spans.get((key[0], position))) is not None and is_condition(item.text) \
                    and position - key[1] <= MAX_CONDITIONS:
                if item not in out and item not in chosen:
                    out.append(item)
                position += 1
        elif index < NEXT_SENTENCE_QUOTES and after is not None and after not in out and after not in chosen \
                and not is_heading(after.text, after.chunk):
            # the sentence after one of the best quotes often carries what the quote leads up to: the class
            # ("We have classified this product as class 2 out of 7") after what the indicator assumes, the
            # text shown after what the display does meanwhile
            out.append(after)
    return _lead_ins_completed(out, prose_spans, spans)


def _lead_ins_completed(quotes: list[Span], prose_spans: dict[tuple[str, int], Span], spans: Sequence[Span]
                        ) -> list[Span]:
    """A lead-in ending in ":" that a list's run of quotes reached last ("… is composed of 5
    MessageBuildingBlocks:") says nothing without its own items: they follow it, as a quoted lead-in's do."""
    out = list(quotes)
    for span in quotes:
        following = prose_spans.get((span.chunk.chunk_id, span.position + 1))
        if not span.text.rstrip().endswith(":") or (following is not None and following in out):
            continue
        at = out.index(span) + 1
        for item in _list_after(span, prose_spans, spans, listing=False, lead_in=True):
            if item in out:
                break
            out.insert(at, item)
            at += 1
    return out


def _list_after(span: Span, prose_spans: dict[tuple[str, int], Span], spans: Sequence[Span], listing: bool,
                lead_in: bool) -> list[Span]:
    """The list after `span`: for a "list all" question the sentences that follow it (up to
    MAX_LIST_QUOTES), after a lead-in ending in ":" its items (up to MAX_LEAD_IN_ITEMS). A sentence
    that goes on an item ("− The payment part must be … same height." / "The payment part and receipt
    together …") is not an item of its own; the next lead-in ends the list."""
    limit = MAX_LIST_QUOTES if listing else MAX_LEAD_IN_ITEMS
    counted = taken = 0
    items = False
    out: list[Span] = []
    for item in _items_after(span, prose_spans, spans):
        is_item = is_list_item(item.text)
        if counted >= limit or taken >= 2 * limit or (lead_in and taken and not is_item
                                                       and ":" in _LABEL.sub("", item.text, count=1)):
            break  # (a lead-in of its own, maybe joined with its short items into one span; a label
            # opening an item's description, "Usage: The assigner must …", leads into nothing)
        # an item's own description ("B. Case" / "Identifies the investigation case.") is not an item
        counted += int(is_item or not items)
        items, taken = items or is_item, taken + 1
        out.append(item)
    return out


_LABEL = re.compile(r"^\s*[A-Z][\w ]{0,20}:\s")


def _items_after(span: Span, prose_spans: dict[tuple[str, int], Span], spans: Sequence[Span]) -> Iterator[Span]:
    """The sentences after `span` in reading order: the rest of its chunk, then the next chunk of
    its rulebook when a tool showed it and it opens with a list item, or a list item closes this one
    (a list the chunker cut goes on there: "(b) … ;" / "(c) … ;")."""
    chunk_id, position = span.chunk.chunk_id, span.position + 1
    last: list[Span] = []
    marker = next_list_marker(span.text)
    while (item := prose_spans.get((chunk_id, position))) is not None:
        yield item
        last = [*last[-1:], item]
        marker = next_list_marker(item.text) or marker
        position += 1
    following = next((s.chunk.chunk_id for s in spans if s.chunk.rulebook_id == span.chunk.rulebook_id
                      and s.chunk.chunk_index == span.chunk.chunk_index + 1), None)
    rest = sorted((s for (cid, _), s in prose_spans.items() if cid == following), key=lambda s: s.position)
    # the list still running where the chunk ends (its last item, or that item's description, closes
    # the chunk) goes on in the next one too; so does an enumerated list whose next item ("D." after
    # "C.") opens one of the next chunk's first sentences, however long the last item's description ran
    if rest and (is_list_item(rest[0].text) or any(is_list_item(s.text) for s in last)
                 or (marker is not None and any(s.text.lstrip().startswith(f"{marker} ")
                                                for s in rest[:MAX_ITEM_CARRY]))):
        yield from rest


MAX_TABLE_GAP = 300  # characters between a sentence and the table it introduces
_NUMBERED_HEADING = re.compile(r"(?<![\w.])(?:[A-Z]\.)?\d+(?:\.\d+)+\.?\s+[A-Z]")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _offset(span: Span) -> int:
    """Where the span starts in its chunk's text (whitespace folded); -1 when it cannot be found."""
    return _flat(span.chunk.text).find(_flat(span.text)[:60])


def _typed_record(quotes: Sequence[Span]) -> Span | None:
    """The best field record among the quotes that gives its value by type ('… Datatype: "Max35Text" on
    page 115')."""
    return next((s for s in quotes if s.table is None and is_record(s.text) and type_references(s.text)), None)


# a scheme rulebook's pointer to an attribute or dataset it describes elsewhere ("attribute AT-R071 see
# section 4.6.1", "dataset DS-08"), whose record is a small table headed by the identifier
_ATTRIBUTE_POINTER = re.compile(r"\b(?:attributes?|datasets?)\s+(?P<id>[A-Z]{2,3}-[A-Z]?\d{1,3})\b")


def _pointed_records(chosen: Sequence[Span], spans: Sequence[Span], best: Span) -> list[Span]:
    """The best row of each record a quoted sentence points to by its attribute or dataset identifier,
    when it scores within `FOLLOWED_MARGIN` of the best span."""
    found: list[Span] = []
    for ident in dict.fromkeys(m.group("id") for s in chosen for m in _ATTRIBUTE_POINTER.finditer(s.text)):
        row = next((s for s in spans if s.table is not None and s.score >= best.score - FOLLOWED_MARGIN
                    and ident in _table_header(s)), None)
        if row is not None and row not in found:
            found.append(row)
    return found


def _table_header(span: Span) -> list[str]:
    return parse_table(span.chunk.tables_csv[span.table or 0])[0] if span.chunk.tables_csv else []


def _is_pointer(span: Span) -> bool:
    """A span that only points to a type's definition ('Datatype: "Max35Text" on page 115')."""
    if span.table is not None or not type_references(span.text):
        return False
    rest = re.sub(r'(?:datatype|data\s+type|type|see)\s*:?\s*["“][^"”]+["”]\s+on\s+page\s+\d+', " ", span.text,
                  flags=re.IGNORECASE)
    return len(re.findall(r"[^\W\d_]{3,}", rest)) <= 3


def _pointed_definition(span: Span, spans: Sequence[Span], pointer_only: bool = True) -> Span | None:
    """For a pointer span (or, with `pointer_only` False, any span naming a type by page), the first
    sentence under the heading of the type it names, in a chunk of the same rulebook that a tool
    showed ("19.2.3.42 InvestigationRejection1Code" / "Definition: Specifies the reason for
    rejecting an investigation case."); None when none was shown."""
    if span.table is not None or (pointer_only and not _is_pointer(span)):
        return None
    for ref in type_references(span.text):
        found = _definition_under(ref.name, spans, span.chunk.rulebook_id)
        if found is not None:
            return found
    return None


def _definition_under(name: str, spans: Sequence[Span], rulebook_id: str) -> Span | None:
    """The first sentence under a numbered heading naming `name` ("19.2.3.6 CaseStatus2Code"), in a
    chunk of that rulebook a tool showed (each chunk searched once); None when none holds it."""
    heading = re.compile(r"(?<![\w.])(?:[A-Z]\.)?\d+(?:\.\d+)+\.?\s+" + re.escape(name) + r"(?![\w])")
    searched: set[str] = set()
    for candidate in spans:
        if candidate.table is not None or candidate.chunk.rulebook_id != rulebook_id \
                or candidate.chunk.chunk_id in searched:
            continue
        searched.add(candidate.chunk.chunk_id)
        m = heading.search(_flat(candidate.chunk.text))
        if m is None:
            continue
        after = sorted((o, s.position, s) for s in spans if s.chunk.chunk_id == candidate.chunk.chunk_id
                       and s.table is None and (o := _offset(s)) >= m.start())
        if after and not _is_pointer(after[0][2]):
            return after[0][2]
    return None


def _defining_row(spans: Sequence[Span], rows: Sequence[Span], best: Span) -> Span | None:
    """The best row keyed by the code or identifier the question names (the code list row "NFND |
    UnderlyingPaymentNotFound | …"), when it scores within `FOLLOWED_MARGIN` of the best span and no
    row of its table, and no row of the same cells (the code set repeating it), is quoted yet: the
    row is the code's definition, though the record of the element the code belongs to
    ("RejectionReason <RjctnRsn> … Datatype: …"), which the question names too, may score above it."""
    shown = {(r.chunk.chunk_id, r.table) for r in rows}
    cells = [r.row for r in rows]
    return next((s for s in spans if s.table is not None and (s.signals.get("defines") or s.signals.get("code_row"))
                 and s.score >= best.score - FOLLOWED_MARGIN and (s.chunk.chunk_id, s.table) not in shown
                 and s.row not in cells), None)


def _list_head(spans: Sequence[Span], best: Span) -> Span | None:
    """For a "list all" question, the best sentence within `QUOTE_MARGIN` of the best span that opens
    a list of its own: it ends in ":" and list items or a table follow it in its chunk ("The
    NotificationOfCaseAssignmentV05 MessageDefinition is composed of 5 MessageBuildingBlocks:" / "A.
    Header …"), or its short items were joined to it; None when the best span opens one itself, or no
    such sentence is that close."""
    prose = {(s.chunk.chunk_id, s.position): s for s in spans if s.table is None}

    def opens_list(span: Span) -> bool:
        if span.table is not None:
            return False
        if not span.text.rstrip().endswith(":"):
            # a lead-in joined with its short items into one span ("… composed of 3 blocks: A. Header …")
            _, colon, rest = span.text.partition(": ")
            return bool(colon) and is_list_item(rest)
        following = prose.get((span.chunk.chunk_id, span.position + 1))
        return (following is not None and is_list_item(following.text)) or _table_after(span, spans) is not None

    if opens_list(best):
        return None
    for span in spans:
        if span.score < best.score - QUOTE_MARGIN:
            return None
        if opens_list(span):
            return span
    return None


def _introducing_table(spans: Sequence[Span], best: Span) -> Span | None:
    """For a "list all" question, the best sentence within `QUOTE_MARGIN` of the best span that a
    table directly follows (the record "RejectionReason <RjctnRsn> … Datatype: …" above its code list),
    when the best span itself introduces none: a guide cut into small sections puts the outline that
    names the list ("B. Justification: Specifies the reason …") above the section that holds it."""
    for span in spans:
        if span.score < best.score - QUOTE_MARGIN:
            return None
        if span is not best and span.table is None and _table_after(span, spans) is not None:
            return span
    return None


# a type or component defined under its own name: "10.2.2.6 ExternalDebtorActivationAmendmentReason1Code"
_NAMED_HEADING = re.compile(r"^\s*(?:[A-Z]\.)?\d+(?:\.\d+)+\.?\s+(" + RUN_TOGETHER_NAME + r")\s*\n")


def _with_own_name(span: Span) -> Span:
    """A "Definition: …" sentence that follows the heading naming what it defines ("10.2.2.6
    ExternalDebtorActivationAmendmentReason1Code" / "Definition: Specifies the debtor activation amendment
    reason code …") quoted with that name, as an element's record is: without it, the answer to "which
    code set …?" says what the code set is for but not what it is called. Other spans unchanged."""
    if span.table is not None or not span.text.startswith("Definition:"):
        return span
    heading = _NAMED_HEADING.match(span.chunk.text)
    if heading is None or not _flat(span.chunk.text[heading.end():]).startswith(_flat(span.text)[:40]):
        return span
    return replace(span, text=f"{heading.group(1)} {span.text}")


# a sentence announcing the table after it: "… contains the following elements", "… one of the following"
_INTRODUCES_TABLE = re.compile(r"\b(?:contains|consists\s+of|is\s+composed\s+of)\s+(?:one\s+of\s+)?the\s+following\b",
                               re.IGNORECASE)
INTRODUCED_TABLE_QUOTES = 3  # the quotes (the two best and the sentence after the best) whose announced table is shown


def _with_announced_table(rows: list[Span], announced: Span, best: Span | None = None) -> list[Span]:
    """The rows to show, the table a quote announces first, but after the rows of the best span's table
    when the best span is a row ("Data <Data> [1..1]" before the table of what Data contains), else after
    the rows that hold the identifier asked (the code list row of the code a "which code …?" asks for): the
    announced table says where a value goes, they say what it is, and only `MAX_TABLES` tables are shown."""
    leading = [r for r in rows if best is not None and r is not announced and _same_table(r, best)]
    if not leading:
        leading = [r for r in rows if r.signals.get("asked_identifier") and r is not announced]
    return [*leading, announced, *(r for r in rows if r is not announced and r not in leading)]


def _same_table(a: Span, b: Span) -> bool:
    return a.chunk.chunk_id == b.chunk.chunk_id and a.table == b.table


_RECORD_NAME = re.compile(r"^([A-Z][A-Za-z0-9]*)\s*<[A-Za-z0-9]+>")


def _named_element_list(spans: Sequence[Span], best: Span, question: str) -> Span | None:
    """For a "list all" question naming an element ("… of the GarnishmentRemittance block"), the record of
    that element within `QUOTE_MARGIN` of the best span that a table follows in its chunk; None when the
    question names no element or no such record is that close."""
    # ... by its run-together name, else spelled out in words ("the options for pointing to the original
    # activation": OriginalActivation; a name written run together is the one asked about, the words
    # around it its context)
    names = element_names(question) or spelled_element_names(question)
    if not names:
        return None
    for span in spans:
        if span.score < best.score - QUOTE_MARGIN:
            return None
        name = _RECORD_NAME.match(span.text) if span.table is None else None
        if name and name.group(1).casefold() in names and _table_after(span, spans) is not None:
            return span
    return None


def _table_after(span: Span, spans: Sequence[Span]) -> Span | None:
    """A row span of the table that directly follows `span` in its chunk (no heading between)."""
    text = _flat(span.chunk.text)
    start = _offset(span)
    if start < 0:
        return None
    end = start + len(_flat(span.text))
    found: list[tuple[int, int]] = []
    for index, table in enumerate(span.chunk.tables_csv):
        # from the span's start: a record's last words can stand after its table in the text ("… contains
        # the following ActivationStatus2 elements" / table / "Constraints"), so the table starts inside it
        at = text.find(_flat(table)[:80], start)
        if at >= 0 and at - end <= MAX_TABLE_GAP and not _NUMBERED_HEADING.search(text[end:at]):
            found.append((at, index))
    if not found:
        return None
    index = min(found)[1]
    return next((s for s in spans if s.chunk.chunk_id == span.chunk.chunk_id and s.table == index), None)


def _names_missing(question: str, language: str, chunks: Sequence[ChunkPayload]) -> list[str]:
    """The numbers, identifiers and names of the question that none of these chunks (their text,
    rulebook id, title and version) holds."""
    text = " ".join(f"{c.rulebook_id} {c.rulebook_title} {c.version or ''} {c.text}" for c in chunks)
    index = SpanIndex.build(text, language)
    folded = searchable_text(text)
    claims = extract_claims(question, language)
    # a version is a whole number ("2.4"): its digit groups apart ("4.2", "2.3") are another one
    missing = [n.replace(" ", ".") for n in claims.numbers if n not in index.numbers]
    return missing + [t for t in (*claims.identifiers, *claims.names) if not mentioned(t, folded, question)]


_VERSION = re.compile(r"\b(?:version|versie|release|fassung|v)\s?(\d+(?:\.\d+)*)\b", re.IGNORECASE)
# a version written right after a name, as users name a guide ("QR-bill 2.4", "IG 2.3"): the name holds a capital
_NAMED_VERSION = re.compile(r"(?<![\w-])([A-Za-z][\w-]*[A-Za-z])\s+(\d+\.\d+)(?![\d.]|\.\d)")
# a version number standing alone: not part of a longer number ("2.4" is not in "12.4" nor in "2.41")
_ALONE_BEFORE, _ALONE_AFTER = r"(?<![\d.])", r"(?!\d|\.\d)"
MAX_VERSION_TAIL = 200  # characters after a name searched for the versions its sentence gives
# words a number after them makes a place in a document, not a version ("chapter 2.4", "Annex 1.2")
_SECTION_WORDS_TEXT = """section sections chapter chapters annex annexes appendix paragraph article articles
table figure page pages point rule clause part step level item sectie hoofdstuk bijlage artikel tabel pagina
chapitre annexe tableau kapitel abschnitt anhang tabelle seite"""
_SECTION_WORDS = frozenset(_SECTION_WORDS_TEXT.split())


_QUOTED = re.compile(r"(?<![\w])['‘\"“«]\s*([^'‘’\"“”«»]{3,80}?)\s*['’\"”»](?![\w])")


_HANDLE = re.compile(r"\[[A-Za-z]*\d+\]")
# questions that name a fee or a time without asking for it: who sets it, why, where, or whether
_ASKS_WHO = {
    "en": re.compile(r"^\W*(?:who|whom|whose|why|where)\b", re.IGNORECASE),
    "nl": re.compile(r"^\W*(?:wie|wiens|waarom|waar)\b", re.IGNORECASE),
    "fr": re.compile(r"^\W*(?:qui|pourquoi|où)\b", re.IGNORECASE),
    "de": re.compile(r"^\W*(?:wer|wem|wen|wessen|warum|wo)\b", re.IGNORECASE),
}


def _asks_for_the_value(question: str, language: str) -> bool:
    """The question wants the value itself ("How much is the fee?", "Wie hoch ist die Gebühr?"), not
    who sets it, why, where, or whether it may be charged: only then must the answer state one."""
    who = _ASKS_WHO.get(language[:2], _ASKS_WHO["en"])
    return not (who.match(question) or asks_yes_no(question))


def _quoted_titles(query: str) -> list[str]:
    """The phrases of two or more words the question puts in quotes (a section's or document's title)."""
    return [m.strip() for m in _QUOTED.findall(query) if len(m.split()) >= 2]


def _quoted_held(title: str, folded: str) -> bool:
    """The folded text holds the quoted phrase as written, or its words run together as a message guide
    names an element ('creditor trading name' is the record "CreditorTradingName <CdtrTradgNm>")."""
    key = _flat(fold_accents(title).casefold())
    text = _flat(folded)
    return key in text or re.search(r"(?<!\w)" + re.escape(key.replace(" ", "")) + r"(?!\w)", text) is not None


def _named_section_read(question: str, spans: Sequence[Span], read: Sequence[tuple[str, str]]) -> bool:
    """The question asks for a section as a whole by number and quoted title, and a section of that
    number and title was read (`_section_opening` finds its sentences)."""
    named = asked_section(question)
    titles = [_flat(fold_accents(t).casefold()) for t in _quoted_titles(question)]
    if named is None or not titles or not wants_whole_section(question):
        return False
    opening = _section_opening(list(spans), named, read)
    return any(t in _flat(fold_accents(span.chunk.section_title or "").casefold()) for span in opening[:1]
               for t in titles)


def _absent_versions(query: str, folded: str) -> list[str]:
    """The versions the question names ("version 7.0", "v11") that no passage holds as a number: a
    version the corpus does not have is not covered by the version it has. And a version written right
    after a name ("the QR-bill 2.4 delta guide") that the passages write with other versions ("IG
    QR-bill 2.2 … and 2.3") but never with this one, nor as "version 2.4": the number alone is often
    held as a section's ("chapter 2.4"), which says nothing of a version 2.4."""
    absent = [f"version {v}" for v in dict.fromkeys(_VERSION.findall(query))
              if not re.search(_ALONE_BEFORE + re.escape(v) + _ALONE_AFTER, folded)]
    for name, number in dict.fromkeys(_NAMED_VERSION.findall(query)):
        key = searchable_text(name)
        if key in _SECTION_WORDS or not any(ch.isupper() for ch in name) or f"version {number}" in absent:
            continue
        # the versions each mention of the name gives, up to the end of its sentence ("IG QR-bill 2.2 (22
        # February 2021) and 2.3 (21 November 2025).")
        written: set[str] = set()
        for m in re.finditer(r"(?<![\w-])" + re.escape(key) + r"\s+(?:version\s+|v)?(?=\d+\.\d)", folded):
            tail = folded[m.end():m.end() + MAX_VERSION_TAIL]
            tail = tail[:end.start()] if (end := re.search(r"\.(?=\s|$)", tail)) else tail
            written.update(re.findall(_ALONE_BEFORE + r"(\d+\.\d+)" + _ALONE_AFTER, tail))
        as_version = re.search(r"\b(?:version|v)\s?" + re.escape(number) + _ALONE_AFTER, folded)
        if written - {number} and number not in written and not as_version:
            absent.append(f"{name} {number}")
    return absent


def _agreement(spans: Sequence[Span]) -> tuple[int | None, bool | None]:
    """(rank of the best span's chunk, whether the densest and the lexically best span share a chunk)."""
    if not spans:
        return None, None
    densest = max(spans, key=lambda s: max((d for d in (s.dense, s.dense_full) if d is not None), default=-1.0))
    wordiest = max(spans, key=lambda s: s.lexical)
    return spans[0].rank, densest.chunk.chunk_id == wordiest.chunk.chunk_id


def _continued_rows(chunk: ChunkPayload, index: int, header: list[str]) -> list[list[str]]:
    """The rows of the tables right after table `index` of the chunk that repeat its header: the PDF
    breaks one list into a table per page ("CLSD, ASGN" / "INVE, UKNW, ODUE" under the same
    "CodeName, Name, Definition")."""
    text = _flat(chunk.text)
    end = text.find(_flat(chunk.tables_csv[index])[:80])
    rows: list[list[str]] = []
    for table in chunk.tables_csv[index + 1:]:
        more_header, more = parse_table(table)
        at = text.find(_flat(table)[:80], max(0, end))
        # the same header with no heading between: one list; a heading starts another type's list
        if more_header != header or end < 0 or at < 0 or _NUMBERED_HEADING.search(text[end:at]) \
                or at - end > len(_flat(chunk.tables_csv[index])) + MAX_TABLE_GAP:
            break
        rows += more
        end, index = at, index + 1
    return rows


def _best_rows(rows: list[list[str]], wanted: Sequence[Span]) -> list[list[str]]:
    """The rows of a table to show, in the table's order: the `MAX_TABLE_ROWS` best-scored of the
    wanted ones. A code list cut to its own small section holds a dozen rows sharing the question's
    words ("IN38 Debtor's address is incorrect", "IN39 Creditor's address is incorrect"); the first
    eight in the table's order may leave out the best."""
    kept = sorted(wanted, key=lambda s: -s.score)[:MAX_TABLE_ROWS]
    return [r for r in rows if any(s.row == r for s in kept)]


def _distinct_texts(spans: Sequence[Span]) -> list[Span]:
    """The spans without repeats of a text already among them, best first: a guide repeats the same
    sentence under every element of a type ("The number of fractional digits … must comply with ISO
    4217."), and quoting it three times says it once and leaves no room for what answers."""
    seen: set[str] = set()
    out: list[Span] = []
    for span in spans:
        key = " ".join(fold_accents(span.text).casefold().split())
        if key not in seen:
            seen.add(key)
            out.append(span)
    return out


def _distinct_tables(rows: list[Span]) -> list[Span]:
    """The best row of each table the rows come from, best table first; a table two chunks both
    hold (a page's table repeated where chunks meet) counts once."""
    seen: dict[str, Span] = {}
    for row in rows:
        table = row.chunk.tables_csv[row.table or 0] if row.chunk.tables_csv else row.chunk.chunk_id
        seen.setdefault(" ".join(table.split()), row)
    return list(seen.values())


def _pointed_to(span: Span | None) -> list[tuple[str, str]]:
    """The sections a quoted sentence refers to ("… as set out in Rulebook PS-08, section 3.3")."""
    if span is None:
        return []
    return [ref.resolved(span.chunk.rulebook_id) for ref in references(span.text)]


def _followed(spans: list[Span], sections: Sequence[tuple[str, str]]) -> list[Span]:
    """The best span of each section a cross-reference led to (read whole, or already shown)."""
    best: list[Span] = []
    for rulebook_id, section in dict.fromkeys(sections):
        inside = [s for s in spans if s.chunk.rulebook_id == rulebook_id and in_section(s.chunk, section)]
        if inside:
            best.append(inside[0])
    return best


def _pointing(spans: list[Span], quoted: Sequence[Span], relevant: Any = None) -> list[Span]:
    """The best relevant sentence of each other rulebook that refers to a section a quoted span is in."""
    sections = {(s.chunk.rulebook_id, p.casefold()) for s in quoted for p in s.chunk.section_path}
    own = {s.chunk.rulebook_id for s in quoted}
    best: dict[str, Span] = {}
    for span in spans:
        if span.table is not None or not (relevant(span) if relevant else span.relevant) \
                or span.chunk.rulebook_id in own \
                or span.chunk.rulebook_id in best:
            continue
        targets = {(rb, sec.casefold()) for rb, sec in _pointed_to(span)}
        if targets & sections:
            best[span.chunk.rulebook_id] = span
    return list(best.values())


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _cited(sentence: str, handle: str) -> str:
    """"Refrigerators are accepted." -> "Refrigerators are accepted [S3]." (the stop after the handle).
    A span of several sentences (a field record: "… Definition: Start date. Datatype: …") cites
    each of them: the citation gate checks every sentence on its own."""
    stream = SentenceStream()
    units = [" ".join(u.split()) for u in [*stream.feed(sentence), *stream.flush()]]
    units = [u for u in units if u]
    if len(units) > 1:
        return " ".join(_cited(u, handle) for u in units)
    stripped = sentence.rstrip()
    if stripped.endswith((".", "!", "?")) and not stripped.endswith(".."):
        return f"{stripped[:-1]} [{handle}]{stripped[-1]}"
    return f"{stripped} [{handle}]"


def _message(plan: Plan) -> AIMessage:
    if plan.tool:
        call_id = f"offline_{uuid.uuid4().hex[:12]}"
        return AIMessage(content="", tool_calls=[{"name": plan.tool, "args": plan.args or {}, "id": call_id,
                                                  "type": "tool_call"}])
    return AIMessage(content=plan.text)


def _chunks(plan: Plan) -> Iterator[ChatGenerationChunk]:
    if plan.tool:
        yield ChatGenerationChunk(message=AIMessageChunk(
            content="", tool_call_chunks=[{"name": plan.tool, "args": json.dumps(plan.args or {}),
                                           "id": f"offline_{uuid.uuid4().hex[:12]}", "index": 0,
                                           "type": "tool_call_chunk"}]))
        return
    for piece in re.findall(r"\S+\s*|\s+", plan.text):
        yield ChatGenerationChunk(message=AIMessageChunk(content=piece))
