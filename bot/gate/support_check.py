"""Is a sentence supported by the source spans it cites?

Default, lexical (no model needed):
1. Every fact of the sentence (number, amount, date, code, identifier, proper name; see
   `bot.gate.claims`) must appear in at least one cited span. This rule holds in every mode.
2. Then, with a judge model configured (`RULEBOOK_JUDGE_MODEL`), the judge decides (an
   entailment question; translations are fine when they keep the meaning).
3. Without a judge: at least `MIN_OVERLAP` of the sentence's content-word stems must occur in
   the cited spans. Stems are compared in the sentence's language and in each cited chunk's
   language, so a verbatim quote passes whatever language it is in.
4. Cross-language without a judge: a lexical check cannot verify a translation. A sentence in
   another language than its cited chunk, which failed step 3, passes only when it is anchored:
   it carries at least one fact and all its facts appear in the span (step 1). Otherwise it is
   dropped with the reason "translation cannot be checked without a judge model". The offline
   model never needs this path: it quotes sources verbatim and writes its frame text in the
   question's language without facts.
Known limit of the lexical check: it cannot see a flipped negation ("not accepted"). A judge can.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from langchain_core.language_models import BaseChatModel

from bot.gate.claims import Claims, SpanIndex, extract_claims, plain
from knowledge.bm25 import tokenize
from knowledge.payload import ChunkPayload
from knowledge.sentences import split_sentences

MIN_OVERLAP = 0.5
_JUDGE_PROMPT = (Path(__file__).parent / "prompts" / "judge.md").read_text(encoding="utf-8")


@dataclass
class SupportVerdict:
    supported: bool
    method: str  # lexical | judge | anchored_translation
    detail: str = ""


class SupportJudge(Protocol):
    async def supports(self, source: str, sentence: str) -> bool: ...


class ModelJudge:
    """An entailment judgement by a chat model (any LangChain chat model)."""

    def __init__(self, model: BaseChatModel) -> None:
        self.model = model

    async def supports(self, source: str, sentence: str) -> bool:
        reply = await self.model.ainvoke(_JUDGE_PROMPT.format(source=source[:12000], sentence=sentence))
        verdict = str(reply.content).strip().upper()
        return verdict.startswith("SUPPORTED")


def chunk_source_text(chunk: ChunkPayload) -> str:
    tables = "\n".join(t for t in chunk.tables_csv if t not in chunk.text)
    return f"{chunk.text}\n{tables}" if tables else chunk.text


def _overlap(claims_text: str, sentence_language: str, chunk: ChunkPayload, span: SpanIndex) -> float:
    best = 0.0
    for language in dict.fromkeys((sentence_language, chunk.language[:2])):
        terms = {t for t in tokenize(claims_text, language) if not any(ch.isdigit() for ch in t)}
        if not terms:
            return 1.0
        best = max(best, len(terms & span.terms) / len(terms))
    return best


async def check_support(sentence: str, sentence_language: str, cited: list[ChunkPayload],
                        judge: SupportJudge | None = None) -> SupportVerdict:
    claims: Claims = extract_claims(sentence, sentence_language)
    spans = [SpanIndex.build(chunk_source_text(chunk), chunk.language[:2]) for chunk in cited]
    missing_per_span = [span.missing_facts(claims) for span in spans]
    missing = [fact for fact in (missing_per_span[0] if spans else [])
               if all(fact in others for others in missing_per_span[1:])]
    if missing:
        return SupportVerdict(False, "lexical", f"not in the cited source: {', '.join(missing[:4])}")
    text = plain(sentence)
    if judge is not None:
        source = "\n\n".join(chunk_source_text(chunk) for chunk in cited)
        supported = await judge.supports(source, text)
        return SupportVerdict(supported, "judge", "" if supported else "the judge model found it unsupported")
    overlap = max((_overlap(text, sentence_language, chunk, span) for chunk, span in zip(cited, spans, strict=True)),
                  default=0.0)
    if overlap >= MIN_OVERLAP:
        return SupportVerdict(True, "lexical", f"overlap {overlap:.2f}")
    if any(chunk.language[:2] != sentence_language for chunk in cited):
        if claims.has_facts:
            return SupportVerdict(True, "anchored_translation", "facts match; wording is a translation")
        return SupportVerdict(False, "lexical", "translation cannot be checked without a judge model")
    return SupportVerdict(False, "lexical", f"content words overlap {overlap:.0%} < {MIN_OVERLAP:.0%}")


def best_quote(sentence: str, sentence_language: str, chunk: ChunkPayload, limit: int = 400) -> str:
    """The span of the chunk that supports a cited sentence: the sentence itself when it is a verbatim
    quote, else the chunk's sentence (or table row) sharing the most content words with it."""
    target = " ".join(plain(sentence).split())
    source = " ".join(chunk_source_text(chunk).split())
    if len(target) > 20 and target.rstrip(".!?").casefold() in source.casefold():
        return target[:limit]
    candidates = split_sentences(chunk_source_text(chunk))
    candidates = [" ".join(c.split()) for c in candidates if c not in chunk.tables_csv]
    candidates += [line.strip() for table in chunk.tables_csv for line in table.splitlines() if line.strip()]
    if not candidates:
        return ""
    wanted = set(tokenize(target, sentence_language)) | set(tokenize(target, chunk.language[:2]))
    best = max(candidates, key=lambda c: len(wanted & set(tokenize(c, chunk.language[:2]))))
    return best[:limit]
