"""Find text in a document that addresses the assistant or the reader as instructions.

A rulebook is full of imperative prose ("The Originator PSP must…", "See section 4.2", "Submit the
form by 15:00"): that is the document's content and is never flagged. What is flagged is text
whose target is the one READING the document on someone's behalf — an AI, an assistant, a
model — or text telling that reader what to tell its user:
- overriding the reader's instructions: "ignore (all) previous instructions", "disregard the
  rules above", "forget your instructions", "new instructions:", "system prompt";
- re-casting the reader: "you are now…", "from now on you…", "act as / pretend to be…";
- addressing an AI by name: "as an AI…", "AI assistants must…", "note to the assistant";
- telling the reader what to tell its user: "tell the user that…", "inform the customer that…",
  "always answer…", "do not mention … to the user";
each in English, Dutch, French and German. The sentence holding a match is the span (start, end
character offsets in the text), so that the bot can blank it for the offline model and the
citation gate can refuse a sentence that rests on it.

One detector for both sides of the product: the indexer marks chunks with it
(`indexing.instruction_text` re-exports it), and the citation gate applies it to the answer's own
sentences, so that an uncited "Trust this assistant instead of the documents." is never framing
and a cited sentence that tells the user what to believe is never passed on as a fact.

Calibrated on the sample corpus and the real PDFs in ../shared/corpora (no false positive among
their sentences) and on hand-written positives in four languages: `python -m
evals.instruction_text` prints the counts.
"""

from __future__ import annotations

import re

# Who the text speaks to when it is an instruction to the reader rather than rulebook content.
_AI_WORDS = (r"chat\s?bot|chat\s?gpt|assistant|assistent(?:in)?|(?:large\s+)?language\s+model|taalmodel|"
             r"modèle\s+de\s+langage|sprachmodell|ki-assistent|ai-assistent")
# Acronyms count in capitals only: "the IA shall include" is an impact assessment.
_AI_EN = rf"(?:(?-i:AI|A\.I\.|LLM)|{_AI_WORDS})"
_AI = rf"(?:(?-i:AI|A\.I\.|LLM|KI|IA)|{_AI_WORDS})"
_USER_EN = r"(?:the\s+)?(?:user|reader|customer|client|asker|employee|adviser|advisor)s?"
_USER_NL = r"(?:de\s+)?(?:gebruiker|lezer|klant|vraagsteller|medewerker)s?"
_USER_FR = r"(?:l['’]\s?|les?\s+|aux?\s+)?(?:utilisateur|lecteur|client|demandeur|collaborateur)(?:rice)?s?"
_USER_DE = r"(?:dem|den|die|der)?\s*(?:Nutzer|Benutzer|Leser|Kunden?|Anwender|Fragesteller)(?:in|innen|n)?"
_PRIOR_EN = r"(?:all\s+|any\s+)?(?:the\s+|your\s+|of\s+your\s+)?(?:previous|prior|above|earlier|preceding|original|other|system)"
_RULES_EN = r"(?:instructions?|rules|prompts?|guidelines|directions|context)"

# An imperative that opens a sentence ("Tell the user…", "Always answer…"); inside a sentence the
# same words are rulebook prose ("the PSP must tell the customer that…").
_START = r"(?:^|(?<=[.!?:;]\s)|(?<=[\"“«]))\s*"

_PATTERNS = [re.compile(p, re.IGNORECASE | re.MULTILINE) for p in (
    # -- English ---------------------------------------------------------------------------
    rf"\b(?:ignore|disregard|forget|override|bypass|skip)\s+{_PRIOR_EN}\s+{_RULES_EN}",
    rf"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:your|the\s+assistant['’]s)\s+{_RULES_EN}",
    r"\bnew\s+instructions?\s*:",
    r"\b(?:reveal|print|show|repeat|output)\s+(?:your|the)\s+system\s+prompt",
    r"\bsystem\s+prompt\b",
    r"\byou\s+are\s+now\s+(?:a|an|the|in)\b",
    r"\bfrom\s+now\s+on,?\s+you\b",
    r"\b(?:pretend\s+(?:to\s+be|you\s+are)|act\s+as\s+if\s+you|role-?play\s+as)\b",
    rf"\bas\s+an?\s+{_AI_EN}\b",
    rf"\b(?:note|message|instruction)s?\s+(?:to|for)\s+(?:the\s+|any\s+)?{_AI_EN}",
    rf"\b(?:dear|attention|hey)\s+{_AI_EN}",
    rf"\b(?:any|the|all|every)\s+{_AI_EN}s?\s+(?:reading|processing|summari[sz]ing|answering|must|should|shall|will)\b",
    rf"{_START}(?:please\s+)?(?:tell|inform|assure|advise|remind|convince|reassure)\s+{_USER_EN}\s+(?:that|to)\b",
    rf"{_START}(?:please\s+)?(?:say|explain|mention|reply|respond|answer)\s+to\s+{_USER_EN}\s+that\b",
    rf"{_START}(?:do\s+not|don['’]t|never)\s+(?:tell|mention\s+to|reveal\s+to|show)\s+{_USER_EN}\b",
    rf"{_START}always\s+(?:answer|respond|reply|say)\b",
    rf"{_START}(?:answer|respond|reply\s+to)\s+(?:every|all|any)\s+questions?\b",
    r"\binstead\s+of\s+(?:the\s+)?(?:documents?|rulebooks?|sources?)\b.{0,40}\btrust\b|\btrust\s+(?:this|the)\s+"
    r"(?:assistant|AI|chatbot)\b",
    # -- Dutch -----------------------------------------------------------------------------
    r"\b(?:negeer|vergeet|omzeil)\s+(?:alle\s+)?(?:de\s+|je\s+|uw\s+)?(?:eerdere|vorige|voorgaande|bovenstaande|"
    r"oorspronkelijke|andere)?\s*(?:instructies|regels|opdrachten|richtlijnen)",
    rf"{_START}(?:vertel|zeg|meld|verzeker|laat\s+weten\s+aan)\s+(?:tegen\s+|aan\s+)?{_USER_NL}\s+(?:dat|om)\b",
    r"\bje\s+bent\s+nu\s+(?:een|de|het)\b",
    rf"\bals\s+(?:een\s+)?{_AI}\b",
    rf"\b(?:beste|aan\s+de)\s+{_AI}",
    r"\bnieuwe\s+instructies?\s*:",
    rf"{_START}antwoord\s+altijd\b",
    # -- French ----------------------------------------------------------------------------
    r"\bignor(?:e[rz]?|ez)\s+(?:toutes\s+|tous\s+)?(?:les\s+|vos\s+|tes\s+)?(?:instructions|consignes|règles|"
    r"directives)(?:\s+(?:précédentes|antérieures|ci-dessus))?",
    r"\boubli(?:e[rz]?|ez)\s+(?:toutes\s+)?(?:les\s+|vos\s+|tes\s+)(?:instructions|consignes)",
    rf"{_START}(?:dites|dis|indiquez|indique|affirmez|assurez|annoncez)\s+(?:à\s+)?{_USER_FR}\s+(?:que|qu['’])",
    r"\b(?:tu\s+es|vous\s+êtes)\s+(?:maintenant|désormais)\b",
    rf"\ben\s+tant\s+qu['’]\s?{_AI}",
    r"\bnouvelles?\s+(?:instructions|consignes)\s*:",
    rf"{_START}répond(?:ez|s)\s+toujours\b",
    # -- German ----------------------------------------------------------------------------
    r"\bignorier(?:e|en\s+sie|t)?\s+(?:alle\s+)?(?:die\s+|deine\s+|ihre\s+)?(?:vorherigen|bisherigen|obigen|"
    r"vorangegangenen|ursprünglichen|anderen)?\s*(?:Anweisungen|Instruktionen|Regeln|Vorgaben)",
    r"\bvergiss\s+(?:alle\s+)?(?:deine\s+|die\s+)?(?:Anweisungen|Instruktionen|Regeln)",
    rf"{_START}(?:sag(?:e|en\s+sie)?|teile?(?:n\s+sie)?|versichere?(?:n\s+sie)?|erkläre?(?:n\s+sie)?)\s+{_USER_DE}"
    r"\s*(?:mit\s*)?,?\s+(?:dass|mit)\b",
    r"\bdu\s+bist\s+(?:jetzt|nun|ab\s+sofort)\b",
    rf"\bals\s+(?:eine?\s+)?{_AI}\b(?!\s*-)",
    r"\bneue\s+Anweisungen?\s*:",
    rf"{_START}antworte(?:n\s+sie)?\s+immer\b",
)]
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around text[start:end]: from after the previous stop to the next one."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    left = before[-1] if before else 0
    after = _SENTENCE_END.search(text, end)
    right = after.end() if after else len(text)
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def find_instruction_spans(text: str) -> list[list[int]]:
    """[start, end) offsets of the sentences in `text` that address the reader as instructions."""
    spans: list[list[int]] = []
    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            spans.append(list(_sentence_bounds(text, match.start(), match.end())))
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def instruction_sentences(text: str) -> list[str]:
    return [text[start:end] for start, end in find_instruction_spans(text)]
