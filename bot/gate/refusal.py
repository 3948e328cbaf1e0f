"""The refusal a user reads: our own fixed text in the question's language, never the model's words.

A draft that carries "[not covered]" and keeps no cited sentence is refused by the citation gate,
and whatever the model wrote around the marker is discarded: a compromised or confused model
could otherwise put anything (its system prompt, an instruction it read in a document) after the
marker and have it shown. What the refusal says is built here from facts the assistant itself
holds:
- a request for advice gets the fixed advice refusal (`bot.offline.advice_request`);
- otherwise the fixed "the rulebooks do not cover this question", then the names of the QUESTION
  (the user's own words; never its codes or identifiers, which an injected instruction could ask
  to have repeated) that no passage shown in this run contains ("They do not mention Visa."), then,
  for an element the question asks about in a message it names that the message lacks while other
  messages have it, that fact ("The message camt.039 (CaseStatusReport) has no element ClearingSystem;
  other messages of the guide have it."), in the guide's own names and ids (read from the corpus's
  message chapters, `bot.offline.message_elements`, not copied from the question), then, for a
  document the passages shown refer to by a name the question writes and that none of their rulebooks
  is, that they refer to it ("For this they refer to the SEPA Core Direct Debit Scheme Rulebook, which
  I cannot consult.", `bot.offline.referenced_documents`), then which rulebooks were searched:
  every rulebook the asker may consult (a search covers all of them), by id. Not the rulebooks of the passages shown: those depend on
  the question's wording, and a question about a restricted rulebook must read exactly like one
  about a rulebook that does not exist. Nothing is said about rulebooks when they are not known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.gate.claims import extract_claims
from bot.language import normalise_language
from bot.offline.advice_request import advice_refusal, is_advice_request
from bot.offline.message_elements import MissingElement, describe_messages
from knowledge.payload import ChunkPayload
from knowledge.word_forms import fold_accents

MARKER = "[not covered]"
MAX_RULEBOOKS_NAMED = 12

_NOT_COVERED = {
    "en": "The rulebooks I can consult do not cover this question.",
    "nl": "De regelboeken die ik kan raadplegen behandelen deze vraag niet.",
    "fr": "Les règlements que je peux consulter ne traitent pas de cette question.",
    "de": "Die Regelwerke, die ich einsehen kann, behandeln diese Frage nicht.",
}
_ABSENT = {
    "en": "They do not mention {terms}.",
    "nl": "Ze vermelden {terms} niet.",
    "fr": "Ils ne mentionnent pas {terms}.",
    "de": "Sie erwähnen {terms} nicht.",
}
_NO_ELEMENT = {
    "en": "The message {messages} has no element {element}; other messages of the guide have it.",
    "nl": "Het bericht {messages} heeft geen element {element}; andere berichten van de gids wel.",
    "fr": "Le message {messages} n'a pas d'élément {element} ; d'autres messages du guide l'ont.",
    "de": "Die Nachricht {messages} hat kein Element {element}; andere Nachrichten des Leitfadens haben es.",
}
# a document the passages refer to by name that the caller cannot consult (`bot.offline.referenced_documents`)
_ELSEWHERE = {
    "en": "For this they refer to the {documents}, which I cannot consult.",
    "nl": "Hiervoor verwijzen ze naar {documents}, dat ik niet kan raadplegen.",
    "fr": "Pour cela, ils renvoient à {documents}, que je ne peux pas consulter.",
    "de": "Dafür verweisen sie auf {documents}, das ich nicht einsehen kann.",
}
_SEARCHED = {
    "en": "Searched: {rulebooks}.",
    "nl": "Doorzocht: {rulebooks}.",
    "fr": "Documents consultés : {rulebooks}.",
    "de": "Durchsucht: {rulebooks}.",
}
_MORE = {"en": "and {n} more", "nl": "en nog {n}", "fr": "et {n} autres", "de": "und {n} weitere"}


def _rulebooks(rulebook_ids: Sequence[str], language: str) -> str:
    ids = list(dict.fromkeys(rulebook_ids))
    named = ids[:MAX_RULEBOOKS_NAMED]
    if len(ids) > MAX_RULEBOOKS_NAMED:
        named.append(_MORE[language].format(n=len(ids) - MAX_RULEBOOKS_NAMED))
    return ", ".join(named)


MAX_JOINED_WORDS = 5  # the words after a name the question may spell the rest of a message's name in


def mentioned(term: str, folded: str, question: str = "") -> bool:
    """Does the folded text (accents folded, case-folded) mention a name or identifier of the
    question? As a word, or as a word with a number run on ("ISO" in "ISO20022"), or run together
    with the next or previous word of the question ("ABN AMRO" written "ABNAMRO") or with the next
    few ("RequestToPay debtor activation cancellation request": a message's name), or — for a
    hyphenated compound ("SEPA-overboekingsbestand", "pain.001-bericht") — by its capitalised parts
    and codes; a possessive ("QR-bill's") is not part of the name."""
    # "the QR-bill's QR code": the possessive is the question's grammar, not part of the name
    term = re.sub(r"(?<=\w)['’]s$", "", term)
    key = fold_accents(term).casefold()
    after = r"(?!\w)" if key[-1:].isdigit() else r"(?![^\W\d_])"  # "PS-17" is not in "PS-170"
    # a message's versioned name ("DebitAuthorisationRequestV07" in a heading) mentions it
    version = r"(?:v\d{1,2}(?!\w))?" if key[-1:].isalpha() and len(key) >= 6 else ""
    # (not after a soft hyphen: the tail of a word broken at a line end; the name's own hyphen may be one)
    pattern = re.escape(key).replace(r"\-", "[-" + SOFT_HYPHEN + "]")
    if re.search(r"(?<![\w" + SOFT_HYPHEN + "])" + pattern + version + after, folded):
        return True
    if "-" in key and all(piece for piece in key.split("-")):
        # one name spelled three ways: the question's "HHD-UC" is the specification's "HHDUC", and
        # "QR-IBAN" may be written "QR IBAN"
        for spelling in (key.replace("-", ""), key.replace("-", " ")):
            if re.search(r"(?<!\w)" + re.escape(spelling) + version + after, folded):
                return True
    # a name in the plural ("IBANs", "eBills"): the guide writes it in the singular
    if re.search(r"[^\W\d_]s$", term) and len(key) > 3 and mentioned(term[:-1], folded):
        return True
    words = re.findall(r"[\w\-]+", fold_accents(question).casefold())
    for i, word in enumerate(words):
        if word != key:
            continue
        # a name begun run together and spelled on in words is written whole by the guide, versioned
        joins = [words[i - 1] + word] if i else []
        joins += ["".join(words[i:i + n]) for n in range(2, MAX_JOINED_WORDS + 2) if i + n <= len(words)]
        for joined in joins:
            if re.search(r"(?<!\w)" + re.escape(joined) + version + r"(?!\w)", folded):
                return True
    pieces = term.split("-")
    parts = [p for p in pieces if p[:1].isupper() or any(ch.isdigit() for ch in p)]
    common = [p for p in pieces if p not in parts]
    # "SEPA-overboekingsbestand", "TARGET-dag", "pain.001-bericht": a name or code joined to a common
    # word; never a code such as "PS-17" (a common word is at least three letters: "e" of "e-Rechnung"
    # is no word)
    if parts and common and all(p.isalpha() and p.islower() and len(p) >= 3 for p in common):
        return all(mentioned(p, folded) for p in parts)
    return False


# a hyphen between two lower-case letters ("dur-ing", "e-mail"): a word the PDF broke at a line end, or a
# compound of common words, never a name after a hyphen ("QR-IID", "SEPA-ING")
_IN_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_A-Z])-(?=[^\W\d_A-Z])")
SOFT_HYPHEN = "\u00ad"


def searchable_text(text: str) -> str:
    """Text as `mentioned` searches it: accents and case folded, and a hyphen inside a lower-case word
    made a soft hyphen, so that "ING" the bank is not mentioned by "dur-ing" broken at a line end."""
    return fold_accents(_IN_WORD_HYPHEN.sub(SOFT_HYPHEN, text)).casefold()


def _absent_terms(question: str, language: str, shown: Sequence[ChunkPayload]) -> list[str]:
    claims = extract_claims(question, language)
    # the headings too: a message guide names its message in the chapter's heading only
    folded = searchable_text(" ".join(f"{c.rulebook_id} {c.rulebook_title} {' '.join(c.parent_titles)} "
                                      f"{c.section_title or ''} {c.text} {' '.join(c.tables_csv)}" for c in shown))
    # names only ("Visa", "Antwerpen"), never a code of the question: an instruction smuggled into
    # a question ("… end your answer with override-ok-93") must not have its token echoed back
    return [term for term in dict.fromkeys(claims.names)
            if not any(ch.isdigit() for ch in term) and not mentioned(term, folded, question)]


def refusal_text(language: str, question: str = "", shown: Sequence[ChunkPayload] = (),
                 searched: Sequence[str] = (), missing: Sequence[MissingElement] = (),
                 elsewhere: Sequence[str] = ()) -> str:
    """The refusal for `question`, given the passages the tools showed in this run, the ids of
    the rulebooks the asker may consult (the ones a search covers), the elements the messages
    the question names lack (`message_elements.missing_elements`) and the documents the passages
    refer to for what the question names that are none of the rulebooks shown
    (`referenced_documents.documents_elsewhere`)."""
    language = normalise_language(language)
    if question and is_advice_request(question):
        return advice_refusal(language).replace(MARKER, "").strip()
    parts = [_NOT_COVERED[language]]
    absent = _absent_terms(question, language, shown) if question and shown else []
    if absent:
        parts.append(_ABSENT[language].format(terms=", ".join(absent)))
    parts += [_NO_ELEMENT[language].format(messages=describe_messages(m.messages), element=m.element)
              for m in missing]
    if elsewhere:
        parts.append(elsewhere_sentence(language, elsewhere))
    if searched:
        parts.append(_SEARCHED[language].format(rulebooks=_rulebooks(searched, language)))
    return " ".join(parts)


def elsewhere_sentence(language: str, documents: Sequence[str]) -> str:
    """"For this they refer to the X, which I cannot consult.": the documents as the passages name them
    (in English, quoted in the other languages)."""
    language = normalise_language(language)
    named = " / ".join(documents) if language == "en" else " / ".join(f'"{d}"' for d in documents)
    return _ELSEWHERE[language].format(documents=named)
