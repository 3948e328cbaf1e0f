"""The parts of a question that asks two things ("How can you tell a QR-IBAN from a normal IBAN, and
how long is the IBAN on a QR-bill?") or spans two documents ("which encoding does the ABN AMRO
addendum require, and which does the QR-bill guide require?").

One search for the whole question tends to return chunks of one document only, and one set of
quotes scored against the whole question serves one part: each part gets its own search and its
own quotes (`OfflineRulebookModel.plan`). A part is written so that it can be searched on its own:
- the question's context goes with every part: a statement before it ("A biller wants to use a
  creditor reference starting with RF.") and a lead-in ending in ":" ("Compare the character sets:");
- an elided noun is filled in from the first part ("which encoding does A require, and which does
  B require" -> "which encoding does B require"), and in English and German a pronoun of a later
  part that stands for the first part's subject is replaced by it ("… does ABN AMRO treat them
  differently" -> "… treat priority codes differently");
- "compare X and Y" and "the X guide and the Y addendum" give a part per named thing.
A clause after "and" that adds little of its own ("… and how often must it occur?", "… and is it
mandatory?", "… and to whom?") is a detail of the same evidence, not a part, and a question that
merely contains "and" ("terms and conditions") is never split: a new part starts only where a
question word follows the coordinator. Languages: en, de, fr, nl.
"""

from __future__ import annotations

import re

from bot.offline.span_scoring import ASKING_WORDS
from knowledge.bm25 import tokenize
from knowledge.sentences import split_sentences
from knowledge.word_forms import fold_accents

__all__ = ["MAX_PARTS", "MIN_PART_TERMS", "question_parts"]

MAX_PARTS = 3  # a search each: more parts than that is a list, not a set of questions
MIN_PART_TERMS = 2  # content terms a clause needs of its own to be a part (not a detail of the first)

_AND = {"en": r"and|as\s+well\s+as", "de": r"und|sowie", "fr": r"et", "nl": r"en"}
# what opens a question clause after the coordinator: question words and the verbs that open a
# yes/no question (a preposition may come first: "and in which months", "et dans quel cas")
_OPENERS = {
    "en": r"(?:(?:in|on|at|for|from|to|under|by|with|of)\s+)?(?:which|what|whom|whose)|how|when|where|who|why|"
          r"whether|does|do|did|is|are|was|were|can|could|may|must|should|shall|will|would|has|have",
    "de": r"(?:(?:in|an|auf|für|bei|mit|nach|von|zu)\s+)?(?:welche[mnrs]?|wem|wen|was)|wie|wann|wo|woher|"
          r"wohin|warum|wieso|ob|wer|ist|sind|kann|können|muss|müssen|darf|dürfen|gibt|wird|werden|hat|haben",
    "fr": r"(?:(?:dans|à|a|en|pour|sur|par|de|avec|sous)\s+)?(?:quel(?:le)?s?|lequel|laquelle|lesquel(?:le)?s|qui|"
          r"quoi)|comment|quand|où|ou|pourquoi|combien|que|qu['’]|est-ce|est-il|est-elle|peut-on|doit-on|faut-il|"
          r"existe-t-il|y\s+a-t-il",
    "nl": r"(?:(?:in|op|voor|bij|met|van|aan|onder)\s+)?(?:welke|welk|wat|wie)|hoe|wanneer|waar|waarom|of|is|"
          r"zijn|kan|kunnen|moet|moeten|mag|mogen|heeft|hebben|wordt|worden|geldt|gelden",
}
# an interrogative determiner and the noun it asks about ("which encoding does …"): the noun a later
# "which does B require" leaves out, and what a later pronoun stands for
_DETERMINER = {"en": r"which|what", "de": r"welche[mnrs]?", "fr": r"quel(?:le)?s?", "nl": r"welke|welk"}
_AUXILIARY = {
    "en": r"does|do|did|is|are|was|were|can|could|may|must|should|shall|will|would|has|have|exist|exists",
    "de": r"ist|sind|kann|können|muss|müssen|darf|dürfen|gibt|gilt|gelten|wird|werden|hat|haben|verlangt|verlangen",
    "fr": r"est|sont|peut|peuvent|doit|doivent|existe|existent|exige|exigent|a|ont",
    "nl": r"is|zijn|kan|kunnen|moet|moeten|mag|mogen|heeft|hebben|wordt|worden|bestaat|bestaan|vereist|vereisen",
}
# pronouns a later part uses for the first part's subject (French and Dutch pronouns are articles too)
_PRONOUNS = {"en": r"them|it|they", "de": r"sie|ihn"}  # not "es": "gibt es" is no pronoun
_COMPARE = {"en": r"compare", "de": r"vergleiche|vergleichen\s+sie", "fr": r"compare[rz]?", "nl": r"vergelijk"}
_COMPARED = {"en": r"and|with|to", "de": r"und|mit", "fr": r"et|avec|à", "nl": r"en|met"}
# nouns that name a document: "the ABN AMRO addendum and the QR-bill guide" names two
_DOCUMENT = (r"addendum|guide|guideline|guidelines|rulebook|specification|specifications|standard|document|"
             r"leitfaden|richtlinie|richtlinien|regelwerk|dokument|règlement|reglement|guide|norme|"
             r"regelboek|handleiding|richtlijn|richtlijnen|document")


def question_parts(question: str, language: str) -> list[str]:
    """The parts of `question`, each a question of its own with the context it needs; one part (the
    question itself) when it asks one thing."""
    language = language if language in _AND else "en"
    text = " ".join(question.split())
    context, asked = _context(text, language)
    clauses = [clause for sentence in asked for clause in _clauses(sentence, language)]
    if len(clauses) == 1:
        clauses = _compared(clauses[0], language) or _documents(clauses[0], language) or clauses
    clauses = _substantial(clauses, language)
    if not 1 < len(clauses) <= MAX_PARTS:
        return [question]
    first = clauses[0]
    parts = [first] + [_completed(clause, first, language) for clause in clauses[1:]]
    return [" ".join([*context, _as_question(part)]) for part in parts]


def _context(text: str, language: str) -> tuple[list[str], list[str]]:
    """(the statements and lead-ins that set the scene, the sentences that ask)."""
    context: list[str] = []
    asked: list[str] = []
    opener = re.compile(rf"^(?:{_OPENERS[language]})\b", re.IGNORECASE)
    for sentence in split_sentences(text):
        lead, colon, rest = sentence.partition(": ")
        if colon and rest and not lead.endswith("?") and len(lead.split()) <= 8:
            # "Compare the character sets: which encoding …": each part asks about the character sets,
            # but compares nothing on its own
            lead = re.sub(rf"^(?:{_COMPARE[language]})\s+", "", lead, flags=re.IGNORECASE)
            context.append(lead[:1].upper() + lead[1:] + ":")
            sentence = rest
        if sentence.endswith("?") or opener.match(sentence):
            asked.append(sentence)
        elif asked:
            asked[-1] = f"{asked[-1]} {sentence}"  # a statement after the question belongs to it
        else:
            context.append(sentence)
    return (context, asked) if asked else ([], [text])


def _clauses(sentence: str, language: str) -> list[str]:
    """A sentence cut where a coordinator opens a new question ("…, and how long is …"); question words
    joined before one predicate ("When and by whom were … approved?") ask one question."""
    boundary = re.compile(rf"\s*[,;]?\s+(?:{_AND[language]})\s+(?=(?:{_OPENERS[language]})\b)", re.IGNORECASE)
    only_asking = re.compile(rf"^(?:(?:{_OPENERS[language]})\b\s*)+$", re.IGNORECASE)
    clauses: list[str] = []
    for clause in (c.strip(" ,;") for c in boundary.split(sentence) if c.strip(" ,;?")):
        if clauses and only_asking.match(clauses[-1]):
            and_word = _AND[language].split("|")[0]
            clauses[-1] = f"{clauses[-1]} {and_word} {clause[:1].lower()}{clause[1:]}"
        else:
            clauses.append(clause)
    return clauses


def _compared(clause: str, language: str) -> list[str] | None:
    """"Compare the fees of SCT and SDD" -> the fees of SCT / the fees of SDD."""
    m = re.match(rf"^(?:{_COMPARE[language]})\s+(?P<body>.+)$", clause.rstrip(" ?.!"), re.IGNORECASE)
    if m is None:
        return None
    body = m.group("body")
    pair = re.match(rf"^(?P<head>.*?\b(?:of|for|in|between|von|für|de|des|du|pour|van|voor)\s+)?(?P<a>.+?)\s+"
                    rf"(?:{_COMPARED[language]})\s+(?P<b>.+)$", body, re.IGNORECASE)
    if pair is None:
        return None
    head = pair.group("head") or ""
    return [f"{head}{pair.group('a')}", f"{head}{pair.group('b')}"]


def _documents(clause: str, language: str) -> list[str] | None:
    """"What do the ABN AMRO addendum and the QR-bill guide say about encoding?" -> one part per
    document, the rest of the question kept around each."""
    name = rf"(?:(?:the|der|die|das|le|la|les|l['’]|de|het)\s+)?(?:[\w\-]+\s+){{1,3}}?(?:{_DOCUMENT})\b"
    m = re.search(rf"(?P<a>{name})\s+(?:{_AND[language]})\s+(?P<b>{name})", clause, re.IGNORECASE)
    if m is None:
        return None
    before, after = clause[:m.start()], clause[m.end():]
    return [f"{before}{m.group('a')}{after}", f"{before}{m.group('b')}{after}"]


def _own_terms(clause: str, language: str) -> set[str]:
    words = [w for w in clause.split() if fold_accents(w).casefold().strip("?!.,;:'\"()«»") not in ASKING_WORDS]
    return {t for t in tokenize(" ".join(words), language) if not t.isdigit()}


def _leans_back(clause: str, first: str, language: str) -> bool:
    """A later clause whose pronoun stands for what the first asks about, when that cannot be named
    ("Which element carries …, and what code list does it use?"): not a question of its own."""
    if language not in _PRONOUNS or _completed(clause, first, language) != clause:
        return False
    return re.search(rf"(?<=\s)(?:{_PRONOUNS[language]}|its|their|ihre?[mnrs]?)\b", clause, re.IGNORECASE) is not None


def _substantial(clauses: list[str], language: str) -> list[str]:
    """Clauses with too little of their own ("and how often must it occur?") or that lean on the first
    part's unnamed subject joined to the one before."""
    out: list[str] = []
    for clause in clauses:
        if out and (len(_own_terms(clause, language)) < MIN_PART_TERMS or _leans_back(clause, out[0], language)):
            out[-1] = f"{out[-1].rstrip('?')}, and {clause}" if language == "en" else f"{out[-1].rstrip('?')} {clause}"
        else:
            out.append(clause)
    return out


def _subject(first: str, language: str) -> str | None:
    """The noun the first part asks about: "Which priority codes exist …" -> "priority codes"."""
    m = re.match(rf"^(?:{_DETERMINER[language]})\s+(?P<noun>(?:\S+\s+){{0,3}}?\S+?)\s+(?:{_AUXILIARY[language]})\b",
                 first, re.IGNORECASE)
    return m.group("noun") if m else None


def _completed(clause: str, first: str, language: str) -> str:
    """A later part with the first part's noun where it leaves it out or points back to it."""
    noun = _subject(first, language)
    if noun is None:
        return clause
    elided = re.match(rf"^(?P<det>{_DETERMINER[language]})\s+(?=(?:{_AUXILIARY[language]})\b)", clause, re.IGNORECASE)
    if elided is not None:
        return f"{elided.group('det')} {noun} {clause[elided.end():]}"
    if language in _PRONOUNS:
        return re.sub(rf"(?<=\s)(?:{_PRONOUNS[language]})\b", noun, clause, count=1, flags=re.IGNORECASE)
    return clause


def _as_question(part: str) -> str:
    part = part.strip(" ,;")
    part = part[:1].upper() + part[1:]
    return part if part.endswith(("?", ".", "!")) else f"{part}?"
