"""Language identification: the stop-word guess against py3langid, on one labelled set.

    python -m evals.language_id

The labelled set:
- questions: every golden question that carries a language (evals/golden/e2e_*.jsonl);
- short sentences: SENTENCES below, in the four languages and in languages we do not support
  (label "other");
- document passages: the first 5,000 characters (what indexing decides on) and passages of 300
  to 1,500 characters of each PDF of the sample corpus (label: the catalog's language) and of
  the real PDFs in ../shared/corpora (labels in REAL_PDF_LANGUAGES, read off the documents: the
  ABN AMRO addendum is in English with Dutch page footers), plus passages in Spanish,
  Italian and Portuguese (label "other").
Two questions are scored: is a text in one of our four languages labelled with the right one
(accuracy, None counted as English, the bot's default, as the callers do), and is a text in
another language recognised as not ours (documents only: a question in Spanish is answered in
English either way)?
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from evals.instruction_text import pdf_text

SUPPORTED = ("en", "nl", "fr", "de")
REAL_PDF_LANGUAGES = {
    "de_tan_hhd_uc_v14.pdf": "de", "epc_sct_rulebook_2025_v1.0.pdf": "en", "eprs_bri_2023_747447_en.pdf": "en",
    "kid_XS1914695009-EN.pdf": "en", "six_qr-iid_qr-iban-de.pdf": "de", "six_qr-iid_qr-iban-en.pdf": "en",
    "iso20022_mdr2_exceptions_investigations_2019_2020.pdf": "en", "iso20022_mdr2_request_to_pay_v1.pdf": "en",
    "nl_addendum_xml_sct_initiation_6-0.pdf": "en", "six_ig-qr-bill-delta-guide-v2.3-en.pdf": "en",
}
SENTENCES = [
    ("en", "What is the fee?"), ("en", "Refund deadline?"), ("en", "Who pays the charges for a SEPA transfer?"),
    ("en", "Is a wearable accepted?"), ("en", "cut-off time CSM"), ("en", "and for cross-border?"),
    ("nl", "Wat kost het?"), ("nl", "Mag ik met mijn koelkast betalen?"), ("nl", "Hoe lang duurt een terugbetaling?"),
    ("nl", "Welke code moet de handelaar vermelden?"), ("nl", "en voor grensoverschrijdend?"),
    ("fr", "Quel est le tarif ?"), ("fr", "Puis-je payer avec mon réfrigérateur ?"),
    ("fr", "Quel est le délai de remboursement ?"), ("fr", "et pour l'étranger ?"),
    ("de", "Was kostet das?"), ("de", "Darf ich mit meinem Kühlschrank bezahlen?"),
    ("de", "Wie lange dauert eine Rückerstattung?"), ("de", "und grenzüberschreitend?"),
    ("other", "¿Cuál es la comisión por una transferencia?"), ("other", "Quanto costa un bonifico?"),
    ("other", "Qual é o prazo para o reembolso?"), ("other", "Ile kosztuje przelew?"),
]
OTHER_PASSAGES = [
    ("es", "El ordenante debe indicar el IBAN del beneficiario y su nombre. La entidad del ordenante ejecutará "
           "la orden el mismo día en que la reciba, siempre que la reciba antes de la hora límite. Las órdenes "
           "recibidas después de la hora límite se ejecutarán el siguiente día hábil. Los gastos se repartirán "
           "entre el ordenante y el beneficiario."),
    ("es", "Reglamento de comercios. Un comercio que acepte pagos con dispositivos conectados debe registrar cada "
           "dispositivo en el sistema y conservar los justificantes durante cinco años. El límite por operación es "
           "de 150 euros para los frigoríficos conectados y de 50 euros para los dispositivos portátiles."),
    ("it", "Il prestatore di servizi di pagamento del pagatore deve eseguire l'ordine il giorno stesso in cui lo "
           "riceve, purché sia ricevuto prima dell'orario limite. Le commissioni sono ripartite tra il pagatore e "
           "il beneficiario, salvo diverso accordo scritto tra le parti."),
    ("pt", "O prestador de serviços de pagamento do ordenante deve executar a ordem no mesmo dia em que a recebe, "
           "desde que a receba antes da hora limite. As ordens recebidas depois da hora limite são executadas no "
           "dia útil seguinte. As comissões são repartidas entre o ordenante e o beneficiário."),
]
_PARAGRAPH = re.compile(r"\n\s*\n")


@dataclass
class Item:
    kind: str  # question | sentence | document | passage
    label: str  # en / nl / fr / de, or "other"
    text: str


def _passages(text: str, limit: int = 12) -> list[str]:
    out, current = [], ""
    for block in _PARAGRAPH.split(text):
        current = f"{current}\n\n{block}".strip()
        if len(current) >= 300:
            out.append(current[:1500])
            current = ""
        if len(out) >= limit:
            break
    return out


def labelled_set(root: Path) -> list[Item]:
    items: list[Item] = []
    for path in sorted((root / "evals" / "golden").glob("e2e_*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            if q.get("language") in SUPPORTED:
                items.append(Item("question", q["language"], q["question"]))
    items += [Item("sentence", label, text) for label, text in SENTENCES]
    catalog = yaml.safe_load((root / "examples" / "rulebooks" / "catalog.yaml").read_text(encoding="utf-8"))
    entries = catalog.get("documents", []) if isinstance(catalog, dict) else catalog
    labels = {e["file"]: e.get("language", "en") for e in entries if isinstance(e, dict) and "file" in e}
    files = [(root / "examples" / "rulebooks" / name, lang) for name, lang in labels.items()]
    shared = root.parent / "shared" / "corpora"
    files += [(shared / folder / name, lang) for folder in ("real-pdfs", "real-pdfs-2")
              for name, lang in REAL_PDF_LANGUAGES.items() if (shared / folder / name).is_file()]
    for path, lang in files:
        try:
            text = pdf_text(path)
        except Exception:  # noqa: BLE001 — the sample corpus' corrupt / encrypted / scanned files
            continue
        if len(text.strip()) < 200:
            continue
        items.append(Item("document", lang, text[:5000]))
        items += [Item("passage", lang, p) for p in _passages(text)]
    for _, text in OTHER_PASSAGES:
        items.append(Item("document", "other", text))
    return items


def _stop_words(text: str) -> str | None:
    from knowledge.bm25 import _split
    from knowledge.word_forms import STOP_WORDS

    words, _ = _split(text)
    hits = {lang: sum(1 for w in words if w in STOP_WORDS[lang]) for lang in SUPPORTED}
    ranked = sorted(hits.items(), key=lambda kv: kv[1], reverse=True)
    return None if ranked[0][1] == 0 or ranked[0][1] == ranked[1][1] else ranked[0][0]


def methods() -> dict[str, tuple[Callable[[str], str | None], Callable[[str], str | None]]]:
    """name -> (for questions and sentences, for documents)."""
    from knowledge.language_id import _ranking, document_language, supported_language

    def model_only(text: str) -> str | None:
        return next((lang for lang, _ in _ranking(text) if lang in SUPPORTED), None) if text.strip() else None

    return {"stop words (before)": (_stop_words, _stop_words),
            "py3langid only": (model_only, document_language),
            "clear stop words, else py3langid (adopted)": (supported_language, document_language)}


def score(items: list[Item]) -> list[dict[str, object]]:
    rows = []
    for name, (short, long) in methods().items():
        started = time.perf_counter()
        by_kind: dict[str, list[bool]] = {}
        other_docs: list[bool] = []
        wrong: list[str] = []
        for item in items:
            document = item.kind in ("document", "passage")
            guess = (long if document else short)(item.text)
            if item.label == "other":
                if document:
                    other_docs.append(guess is not None and guess not in SUPPORTED)
                continue
            ok = (guess or "en") == item.label
            by_kind.setdefault(item.kind, []).append(ok)
            if not ok:
                wrong.append(f"{item.kind} {item.label}->{guess}: {' '.join(item.text.split())[:70]}")
        rows.append({"method": name, "seconds": time.perf_counter() - started,
                     **{kind: (sum(v), len(v)) for kind, v in by_kind.items()},
                     "other documents recognised": (sum(other_docs), len(other_docs)), "wrong": wrong})
    return rows


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    items = labelled_set(root)
    rows = score(items)
    kinds = ["question", "sentence", "document", "passage", "other documents recognised"]
    print(f"{'method':<34}" + "".join(f"{k:>28}" for k in kinds) + f"{'seconds':>10}")
    for row in rows:
        cells = "".join(f"{'{}/{}'.format(*row[k]):>28}" if k in row else f"{'-':>28}" for k in kinds)  # type: ignore[misc]
        print(f"{row['method']:<34}{cells}{row['seconds']:>10.2f}")
    for row in rows:
        print(f"\nwrong with {row['method']}:")
        for line in row["wrong"]:  # type: ignore[union-attr]
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
