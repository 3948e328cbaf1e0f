"""What counts as the same word across the corpus' languages: accents folded, and each language's
function (stop) words. Shared by the BM25 encoder, language identification, the citation gate's
claims and refusals, the offline model's span scoring and the section rerank."""

from __future__ import annotations

import unicodedata


def fold_accents(text: str) -> str:
    """"rémunération" -> "remuneration": compatibility-decomposed, combining marks dropped."""
    if text.isascii():  # no ASCII character decomposes or combines: most text, at C speed
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# Kept short on purpose: only function words, never domain words ("payment", "fee").
_STOP_WORDS = {
    "en": """a an and are as at be been being but by can could did do does for from had has have
        how i if in into is it its may might must no not of on or our shall should so such than
        that the their them then there these they this those to up us was we were what when where
        which who whom why will with would you your""",
    "nl": """aan al als bij dan dat de der des deze die dit door drie een eens en er ge geen
        haar had heb hebben heeft hem het hier hij hoe hun ik in is je kan kon maar me men met
        mij mijn moet na naar niet niets nog nu of om omdat ons ook op over te tot u uit van
        veel voor want waren was wat we wel werd wie wij wordt worden zal ze zich zij zijn zo
        zou""",
    "fr": """a au aux avec ce ces cet cette d dans de des du elle elles en est et etre eu il
        ils je l la le les leur leurs lui m ma mais me meme mes moi mon n ne nos notre nous on
        ont ou par pas pour qu que qui s sa sans se ses son sont sur t ta te tes toi ton tu un
        une vos votre vous y""",
    "de": """aber als am an auch auf aus bei bin bis bist da damit dann das dass dem den der
        des die dies diese dieser dieses doch dort du durch ein eine einem einen einer eines er
        es fur hat hatte ich ihr ihre im in ist ja jede jedem jeden jeder kann kein keine mit
        muss nach nicht noch nur ob oder sich sie sind so uber um und uns unter vom von vor war
        waren was weil wenn wer wie wir wird wo zu zum zur""",
}
STOP_WORDS: dict[str, frozenset[str]] = {lang: frozenset(words.split())
                                         for lang, words in _STOP_WORDS.items()}

# Words that frame a question rather than say what it is about ("can you provide specific
# examples of ...", "pourriez-vous préciser ...", "kunt u uitleggen ..."): requests to the
# reader, not content. Accents folded, lower case. Only the BM25 query leaves them out
# (`knowledge.bm25.query_index_terms`); documents keep every word. Kept to words that, in a
# question, almost never carry its topic: never "information", "code", "rule" or "limit".
_QUESTION_FRAME_WORDS = {
    "en": """provide specific specifically particular particularly clarify elaborate explain
        describe outline specify detail details example examples please kindly tell know
        regarding concerning context could would like help understand""",
    "nl": """geef geven graag alsjeblieft alstublieft specifiek specifieke voorbeeld voorbeelden
        kunt kun zou zouden verduidelijken verduidelijk toelichten toelichting uitleggen leg
        beschrijf beschrijven welke""",
    "fr": """pouvez pourriez peux pourrais expliquer expliquez preciser precisez decrire decrivez
        exemple exemples specifique specifiques particulier particuliere svp merci quel quelle
        quels quelles comment""",
    "de": """bitte erklaren erklare erlautern erlautere beschreiben beschreibe konnen konnten
        konnen beispiel beispiele spezifisch spezifische genau welche welcher welches welchen""",
}
QUESTION_FRAME_WORDS: dict[str, frozenset[str]] = {lang: frozenset(words.split())
                                                   for lang, words in _QUESTION_FRAME_WORDS.items()}
