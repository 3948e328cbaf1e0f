"""A question that names two documents is answered from both.

"When were the Exceptions and Investigations 2019-2020 and the Request To Pay message definitions
approved?" names two reports; "How can you tell a QR-IBAN from a normal IBAN, and how long is the
IBAN on a QR-bill?" the SIX QR-IID guide and the QR-bill guide. The best spans of such a question
often all come from one of them (the one whose wording is closest), and the answer then says
nothing of the other, which reads as if that document were silent. So, once the quotes are chosen,
each document the question names that no quote comes from gets its own best span, when that span
is close enough to the best one (`offline_model.FOLLOWED_MARGIN`, as a followed cross-reference's:
on dev, a margin twice as wide adds nothing more) and to the question (the answer's own bars).

What names a document, on purpose narrow:
- a NAME in the question is a run of words that each carry a capital past the first letter or a
  digit ("ABN AMRO", "QR-IBAN", "E&I", "2019-2020"), or a capital anywhere but at a sentence's
  start ("Request To Pay"), never in camel case ("TotalAmount" is an element), with "and", "of",
  "for", "to" or "&" allowed between two of them; it must hold two such words, an acronym, code
  or number beside a word, or be a language ("English"): one capitalised word ("Tax",
  "Switzerland") or a number alone ("1.0") is on many a title page and tells no document;
- it names the rulebooks shown whose title page holds every word of it
  (`named_documents.DocumentTitle.holds`: stems, joined names, acronyms of title words), or, when
  none holds it whole, each of the names its "and" joins ("the English and German versions"),
  unless it names every rulebook shown (then it tells none apart): a SLOT of one rulebook or
  several (the English and German versions of a guide share their names; a quote from either
  covers the slot);
- a question names two documents when two of its slots share no rulebook.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from bot.offline.named_documents import LANGUAGE_WORDS, DocumentTitle, shown_titles

__all__ = ["named_slots", "uncovered_slots"]

_WORD = re.compile(r"[\w&.\-’']+")
_JOINING = {"and", "of", "for", "to", "&"}
_SENTENCE_END = re.compile(r"[.?!:]\s*$")
_CAMEL_CASE = re.compile(r"[a-z][A-Z]")
# the language a document is written in names it ("the English and German versions"), as for a title
_LANGUAGE = re.compile("|".join(w for names in LANGUAGE_WORDS.values() for w in names.split()), re.IGNORECASE)


def _name_runs(question: str) -> list[tuple[str, ...]]:
    """The runs of name words in the question (see the module docstring)."""
    runs: list[tuple[str, ...]] = []
    current: list[str] = []
    pending: list[str] = []  # joining words waiting for a name word after them
    previous_end = 0
    for m in _WORD.finditer(question):
        word = m.group(0).strip(".’'")
        starts_sentence = previous_end == 0 or _SENTENCE_END.search(question[:m.start()]) is not None
        previous_end = m.end()
        capitalised = word[:1].isupper() and not starts_sentence
        # a word in camel case ("TotalAmount", "RequestToPay") names an element or a message, not a document
        if word and (_acronym_or_code(word) or capitalised) and not _CAMEL_CASE.search(word):
            current += [*pending, word] if current else [word]
            pending = []
        elif current and word.casefold() in _JOINING:
            pending.append(word)
        else:
            if current:
                runs.append(tuple(current))
            current, pending = [], []
        gap = question[m.end():m.end() + 2]
        if current and re.match(r"\s*[,;:?!()]", gap):
            runs.append(tuple(current))
            current, pending = [], []
    if current:
        runs.append(tuple(current))
    return runs


def named_slots(question: str, rulebook_ids: Iterable[str], titles: Mapping[str, DocumentTitle | None]
                ) -> list[frozenset[str]]:
    """The documents the question names among these rulebooks, each as the set of rulebooks its name fits
    (see the module docstring); empty when a rulebook's title page is unknown."""
    shown = shown_titles(rulebook_ids, titles)
    if len(shown) < 2:
        return []
    slots: list[frozenset[str]] = []
    for run in _name_runs(question):
        for name in _names(run, shown):
            if not _names_a_document(name):
                continue
            fits = frozenset(r for r, title in shown.items() if title.holds(name))
            if fits and len(fits) < len(shown) and fits not in slots:
                slots.append(fits)
    return slots


def _names_a_document(name: tuple[str, ...]) -> bool:
    """A name can tell a document: an acronym, code or number in it, two capitalised words, or a language
    (a title page holds many single words: "Tax", "Date", "Switzerland")."""
    words = [w for w in name if w.casefold() not in _JOINING]
    if not any(ch.isalpha() for w in words for ch in w):
        return False  # a number alone ("1.0", "2.111") is a version or a field, on many a title page
    return len(words) >= 2 or any(_LANGUAGE.fullmatch(w) or _acronym_or_code(w) for w in words)


def _acronym_or_code(word: str) -> bool:
    """A capital past the first letter or a digit: "ABN", "QR-IBAN", "E&I", "2019-2020"."""
    return any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() for ch in word)


def _names(run: tuple[str, ...], shown: Mapping[str, DocumentTitle]) -> list[tuple[str, ...]]:
    """The run as one name when a title holds it whole ("Exceptions and Investigations"), else the names
    its "and" joins ("English and German", "QR-IBANs and IBANs")."""
    if "and" not in run or any(title.holds(run) for title in shown.values()):
        return [run]
    names: list[tuple[str, ...]] = [()]
    for word in run:
        if word == "and":
            names.append(())
        else:
            names[-1] += (word,)
    return [name for name in names if name]


def uncovered_slots(question: str, quoted: Sequence[str], rulebook_ids: Iterable[str],
                    titles: Mapping[str, DocumentTitle | None]) -> list[frozenset[str]]:
    """The named documents no quote comes from (`quoted`: the quotes' rulebook ids), when the question
    names two documents (two slots sharing no rulebook); else none."""
    slots = named_slots(question, rulebook_ids, titles)
    if not any(a.isdisjoint(b) for i, a in enumerate(slots) for b in slots[i + 1:]):
        return []
    held = set(quoted)
    # a slot inside another ("QR-IBAN" in the SIX guide, "SIX QR-IID" in its English version) is covered
    # with it: only the smallest slots are asked for
    smallest = [s for s in slots if not any(o < s for o in slots)]
    return [s for s in smallest if held.isdisjoint(s)]
