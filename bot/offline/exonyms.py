"""Exonyms: names of countries and cities that change from one language to another ("Pays-Bas" = "Nederland").

A name in the question that no retrieved passage mentions usually means the rulebooks do not
cover it ("What does Visa charge?"). A place name is the exception: a French question about the
"Pays-Bas" is answered by a Dutch passage about "Nederland". Proper names of schemes, banks and
products are not translated, so only places are looked up here — the countries and cities the
corpus and its neighbours deal with, in English, Dutch, French and German.
"""

from __future__ import annotations

import re

from knowledge.word_forms import fold_accents

_EXONYMS = [
    "Netherlands|Nederland|Pays-Bas|Niederlande|Holland|Hollande",
    "Belgium|België|Belgique|Belgien",
    "Luxembourg|Luxemburg",
    "France|Frankrijk|Frankreich",
    "Germany|Duitsland|Allemagne|Deutschland",
    "Switzerland|Zwitserland|Suisse|Schweiz",
    "Austria|Oostenrijk|Autriche|Österreich",
    "Italy|Italië|Italie|Italien",
    "Spain|Spanje|Espagne|Spanien",
    "Portugal",
    "Ireland|Ierland|Irlande|Irland",
    "Denmark|Denemarken|Danemark|Dänemark",
    "Sweden|Zweden|Suède|Schweden",
    "Norway|Noorwegen|Norvège|Norwegen",
    "Finland|Finlande|Finnland",
    "Poland|Polen|Pologne",
    "Greece|Griekenland|Grèce|Griechenland",
    "United Kingdom|Verenigd Koninkrijk|Royaume-Uni|Vereinigtes Königreich|UK",
    "Europe|Europa",
    "European Union|Europese Unie|Union européenne|Europäische Union|EU|UE",
    "European Economic Area|Europese Economische Ruimte|Espace économique européen|Europäischer Wirtschaftsraum"
    "|EEA|EER|EEE|EWR",
    "Brussels|Brussel|Bruxelles|Brüssel",
    "Antwerp|Antwerpen|Anvers",
    "Ghent|Gent|Gand",
    "Liège|Luik|Lüttich",
    "The Hague|Den Haag|La Haye",
    "Cologne|Keulen|Köln",
    "Munich|München",
    "Geneva|Genève|Genf",
    "Flanders|Vlaanderen|Flandre|Flandern",
    "Wallonia|Wallonië|Wallonie",
]


def _fold(name: str) -> str:
    return fold_accents(name).casefold().strip()


_GROUP_OF: dict[str, tuple[str, ...]] = {}
for _line in _EXONYMS:
    _names = tuple(n.strip() for n in _line.split("|"))
    for _n in _names:
        _GROUP_OF[_fold(_n)] = _names


def other_forms(name: str) -> tuple[str, ...]:
    """The other spellings of a place name in the four languages ("Pays-Bas" -> "Nederland", …)."""
    forms = _GROUP_OF.get(_fold(name), ())
    return tuple(f for f in forms if _fold(f) != _fold(name))


def _mentions(folded_text: str, name: str) -> bool:
    return bool(re.search(r"(?<!\w)" + re.escape(_fold(name)) + r"(?!\w)", folded_text))


def rendering_in(name: str, folded_text: str) -> str | None:
    """How a text (accent-folded, case-folded) writes the place `name` in another language, if it
    does ("Pays-Bas" in a text about "Nederland" -> "Nederland"); None otherwise."""
    for form in other_forms(name):
        if _mentions(folded_text, form):
            return form
    return None
