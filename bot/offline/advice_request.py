"""Is the question a request for advice? The assistant never gives any.

Advice here means a recommendation of what the asker (or their client) should do: invest, buy,
sell, choose, subscribe, advise someone. A question about what the rules require ("Within what
time must a payer report a lost device?") is not advice, even though it has "must" in it; what
gives advice away is the first person asking what they should do, or asking the assistant to
recommend. Patterns per language: English, Dutch, French, German.
"""

from __future__ import annotations

import re

from knowledge.word_forms import fold_accents

_ACT = {
    "en": r"(invest|buy|sell|purchase|choose|pick|subscribe|put|keep|hold|switch|open|take\s+out|go\s+for|"
          r"recommend|advise|suggest)",
    "nl": r"(beleggen|investeren|kopen|verkopen|kiezen|nemen|instappen|inschrijven|openen|houden|"
          r"aanraden|adviseren|aanbevelen)",
    "fr": r"(investir|acheter|vendre|placer|choisir|souscrire|ouvrir|garder|conserver|prendre|conseiller|"
          r"recommander)",
    "de": r"(investieren|kaufen|verkaufen|anlegen|wahlen|abschliessen|eroffnen|behalten|nehmen|empfehlen|"
          r"raten|zeichnen)",
}
_PATTERNS = [re.compile(p, re.IGNORECASE) for p in (
    # English
    r"\bshould\s+(i|we|my\s+\w+|our\s+\w+)\b.{0,60}?\b" + _ACT["en"] + r"\b",
    r"\b(would|do|can|could|will)\s+you\s+(recommend|advise|suggest)\b",
    r"\b(recommend|advise|suggest)\s+(me|us)\b",
    r"\bwhat\s+(do|would)\s+you\s+(recommend|advise|suggest)\b",
    r"\bis\s+(it|this|that)\s+(a\s+)?(good|wise|smart|sensible)\s+(idea|investment|choice|buy|product)\b",
    r"\b(worth|advisable)\s+(investing|buying|it)\b",
    r"\b(best|better)\s+(option|choice|investment|product)\s+for\s+(me|us|my|our)\b",
    # Dutch
    r"\b(moet|zou|kan|moeten|zouden)\s+(ik|we|wij)\b.{0,60}?\b" + _ACT["nl"] + r"\b",
    r"\b(raad|raadt|raden)\s+(je|u|jullie)\b.{0,60}?\baan\b",
    r"\b(wat|welk|welke)\b.{0,60}?\b(raad|raadt)\s+(je|u)\b.{0,30}?\baan\b",
    r"\b(kun|kunt|zou)\s+(je|u)\b.{0,40}?\b(aanraden|adviseren|aanbevelen)\b",
    r"\bis\s+het\s+(verstandig|slim|raadzaam|een\s+goed\s+idee)\b",
    # French
    r"\b(devrais|dois|devrions|devons|pourrais)[- ](je|nous)\b.{0,60}?\b" + _ACT["fr"] + r"\b",
    r"\b(je|nous)\s+(devrais|dois|devrions|devons)\b.{0,60}?\b" + _ACT["fr"] + r"\b",
    r"\b(me|nous)?\s*(conseillez|recommandez|conseilleriez|recommanderiez|conseilles|recommandes)[- ](vous|tu)\b",
    r"\best[- ]il\s+(judicieux|conseille|recommande|sage|interessant)\b",
    r"\bque\s+(me|nous)\s+(conseillez|recommandez)\b",
    # German
    r"\b(sollte|soll|sollten|sollen)\s+(ich|wir)\b.{0,60}?\b" + _ACT["de"] + r"\b",
    r"\b(empfehlen|raten)\s+sie\s+(mir|uns)\b",
    r"\b(wurden|konnen)\s+sie\b.{0,40}?\b(empfehlen|raten)\b",
    r"\bwas\s+(empfehlen|raten)\s+sie\b",
    r"\bist\s+es\s+(sinnvoll|ratsam|klug)\b",
    r"\blohnt\s+(es\s+)?sich\b",
)]

_REFUSAL = {
    "en": ("[not covered] I cannot give advice or recommendations on what to invest in, buy or do. "
           "I can quote what the documents state as facts, such as a product's risks, costs and terms, "
           "if you ask about those."),
    "nl": ("[not covered] Ik kan geen advies of aanbevelingen geven over beleggen, kopen of wat u moet doen. "
           "Ik kan citeren wat de documenten als feiten vermelden, zoals de risico's, kosten en voorwaarden "
           "van een product, als u daarnaar vraagt."),
    "fr": ("[not covered] Je ne peux pas donner de conseil ni de recommandation sur un placement, un achat ou "
           "une décision. Je peux citer les faits que les documents indiquent, comme les risques, les coûts et "
           "les conditions d'un produit, si vous posez la question."),
    "de": ("[not covered] Ich kann keine Beratung und keine Empfehlung zu Anlagen, Käufen oder Entscheidungen "
           "geben. Ich kann zitieren, was die Dokumente als Fakten nennen, etwa Risiken, Kosten und Bedingungen "
           "eines Produkts, wenn Sie danach fragen."),
}


def is_advice_request(question: str) -> bool:
    text = fold_accents(" ".join(question.split()))
    return any(p.search(text) for p in _PATTERNS)


def advice_refusal(language: str) -> str:
    return _REFUSAL.get(language, _REFUSAL["en"])
