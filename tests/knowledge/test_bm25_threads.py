"""The BM25 encoder is shared by every thread on the answer path: stemming must not race.

Issue 12: the offline model plans in `asyncio.to_thread` workers while other questions encode
queries, and one shared Snowball stemmer across 4 threads made about a third of its calls
raise IndexError/AssertionError (or return wrong stems).
"""

from __future__ import annotations

import threading

import pytest
import snowballstemmer

from knowledge.bm25 import Bm25Encoder, tokenize

TEXT = ("The acquirer shall refund the disputed payments and chargebacks to the merchants; "
        "settlements are transferring operational fees. ") * 20
THREADS, ROUNDS = 4, 60


def _hammer(work, results: list, errors: list) -> None:
    start = threading.Barrier(THREADS)

    def run() -> None:
        start.wait()
        for _ in range(ROUNDS):
            try:
                results.append(work())
            except Exception as exc:  # noqa: BLE001 - the race shows up as any exception
                errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_one_snowball_stemmer_shared_by_threads_races() -> None:
    """The hazard itself (why the encoder must not share one): a single instance breaks."""
    shared = snowballstemmer.stemmer("english")
    words = TEXT.lower().replace(";", "").replace(".", "").split()
    expected = snowballstemmer.stemmer("english").stemWords(words)
    results: list = []
    errors: list = []
    _hammer(lambda: shared.stemWords(words), results, errors)
    wrong = [r for r in results if r != expected]
    if not (errors or wrong):  # a race needs the scheduler's help: never fail CI for its absence
        pytest.skip("a shared Snowball stemmer happened not to race in this run")


def test_tokenize_from_many_threads_equals_serial() -> None:
    expected = {lang: tokenize(TEXT, lang) for lang in ("en", "nl", "fr", "de")}
    for lang in expected:
        results: list = []
        errors: list = []
        _hammer(lambda lang=lang: tokenize(TEXT, lang), results, errors)
        assert not errors, f"{lang}: {errors[:3]}"
        assert all(r == expected[lang] for r in results), lang


def test_query_encoding_from_many_threads_equals_serial() -> None:
    encoder = Bm25Encoder()
    question = "Which refunds apply to disputed chargebacks for merchants?"
    expected = encoder.encode_query(question)
    results: list = []
    errors: list = []
    _hammer(lambda: encoder.encode_query(question), results, errors)
    assert not errors and all(r == expected for r in results)
