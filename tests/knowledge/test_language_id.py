"""Language identification (`knowledge.language_id`): the four languages we speak, other languages
recognised in documents, one implementation behind `supported_language`, safe across threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from evals.language_id import OTHER_PASSAGES, SENTENCES, Item, _stop_words
from knowledge.bm25 import tokenize
from knowledge.language_id import document_language, supported_language

ROOT = Path(__file__).resolve().parents[2]


def _questions() -> list[Item]:
    import json

    items = []
    for path in sorted((ROOT / "evals" / "golden").glob("e2e_*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("language") in ("en", "nl", "fr", "de"):
                items.append(Item("question", q["language"], q["question"]))
    return items + [Item("sentence", label, text) for label, text in SENTENCES if label != "other"]


def test_questions_are_labelled_at_least_as_well_as_by_stop_words():
    items = _questions()
    new = sum((supported_language(i.text) or "en") == i.label for i in items)
    old = sum((_stop_words(i.text) or "en") == i.label for i in items)
    assert new >= old and new >= 0.97 * len(items)
    assert supported_language("Welke code moet de handelaar vermelden?") == "nl"
    assert supported_language("Wie lange archiviert SIX Interbank Clearing gelöschte QR-IIDs?") == "de"
    assert supported_language("12345") is None


def test_a_document_in_another_language_is_labelled_with_it_and_a_short_text_is_not():
    assert [document_language(text) for _, text in OTHER_PASSAGES] == [lang for lang, _ in OTHER_PASSAGES]
    assert document_language("¿Cuál es la comisión?") in ("en", "nl", "fr", "de")  # too short to say
    assert supported_language(OTHER_PASSAGES[0][1]) in ("en", "nl", "fr", "de")


def test_a_language_we_do_not_stem_is_tokenised_as_written():
    assert tokenize("Las órdenes recibidas", None) == ["las", "ordenes", "recibidas"]


def test_identification_is_safe_across_threads():
    texts = [i.text for i in _questions()] * 4 + [text for _, text in OTHER_PASSAGES] * 10
    serial = [(supported_language(t), document_language(t)) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda t: (supported_language(t), document_language(t)), texts))
    assert parallel == serial
