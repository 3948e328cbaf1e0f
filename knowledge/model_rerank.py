"""Optional rerankers that score the fused list; results under `rerank_threshold` are dropped.

`RULEBOOK_RERANKER` names one:
- "lexical": our own scorer, no model: the share of the question's content terms (BM25 terms,
  so stemmed, identifiers whole) that the passage contains. Cheap, deterministic, a floor.
- "llm:<provider>:<model>": any LangChain chat model by name (e.g. "llm:openai:gpt-4o-mini")
  scores all passages in one call with the prompt in prompts/rerank.md.
- "cross-encoder:<local path>": a sentence-transformers CrossEncoder from a local folder (needs
  sentence-transformers installed; nothing is downloaded), scores passed through a sigmoid.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Protocol

from knowledge.bm25 import Bm25Encoder
from knowledge.store import ScoredChunk

_PROMPT = Path(__file__).with_name("prompts") / "rerank.md"
_PASSAGE_CHARS = 1200  # enough of a chunk to judge it; keeps one call under a few thousand tokens


class Reranker(Protocol):
    name: str

    def score(self, question: str, passages: list[str]) -> list[float]:
        """One relevance score in [0, 1] per passage."""
        ...


class LexicalReranker:
    name = "lexical"

    def __init__(self) -> None:
        self._bm25 = Bm25Encoder()

    def score(self, question: str, passages: list[str]) -> list[float]:
        terms = set(self._bm25.query_terms(question))
        if not terms:
            return [0.0] * len(passages)
        scores = []
        for passage in passages:
            # the passage is tokenised with every stemmer too, so both sides use the same forms
            present = set(self._bm25.query_terms(passage)) & terms
            scores.append(len(present) / len(terms))
        return scores


class LlmReranker:
    def __init__(self, chat_model: Any, name: str) -> None:
        self._model = chat_model
        self.name = name

    def score(self, question: str, passages: list[str]) -> list[float]:
        if not passages:
            return []
        listing = "\n\n".join(f"[{i}] {p[:_PASSAGE_CHARS]}" for i, p in enumerate(passages, start=1))
        prompt = _PROMPT.read_text(encoding="utf-8").format(question=question, passages=listing)
        reply = self._model.invoke(prompt)
        return parse_scores(getattr(reply, "content", reply), len(passages))


def parse_scores(reply: Any, expected: int) -> list[float]:
    """The JSON list in a model's reply, clipped to [0, 1]; a malformed reply scores nothing as
    relevant rather than letting unjudged passages through."""
    text = reply if isinstance(reply, str) else json.dumps(reply) if not isinstance(reply, list) else \
        "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in reply)
    match = re.search(r"\[[^\[\]]*\]", text)
    try:
        values = [float(v) for v in json.loads(match.group(0))] if match else []
    except (ValueError, TypeError):
        values = []
    if len(values) != expected:
        return [0.0] * expected
    return [min(1.0, max(0.0, v)) for v in values]


class CrossEncoderReranker:
    def __init__(self, path: str) -> None:
        try:
            from sentence_transformers import CrossEncoder  # type: ignore[import-not-found]
        except ImportError as exc:
            raise ValueError("reranker 'cross-encoder:…' needs the sentence-transformers package") from exc
        if not Path(path).exists():
            raise ValueError(f"cross-encoder model folder {path!r} does not exist (models are never downloaded)")
        self._model = CrossEncoder(path)
        self.name = f"cross-encoder:{path}"

    def score(self, question: str, passages: list[str]) -> list[float]:
        raw = self._model.predict([(question, p) for p in passages])
        return [1 / (1 + math.exp(-float(s))) for s in raw]


def load_reranker(name: str | None) -> Reranker | None:
    if not name:
        return None
    if name == "lexical":
        return LexicalReranker()
    kind, _, target = name.partition(":")
    if kind == "llm" and target:
        from langchain.chat_models import init_chat_model

        return LlmReranker(init_chat_model(target, temperature=0), name=name)
    if kind == "cross-encoder" and target:
        return CrossEncoderReranker(target)
    raise ValueError(f"reranker {name!r}: use 'lexical', 'llm:<provider>:<model>' or 'cross-encoder:<path>'")


def apply_reranker(reranker: Reranker, question: str, candidates: list[ScoredChunk],
                   threshold: float) -> list[ScoredChunk]:
    """Candidates scored by the reranker, best first, those under the threshold dropped."""
    scores = reranker.score(question, [c.payload.text for c in candidates])
    kept = [ScoredChunk(payload=c.payload, score=s, ranks=c.ranks)
            for c, s in zip(candidates, scores, strict=True) if s >= threshold]
    kept.sort(key=lambda c: c.score, reverse=True)
    return kept
