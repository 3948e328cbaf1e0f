"""Which kind of value a question asks for, and whether a passage holds a value of that kind.

A question about a fee wants an amount of money ("EUR 0.25", "0.18 %", "free of charge"); one
about a deadline wants a duration or a time ("within 10 business days", "15:30 CET", "next
business day"); "how long may the reference be", "the maximum length of …" want a length ("max. 35
characters", "Max35Text", "(0-9){4}", "27 digits"); "how many …" wants a count ("[0..10]", "composed
of 10 blocks"). A passage on the
right topic that holds no value of the asked kind does not answer the question: the corpus states
no fee, no timeout, no maximum. This is the evidence-coverage signal of the offline model's
answer/refuse decision (`bot.offline.offline_model.Decision.max_dense_slot`): the best dense
similarity of a span that holds a value of the asked kind. Its bar is calibrated on dev questions
(`rulebook eval calibrate`). A text that says the value is not fixed ("differs per channel",
"depends on the agreement", "no limit") counts as holding one of every kind: that is the answer.

Kinds: "money", "duration", "length", "count"; None when the question asks for none of them (a
definition, a code, a procedure, or a number of no particular kind). A length is its own kind because
message guides state it in their own forms (a type's name "Max140Text", a pattern "{1,35}", "maxLength
35"), and a passage counting something else ("numbers from 30000 to 31999") does not answer it.
"""

from __future__ import annotations

import re

MONEY = "money"
DURATION = "duration"
LENGTH = "length"
COUNT = "count"

_TIME_UNIT = (r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|"
              r"seconden|minuten|uur|uren|dagen|dag|werkdagen|werkdag|weken|week|maanden|maand|jaar|jaren|"
              r"secondes?|heures?|jours?|semaines?|mois|ans|ann[ée]es?|"
              r"sekunden?|stunden?|tagen?|tage|werktagen?|werktage|wochen?|monaten?|monate|monat|jahren?|jahre|jahr)")
# (not "an" or "tag": the English article and an XML tag)
_NUMBER_WORD = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                r"forty|sixty|ninety|hundred|"
                r"een|één|twee|drie|vier|vijf|zes|zeven|acht|negen|tien|twaalf|vijftien|twintig|dertig|"
                r"un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|trente|"
                r"ein|eine|einen|einem|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|zwölf|fünfzehn|zwanzig|"
                r"dreißig)")

_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december|"
          r"janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|"
          r"Januar|Februar|M[äa]rz|Juni|Juli|Oktober|Dezember)")

# -- what the question asks for -------------------------------------------------------------------
_ASKS_MONEY = re.compile(
    r"\b(fees?|costs?|costing|prices?|pricing|priced|tariffs?|commissions?|surcharges?|"
    r"how\s+much\s+(\w+\s+){0,8}(cost|costs|charge|charges|charged|pay|paid|billed)|"
    # the same "how much … pay / cost / charge" in the other languages ("Combien un établissement doit-il
    # payer pour adhérer ?", "Hoeveel moeten we betalen?", "Wie viel muss die Bank zahlen?")
    r"combien\s+(\S+\s+){0,8}?(co[uû]te(nt)?|payer|paie(nt)?|pay[ée]e?s?|factur\w*)|"
    r"hoeveel\s+(\S+\s+){0,8}?(kost|kosten|betalen|betaalt|betaald|rekent|rekenen|gerekend)|"
    r"wie\s*viel\s+(\S+\s+){0,8}?(kostet|kosten|zahlen|zahlt|bezahlen|bezahlt|berechnet|verlangt)|"
    r"what\s+(does|do|will)\s+(\w+\s+){0,8}charge|charges?\s+(for|of|per)\b|"
    r"(maximum|minimum|highest|lowest|max\.?|min\.?)\s+amount|amount\s+limit|"
    # a penalty or fine asked as an amount ("What penalty does a bank pay …?", "the maximum financial penalty
    # in euro"); not a penalty regime ("What penalties can be expected if …?")
    r"(maximum|minimum|highest|max\.?)\s+(\w+\s+)?(penalty|penalties|fines?)|"
    r"(penalty|penalties|fines?)\s+(\w+\s+){0,4}?(pay|pays|paid|payable|in\s+(euros?|eur|chf|usd|gbp))\b|"
    r"(maximale|hoogste)\s+boete|amende\s+maximale|montant\s+de\s+l['’]amende|(h[öo]chst|maximal)\w*\s+(buß|buss)gel\w*|"
    r"kosten|kost|kosteloos|prijs|prijzen|tarief|tarieven|vergoeding|provisie|(maximale|minimale|hoogste)\s+bedrag|"
    r"frais|co[uû]te?s?|co[uû]tent|prix|tarifs?|montant\s+(maximal|maximum|minimal|minimum)|"
    r"geb[uü]hr(en)?|kostet|preis(e)?|entgelt(e)?|h[öo]chstbetrag|(maximale[rn]?|minimale[rn]?)\s+betrag)\b",
    re.IGNORECASE)
# "hoe lang mag de referentie zijn" asks for a length, as "how long may the reference be" does; "hoe lang moet
# de identificatie uniek zijn", "hoe lang is de termijn" for a duration
_MAY_BE_NL = r"\s+(?:mag|mogen|kan|kunnen)\s+(?:\S+\s+){0,8}?(?:zijn|wezen)\b"
# "During which hours is the tool available?": the hours of a day, asked in each language
_WHICH_HOURS = (r"(?:during|at|in|between)\s+(?:which|what)\s+hours|(?:op|tijdens|gedurende)\s+welke\s+uren|"
                r"(?:[àa]|pendant|durant)\s+quelles\s+heures|(?:zu|in|während)\s+welchen\s+(?:stunden|uhrzeiten|zeiten)")
_ASKS_DURATION = re.compile(
    r"\b(" + _WHICH_HOURS + r"|how\s+many\s+(\w+\s+){0,2}" + _TIME_UNIT + r"|how\s+(soon|quickly|fast)|"
    r"how\s+long\s+(\w+\s+){0,8}?(take|takes|last|lasts|valid|kept|keep|retain|retained|stored?|archived?|wait|"
    r"remain|stay|have|has|before|after|until)|how\s+much\s+(time|notice)|"
    r"(after|within|in)\s+how\s+(long|much\s+time)|within\s+what|by\s+when|until\s+when|what\s+time|"
    r"deadlines?|time\s*limits?|notice\s+period|time-?outs?|retention\s+period|cut-?off(\s+time)?|"
    r"hoe\s+(snel|laat)|hoe\s+lang(?!" + _MAY_BE_NL + r")|binnen\s+(hoeveel|welke)|hoeveel\s+(\w+\s+)?" + _TIME_UNIT + r"|termijn|"
    r"combien\s+d(?:e\s+|['’]\s*)(temps|" + _TIME_UNIT + r")|dans\s+quel\s+d[ée]lai|d[ée]lai|[àa]\s+quelle\s+heure|"
    r"wie\s+(lange|schnell|bald)|wie\s+viele\s+(\w+\s+)?" + _TIME_UNIT + r"|fristen|frist|"
    r"innerhalb\s+welche[rnms]?|bis\s+wann|um\s+wie\s+viel\s+uhr|"
    # a date asked ("by which date", "bis zu welchem Datum", "tot welke datum", "jusqu'à quelle date"): the
    # answer is a date, which the passages' durations include ("21 November 2025")
    r"(?:by|until|till|before|after|from|since|on|as\s+of)\s+(?:which|what)\s+(?:date|day)|(?:which|what)\s+date(?!\s+(?:format|type|element|field|tag|code))|"
    r"(?:tot|voor|vanaf|sinds|op)\s+welke\s+datum|welke\s+datum|"
    r"(?:jusqu['’]\s*[àa]|avant|[àa]\s+partir\s+de|depuis)\s+quelle\s+date|quelle\s+date(?!\s+(?:de\s+)?(?:format|type|[ée]l[ée]ment|champ))|"
    r"(?:bis|ab|seit|vor)\s+(?:zu\s+)?welche[mn]?\s+(?:datum|termin|zeitpunkt|tag)|welche[sm]?\s+datum|"
    # a period or duration asked by that word ("the maximum period between …", "quelle est la durée maximale",
    # "welche Laufzeit"); not "the tax record period", which names a code
    r"(?:maximum|minimum|max\.?|min\.?|which|what)\s+(?:time\s+)?(?:periods?|durations?)|"
    r"dur[ée]es?|(?:quelle|maximale|minimale)\s+p[ée]riode|p[ée]riode\s+(?:maximale|minimale)|"
    r"looptijd|(?:maximale|minimale)\s+(?:duur|periode)|welke\s+periode|"
    r"dauer|h[öo]chstdauer|laufzeit|(?:maximale[rn]?|minimale[rn]?|welche[nmr]?)\s+zeitraum|zeitspanne|"
    # when a thing expires, the answer is a period or a date ("36 months after the last collection")
    r"expire[sd]?|expiry|lapses?|validity\s+period|vervalt|verloopt|verlopen|expirer?|expiration|"
    r"verf[äa]llt|l[äa]uft\s+\w+\s+ab|abl[äa]uft|g[üu]ltigkeitsdauer)\b",
    re.IGNORECASE)
_LENGTH_UNIT = (r"(?:characters?|chars?|digits?|positions?|letters?|bytes?|signs?|zeichen|stellen|ziffern|tekens|"
                r"cijfers|posities|caract[èe]res|chiffres|"
                # a printed part's measure: "a 5 mm wide border", "210 mm"
                r"mm|cm|millimet(?:er|re)s?|centimet(?:er|re)s?|inch(?:es)?)")
# after the duration patterns: "how long is the mandate valid" asks for a duration, "how long may the
# reference be" for a length
_ASKS_LENGTH = re.compile(
    r"\b(how\s+long\s+(\S+\s+){0,8}?(be|is|are)\b|lengths?\b|how\s+many\s+(\w+\s+){0,2}?" + _LENGTH_UNIT + r"|"
    # "the maximum number of characters" is a length, as "how many characters" is (before the count's
    # "maximum number of")
    r"number\s+of\s+(\w+\s+)?" + _LENGTH_UNIT + r"|aantal\s+(\w+\s+)?" + _LENGTH_UNIT + r"|"
    r"nombre\s+(\w+\s+)?(de\s+|d['’]\s*)(\w+\s+)?" + _LENGTH_UNIT + r"|anzahl\s+(der\s+)?(\w+\s+)?" + _LENGTH_UNIT + r"|"
    r"hoe\s+lang" + _MAY_BE_NL + r"|lengte|hoeveel\s+(\w+\s+)?" + _LENGTH_UNIT + r"|longueur|combien\s+d(?:e\s+|['’]\s*)(\w+\s+)?" + _LENGTH_UNIT + r"|"
    r"wie\s+lang\s+(ist|sind|darf|d[üu]rfen|kann|k[öo]nnen)\b|l[äa]nge|wie\s+viele\s+(\w+\s+)?" + _LENGTH_UNIT + r"|"
    r"(?:widths?|heights?|how\s+(?:wide|high|tall)|breedte|hoogte|largeur|hauteur|breite|h[öo]he)\b)",
    re.IGNORECASE)
_ASKS_COUNT = re.compile(
    r"\b(how\s+many|(maximum|minimum|max\.?|min\.?|total|highest)\s+number\s+of|"
    r"hoeveel|(maximale|maximum|minimale)\s+aantal|combien\s+d(?:e|['’])|nombre\s+(maximal|maximum|minimal)\s+de|"
    r"wie\s+viele|(maximale|minimale|h[öo]chste)\s+anzahl)\b",
    re.IGNORECASE)


_INSTITUTION = re.compile(r"(?<=\w )Commission\b")


def asked_value(question: str) -> str | None:
    """"money", "duration", "length" or "count": the kind of value the question asks for (see the module
    docstring); None for any other question."""
    # "the Commission" (an institution, capitalised inside the sentence) charges no commission
    question = _INSTITUTION.sub(" ", question)
    if _ASKS_MONEY.search(question):
        return MONEY
    if _ASKS_DURATION.search(question):
        return DURATION
    if _ASKS_LENGTH.search(question):
        return LENGTH
    if _ASKS_COUNT.search(question):
        return COUNT
    return None


def asked_slot(question: str, fact: str | None) -> str | None:
    """The kind of value a question asks for (`asked_value`) as the evidence-coverage checks use it: a
    question asking for an identifier ("Which message …?", `span_scoring.asked_fact`) wants no amount
    or time."""
    return asked_value(question) if fact != "identifier" else None


# -- what a passage holds ------------------------------------------------------------------------
_NO_LIMIT = re.compile(
    r"\b(not\s+(fixed|limited|restricted)|no\s+(limit|limitation|maximum|minimum|restriction)s?|"
    r"unlimited|any\s+number\s+of|"
    r"geen\s+(limiet|maximum|minimum)|onbeperkt|"
    r"pas\s+de\s+(limite|maximum|minimum)|illimit[ée]e?s?|"
    r"kein(e)?\s+(limite|grenze|maximum|minimum|h[öo]chstbetrag)|"
    r"unbegrenzt|unbeschr[äa]nkt)\b",
    re.IGNORECASE)
# "differs per channel", "depends on the agreement": the answer, when it is the value that differs
# or depends ("the fee depends on …"); "depending on the result of the investigation, the case
# assignee …" says nothing about a fee, a time or a number
_VARIES = re.compile(
    r"\b(differ(s|ent)?\s+(per|by|from|between|for)|var(y|ies|ying)\s+(per|by|with|between)|depends?\s+on|"
    r"depending\s+on|verschilt\s+per|afhankelijk\s+van|d[ée]pend\s+de|varie\s+selon|"
    r"h[äa]ngt\s+von|abh[äa]ngig\s+von|unterschiedlich)\b",
    re.IGNORECASE)
_KIND_NOUNS = {
    "money": re.compile(r"\b(fees?|charges?|costs?|prices?|pricing|tariffs?|amounts?|commissions?|rates?|"
                        r"kosten|tarie[fv]e?n?|prijs|prijzen|bedrag(en)?|vergoeding(en)?|frais|prix|montants?|tarifs?|"
                        r"geb[üu]hr(en)?|preis(e)?|betr[äa]ge?|entgelt(e)?)\b", re.IGNORECASE),
    "duration": re.compile(r"\b(times?|periods?|deadlines?|delays?|days?|duration|timing|cut-?offs?|timeouts?|"
                           r"termijn(en)?|tijd|duur|d[ée]lais?|dur[ée]e|fristen|frist|dauer|zeit(en)?)\b", re.IGNORECASE),
    "count": re.compile(r"\b(numbers?|counts?|maximum|minimum|aantal|nombre|anzahl|occurrences?)\b", re.IGNORECASE),
    "length": re.compile(r"\b(lengths?|lengte|longueur|l[äa]nge)\b", re.IGNORECASE),
}
_CLOCK_NOUNS = re.compile(r"\b(times?|cut-?offs?|hours?|tijdstip|uur|heures?|uhrzeit(en)?|zeiten)\b", re.IGNORECASE)
# a length as message guides and implementation guides write it: "35 characters", "27-digit", "26
# numerical characters", a type
# named by its length ("Max35Text", "Exact4AlphaNumericText", "Max10KBinary"), "maxLength 35",
# "totalDigits 18", a pattern's repetition ("(0-9){4}", "[A-Z]{2,2}"), "length: 21"
_LENGTH = re.compile(
    r"\b\d+\s*(?:-\s*)?(?:(?!(?:of|the|de|van|der|die|des)\b)[^\W\d]+\s+){0,2}?" + _LENGTH_UNIT + r"\b|\b(?:max|min|exact)\d+k?[a-z]*|"
    r"\b(?:max(?:imum)?|min(?:imum)?|total|fraction)\s*[-_]?\s*(?:length|digits|len)\s*[:=]?\s*\d+|"
    r"\b(?:lengths?|lengte|longueur|l[äa]nge)\s*(?:of\s+|van\s+|de\s+|von\s+)?[:=]?\s*(?:max\.?\s*|up\s+to\s+)?\d+|"
    r"\{\d+(?:,\d*)?\}",
    re.IGNORECASE)
# a code written against its amount counts too ("USD15,000", as regulations often print it)
_CURRENCY = r"(?:\b(?:EUR|CHF|USD|GBP|JPY|SEK|DKK|NOK|PLN|CZK|HUF|AED)(?:\b|(?=\d))|[€$£]|\bFr\.|\bSFr\.?)"
_MONEY = re.compile(
    _CURRENCY + r"\s?\d|\d[\d.,'’]*\s?(?:" + _CURRENCY + r"|\beuros?\b|\bfrancs?\b|\bcents?\b)|"
    r"\d\s?(?:%|percent\b|per\s?cent\b|procent\b|pour\s?cent\b|prozent\b)|"
    r"\b\d{1,3}(?:[,'’]\d{3})+[.,]\d{2}\b|"
    r"\b(free\s+of\s+charge|no\s+(fees?|charges?|costs?)|without\s+(charge|cost|fee)s?|at\s+no\s+(cost|charge)|"
    r"charged?\s+nothing|gratis|kosteloos|kostenloos|zonder\s+kosten|kostenlos|kostenfrei|geb[uü]hrenfrei|"
    r"unentgeltlich|gratuit(e|ement)?|sans\s+frais)\b",
    re.IGNORECASE)
# a calendar date ("29 September 2020", "June 3, 2030", "2030-06-03"): it answers "by which date", not "how
# many days"
_DATE = (r"\b\d{1,2}\.?\s+" + _MONTH + r"\s+\d{4}\b|\b" + _MONTH + r"\s+\d{1,2},?\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}\b")
_CALENDAR_DATE = re.compile(_DATE, re.IGNORECASE)
_DURATION = re.compile(
    r"(?<![\w.])(?:\d+(?:[.,]\d+)?|" + _NUMBER_WORD + r")(?:\s*[-–]\s*\d+)?\s*(?:\(\d+\)\s*)?(?:[\w-]+\s+){0,3}?"
    + _TIME_UNIT + r"\b|"
    r"\b\d{1,2}[:h]\d{2}\b|\b\d{1,2}[.:]\d{2}\s*(?:CET|CEST|UTC|GMT|uur|Uhr|h)\b|"
    + _DATE + r"|"
    r"\b(immediately|without\s+(undue\s+)?delay|same\s+(business\s+)?day|next\s+(business\s+|working\s+)?day|"
    r"real[- ]time|instantly|(end|close)\s+of\s+(the\s+)?(\w+\s+){0,3}day|[DT]\s?[+-]\s?\d+|"
    r"onmiddellijk|direct|onverwijld|dezelfde\s+dag|volgende\s+werkdag|"
    r"imm[ée]diatement|sans\s+d[ée]lai|le\s+jour\s+m[êe]me|"
    r"sofort|unverz[üu]glich|am\s+selben\s+tag|n[äa]chsten\s+(bank)?arbeitstag)\b",
    re.IGNORECASE)
_INSTANT = re.compile(r"immediately|without\s+(undue\s+)?delay|real[- ]time|instantly|onmiddellijk|direct|onverwijld|"
                      r"imm[ée]diatement|sans\s+d[ée]lai|sofort|unverz[üu]glich", re.IGNORECASE)
_MULTIPLICITY = re.compile(r"\[\s*\d+\s*\.\.\s*(?:\d+|\*|n)\s*\]|\(\s*\d+\s*\.\.\s*(?:\d+|\*|n)\s*\)|\bMax\d+",
                           re.IGNORECASE)
# a number that counts something: an integer that is not part of a dotted number (a version, a
# section, a message id), a year, a page or section reference, an amount of time or money
_INTEGER = re.compile(r"(?<![\w.,/:'’])\d+(?![\w.,/:'’]*\d)(?!\s*(?:%|" + _TIME_UNIT + r"\b))")
_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:version|versie|release|v|section|sectie|page|pagina|p|chapter|hoofdstuk|chapitre|kapitel|annex|bijlage|"
    r"annexe|anhang|article|artikel|art|rule|regel|code|no|nr|n°|table|tabel|tableau|tabelle|figure|fig|"
    r"step|stap)|(?-i:\b[A-Z]{1,4}))[\s.:-]*$", re.IGNORECASE)
_COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                "twenty", "single", "both", "twee", "drie", "vier", "vijf", "deux", "trois", "quatre", "cinq", "zwei",
                "drei", "fünf")
# spelled in lower case (or capitalised at a sentence start): "SIX Interbank Clearing" names a company
_COUNT_WORD = re.compile(r"\b(?:" + "|".join(f"[{w[0]}{w[0].upper()}]{w[1:]}" for w in _COUNT_WORDS) + r")\s+"
                         r"(?!(?i:" + _TIME_UNIT + r")\b)[^\W\d]")


# a page's own number, "Seite 12 von 14", "page 3 of 10": it counts the pages it stands on
_PAGE_OF = re.compile(r"\b(?:page|seite|pagina|p\.)\s*\d+\s*(?:of|von|van|sur|de|/)\s*\d+\b", re.IGNORECASE)


def _counts(text: str) -> bool:
    if _MULTIPLICITY.search(text) or _COUNT_WORD.search(text):
        return True
    # a page's own number and a calendar date's day ("21 November 2025") count nothing
    text = _CALENDAR_DATE.sub(" ", _PAGE_OF.sub(" ", text))
    for m in _INTEGER.finditer(text):
        number = m.group(0)
        if len(number) == 4 and number[:2] in ("19", "20"):
            continue  # a year
        if _REFERENCE_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        if re.match(r"\s?" + _CURRENCY, text[m.end():m.end() + 5]) or re.search(_CURRENCY + r"\s?$",
                                                                                  text[max(0, m.start() - 5):m.start()]):
            continue
        return True
    return False


_UNIT_FAMILIES = {
    "second": ("second", "sec", "seconde", "sekunde"), "minute": ("minute", "min", "minuut", "minuten"),
    "hour": ("hour", "hr", "uur", "uren", "heure", "stunde"), "day": ("day", "dag", "werkdag", "jour", "tag", "werktag"),
    "week": ("week", "weken", "semaine", "woche"), "month": ("month", "maand", "mois", "monat"),
    "year": ("year", "jaar", "jaren", "an", "année", "annee", "jahr"),
}
_ASKED_UNIT = re.compile(r"\b(?:how\s+many|hoeveel|combien\s+de|wie\s+viele)\s+(?:\w+\s+){0,2}?(" + _TIME_UNIT + r")\b",
                         re.IGNORECASE)
CLOCK = "clock"
# a time of day: "at what time", "the cut-off time", "hoe laat", "à quelle heure", "um wie viel Uhr"
# ("within what time" asks for a period, and stays a duration)
_ASKS_CLOCK = re.compile(
    r"\b((?:at|by|until|till|from)\s+what\s+times?|what\s+time\s+of\s+(?:the\s+)?day|"
    r"(?<!within\s)(?<!in\s)what\s+times?\s+(?:does|do|is|are|will|must|should|can|may)\b|cut-?off\s+times?|closing\s+times?|"
    r"opening\s+(?:hours|times?)|hoe\s+laat|welk\s+tijdstip|sluitingstijd(?:en)?|openingstijd(?:en)?|"
    r"[àa]\s+quelle\s+heure|heures?\s+(?:limite|de\s+cl[ôo]ture|d'ouverture)|"
    r"um\s+wie\s+viel\s+uhr|uhrzeit(?:en)?|annahmeschluss|[öo]ffnungszeit(?:en)?|" + _WHICH_HOURS + r")\b",
    re.IGNORECASE)
# a time of day as rulebooks print it: "15:30", "08h00", "16.00 CET", "4 p.m.", "noon", "end of day"
_CLOCK = re.compile(
    r"\b\d{1,2}[:h]\d{2}\b|\b\d{1,2}[.:]\d{2}\s*(?:CET|CEST|UTC|GMT|uur|Uhr|h)\b|"
    r"\b\d{1,2}\s*(?:[ap]\.\s?m\.|[ap]m\b|uur\b|Uhr\b|o'clock\b|heures?\b)|"
    r"\b(?:noon|midday|midnight|middag|middernacht|midi|minuit|mittags?|mitternacht)\b|"
    r"\b(?:end|close)\s+of\s+(?:the\s+)?(?:\w+\s+){0,2}day\b",
    re.IGNORECASE)


def _family(unit: str) -> str | None:
    unit = unit.casefold()
    for family, stems in _UNIT_FAMILIES.items():
        if any(unit == s or (unit.startswith(s) and len(s) >= 3) for s in stems):
            return family
    return None


def asked_unit(question: str) -> str | None:
    """The unit a duration question counts in ("how many business days" -> "day"), `CLOCK` for one
    asking a time of day ("At what time is the cut-off?"), or None."""
    m = _ASKED_UNIT.search(question)
    if m:
        return _family(m.group(1))
    return CLOCK if _ASKS_CLOCK.search(question) else None


def holds_value(text: str, kind: str | None, unit: str | None = None) -> bool:
    """Does the text hold a value of this kind (see the module docstring)? Always False for None.
    A duration asked in a unit (`asked_unit`: "how many days") needs one on the same scale: days,
    weeks, months and years answer it ("within two weeks"), seconds to hours do not, and the other
    way round; one asked in years needs months or years ("18 months"), not "the next business day", and
    one asked in days or weeks no years;
    a time of day or "immediately" answers either. A question asking a time of day
    (`CLOCK`) needs one: a period ("within one business day") does not say when."""
    if kind is None:
        return False
    clock = kind == DURATION and unit == CLOCK
    nouns = _CLOCK_NOUNS if clock else _KIND_NOUNS[kind]
    # "differs", "depends" about a value of this kind: in the same line, since an answer is many quotes
    # and the period that "depends on the reason" in one says nothing of another's cut-off time
    if _NO_LIMIT.search(text) or any(_VARIES.search(line) and nouns.search(line) for line in text.splitlines()):
        return True
    if kind == MONEY:
        return bool(_MONEY.search(text))
    if clock:
        return bool(_CLOCK.search(text))
    if kind == DURATION:
        matches = [m.group(0) for m in _DURATION.finditer(text)]
        if unit is None:
            return bool(matches)
        wanted_short = unit in ("second", "minute", "hour")
        for found in matches:
            units = re.findall(_TIME_UNIT, found, re.IGNORECASE)
            family = _family(units[-1]) if units else None
            if family is None and (_INSTANT.fullmatch(found.strip()) or _CALENDAR_DATE.fullmatch(found.strip())):
                continue  # "immediately" or "29 September 2020" says when, not how many days or hours
            if family is None:
                return True
            if unit == "year" and family not in ("month", "year"):
                continue  # "the next business day", "within 60 days" say nothing of how many years
            if unit in ("day", "week") and family == "year":
                continue  # nor "kept for 10 years" of how many days or weeks
            if (family in ("second", "minute", "hour")) == wanted_short:
                return True
        return False
    if kind == LENGTH:
        return bool(_LENGTH.search(text))
    if kind == COUNT:
        return _counts(text)
    return False
