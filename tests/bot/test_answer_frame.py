"""The answer's opening line says in which language the rulebooks were quoted: all of them in the
question's language, all in another, or some in another (an English answer quoting one German
sentence beside English ones is not "quoted in German")."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from knowledge.payload import ChunkPayload

DEFINITION = {
    "en": "The IID (institution identification) is used in Switzerland and Liechtenstein to identify financial "
          "institutions as participants in the Swiss RTGS systems.",
    "de": "IID (Instituts-Identifikation) dient in der Schweiz und Liechtenstein zur Identifizierung der "
          "Finanzinstitute als Teilnehmer an den Schweizer RTGS-Systemen.",
}


def chunk(language: str) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"IID-{language}:3", rulebook_id=f"iid-guide-{language}", rulebook_title="QR-IID guide",
                        page_start=6, page_end=6, section_path=["1", "1.3", "1.3.1"], section_key="1.3.1",
                        section_title="1.3.1 IID", chunk_index=3, text=DEFINITION[language],
                        content_hash=f"h-{language}", language=language)


def first_line(knowledge, languages: list[str]) -> str:
    model = OfflineRulebookModel(encoder=knowledge.searcher.encoder, min_lexical=0.0, min_dense=0.0)
    hits = [(f"S{i}", chunk(lang)) for i, lang in enumerate(languages, 1)]
    text = model.compose("What is an IID?", "en", hits)
    assert all(f"[S{i}]" in text for i in range(1, len(languages) + 1)), text
    return text.splitlines()[0]


def test_the_frame_says_some_quotes_are_in_another_language(knowledge):
    assert first_line(knowledge, ["en", "de"]) == "Here is what the rulebooks say (partly quoted in German):"


def test_the_frame_says_every_quote_is_in_another_language(knowledge):
    assert first_line(knowledge, ["de"]) == "Here is what the rulebooks say (quoted in German):"


def test_the_frame_names_no_language_when_every_quote_is_in_the_questions(knowledge):
    assert first_line(knowledge, ["en"]) == "Here is what the rulebooks say:"
