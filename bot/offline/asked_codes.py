"""A question asking which codes a set holds wants codes, as one asking a fee wants an amount.

"Which status reason codes can an RTP directory provider use when it rejects a creditor enrolment, and
what do they mean?" is answered by the code list of that set (its rows: "RJCT | Rejected | …") or by a
text that names the codes. Quotes about the element that carries the code ("Reason: Specifies the reason
for the status, in a coded form") name the set but none of its codes: the corpus does not list them
(an external code list, published elsewhere). So an answer to a question asking for the codes of a set
must state some: a table whose header names a code column, a list of codes by name ("Codes are: Wrong
amount • Duplicate sending"), or two codes in its text. Like the value
kinds (`asked_value`), this is checked on the answer as composed, and only by the offline model's
`require_value_quoted`.

A single code asked about ("What does MS03 mean?") is not this question: its name must be found
(`_names_missing`), and its row defines it (`span_scoring`).
"""

from __future__ import annotations

import re

_ASKS_CODES = re.compile(
    r"^\W*(?:[\w'’-]+\s+){0,2}?(?:"
    r"(?:which|what)\s+(?:[\w-]+\s+){0,4}?(?:codes|code\s+values)\b|"
    r"\b(?:list|name|give)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,3}?codes\b|"
    r"\bwelke\s+(?:[\w-]+\s+){0,3}?codes\b|\bquels\s+(?:[\w-]+\s+){0,3}?codes\b|"
    r"\bwelche[rsnm]?\s+(?:[\w-]+\s+){0,3}?codes\b)",
    re.IGNORECASE)
# a code of a code list: four capitals or digits, starting with a capital ("RJCT", "AC01", "MS03", "HIGH")
_CODE = re.compile(r"(?<![\w/-])[A-Z][A-Z0-9]{3}(?![\w/-])")
# a table rendered in the answer whose header names a code column ("| CodeName | Name | Definition |")
_CODE_HEADER = re.compile(r"^\|(?:[^\n|]*\|)*?[^\n|]*\bcode\w*[^\n|]*\|[^\n]*\n\|\s*-{3}", re.IGNORECASE | re.MULTILINE)
# a text that lists codes by their names, as the EPC rulebooks' attribute records do ("Value range: Codes are:
# Wrong amount • Duplicate sending", "the following reason codes")
_CODES_LISTED = re.compile(
    r"\bcodes?\s*(?:are|is|zijn|sont|est|sind|ist)?\s*:\s*\w|\b(?:the\s+following|de\s+volgende|les\s+\w+\s+suivants|"
    r"folgende)\s+(?:[\w-]+\s+){0,2}?codes\b|\bcode\s+values?\s*:\s*\w", re.IGNORECASE)
MIN_CODES = 2  # codes a text names to list some: one is a value it mentions


def asks_for_codes(question: str) -> bool:
    """Does the question ask, first of all, which codes a set holds (plural: "Which … codes", "Welke … codes")?
    A later part asking for codes ("Which numbers …, and which country codes …?") leaves the answer to
    its first part be."""
    return bool(_ASKS_CODES.search(question))


def states_codes(text: str) -> bool:
    """Does an answer's text state codes: a code-list table, a list of codes by name, or at least MIN_CODES
    distinct codes?"""
    return bool(_CODE_HEADER.search(text) or _CODES_LISTED.search(text)) or len(set(_CODE.findall(text))) >= MIN_CODES
