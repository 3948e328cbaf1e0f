"""Calibrate the offline model's answer/refuse decision by a sweep on dev questions only.

Input: reports of `rulebook eval answering --calibration` (ObliQA, normal and exclusion views),
`rulebook eval exclusion --calibration` (golden sets, expected rulebooks hidden) and `rulebook eval
e2e --calibration` (the golden sets as asked: paraphrases, cross-language questions and the
unanswerable-but-on-topic ones among them), run with the model's thresholds at 0 so that every
question without an absent name was answered and its signals recorded (`bot.offline.offline_model.Decision`:
best span's dense similarity in the question's language and in another language, best span's share
of the question's content terms). A setting (min_dense, min_lexical, min_dense_other_language) is
then replayed exactly: a question is answered when max_lexical >= min_lexical or max_dense >=
min_dense or max_dense_other_language >= min_dense_other_language (and nothing the question names
is absent), and the evidence covers the question: when it asks for money, a duration or a count,
some span holding such a value has max_dense_slot >= min_dense_slot, and no more than max_uncovered
of its content terms are missing from every passage (`OfflineRulebookModel.covers`); what an
answered question cites does not depend on the thresholds.

Per setting, over dev questions only:
- answered share of answerable questions (normal view);
- precision: of all answers given (normal, exclusion and unanswerable views), the share that is
  right — the normal-view answer cites a gold passage / an expected page; an exclusion-view answer
  is wrong unless it is listed as answered elsewhere (its cited passage repeats a gold passage; on
  the golden sets: it holds the gold answer's facts, or cites a translation of the hidden rulebook
  on the expected page, evals.exclusion);
  any answer to an unanswerable question is wrong;
- recall: right answers / answerable questions; F1 of the two;
- refused share in the exclusion view and of the unanswerable questions; must-contain (e2e).
The chosen setting maximises F1 (ties: the higher bars, i.e. the more cautious, except that a
coverage check tied with no check stays off) among the settings that answer no fewer of the
answerable dev questions than the current bars (`ANSWERED_SLACK`), in all and in each dev set
(ObliQA, sample, real, real2: one set's answers are not traded for another's), and a coverage check that changes
fewer than two dev outcomes is then switched off (`MIN_CASES_CHANGED`), as is a change of an existing
check's settings that changes fewer than two dev outcomes against today's (it stays as today); and
when the setting so pruned scores a lower dev F1 than today's bars, today's bars stay. Today's bars
are held to the same evidence first (`prune` of today's bars): a check of today's that changes fewer
than two dev outcomes is off before anything is compared with them. The
coverage checks: the value of the kind asked, the uncovered share, the value gap, the subject terms
(bot.offline.subject_terms), the rare question phrases (bot.offline.subject_phrases: when enough of
them are missing from the evidence's document, only a best span with dense >= min_dense_phrase
answers) and, for evidence in another language, the question's acronyms and codes
(bot.offline.neutral_terms). One relief is swept the same way: disagreeing signals whose passages
hold the question's rare phrases meet min_dense rather than min_dense_disagree
(bot.offline.subject_phrases.phrases_held; `Bar.held_phrase_share`, `held_max_missing`). The curve is
plotted with matplotlib and written beside the numbers it comes from, with each source's and
each question kind's figures at the current and the chosen setting.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bot.offline.value_subject as value_subject_check
from bot.offline.neutral_terms import missing_neutral_share
from bot.offline.subject_phrases import (
    HELD_MAX_MISSING,
    MIN_MISSING_PHRASES,
    PHRASE_MAX_SHARE,
    PHRASE_SCOPE,
    phrase_missing,
    phrases_held,
)
from bot.offline.subject_phrases import SCOPES as PHRASE_SCOPES
from bot.offline.subject_terms import (
    SCOPES,
    SUBJECT_MAX_HEADINGS,
    SUBJECT_MAX_SHARE,
    SUBJECT_SCOPE,
    missing_subject_weight,
)

DENSE_GRID = tuple(round(0.80 + 0.005 * i, 3) for i in range(31))  # 0.80 .. 0.95
LEXICAL_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)  # 1.01: lexical overlap never decides alone
ELSEWHERE_OVERLAP = 0.6
MIN_DENSE_OTHER_LANGUAGE = 0.83  # as bot.offline.span_scoring: not swept (too few cross-language dev cases)


@dataclass(frozen=True)
class Bar:
    """One answer/refuse setting: a question is answered when nothing it names is absent and its best
    span clears one of the bars (the offline model's `min_dense`, `min_lexical`,
    `min_dense_other_language`)."""

    min_dense: float
    min_lexical: float
    min_dense_other_language: float = MIN_DENSE_OTHER_LANGUAGE
    min_dense_disagree: float | None = None  # the dense bar when the signals disagree (None: min_dense)
    # evidence coverage (the offline model's `covers`): the bar for the best span holding a value of the
    # kind asked (None: no such check), the largest share of uncovered question terms (None: no check)
    min_dense_slot: float | None = None
    max_uncovered: float | None = None
    # the subject check (bot.offline.subject_terms): subject terms (in the headings of
    # 1..subject_max_headings rulebooks, in at most subject_max_share of the chunks) missing from the
    # evidence that weigh more than max_missing_subject of the question's terms refuse (None: no
    # check); a value of the kind asked more than max_slot_gap below the best span refuses (None: no check)
    max_missing_subject: float | None = None
    subject_max_share: float = SUBJECT_MAX_SHARE
    subject_max_headings: int = SUBJECT_MAX_HEADINGS
    max_slot_gap: float | None = None
    subject_scope: str = SUBJECT_SCOPE  # where the evidence must hold a subject term: passage, section, document
    # a rare phrase of the question (in at most phrase_max_share of the chunks) missing from the evidence
    # within phrase_scope: only a best span with dense >= min_dense_phrase answers (None: no check)
    min_dense_phrase: float | None = None
    phrase_max_share: float = PHRASE_MAX_SHARE
    phrase_scope: str = PHRASE_SCOPE
    min_missing_phrases: float = MIN_MISSING_PHRASES
    # evidence in another language: the largest share of the question's acronyms and codes its documents
    # may miss (None: no check; bot.offline.neutral_terms)
    max_missing_neutral: float | None = None
    # a span defining the question's code or element answers at this dense bar (None: no such route;
    # the offline model's `min_dense_defining`)
    min_dense_defining: float | None = None
    # a question asking for a kind of value is refused when its composed answer holds none (the offline
    # model's `require_value_quoted`; not swept: measured on/off, see `value_check`)
    require_value_quoted: bool = False
    # disagreeing signals whose passages hold the question's phrases in at most held_phrase_share of the
    # chunks (no more than held_max_missing of them missing) meet min_dense, not min_dense_disagree (None:
    # the disagreeing bar always applies; bot.offline.subject_phrases.phrases_held)
    held_phrase_share: float | None = None
    held_max_missing: float = HELD_MAX_MISSING

    def phrase_missing(self, s: Signal) -> bool:
        return self.min_dense_phrase is not None and phrase_missing(s.phrases, self.phrase_max_share,
                                                                    self.phrase_scope, self.min_missing_phrases)

    def covers(self, s: Signal) -> bool:
        if self.min_dense_slot is not None and s.slot is not None \
                and (s.max_dense_slot is None or s.max_dense_slot < self.min_dense_slot):
            return False
        if self.max_missing_subject is not None and missing_subject_weight(
                s.subject, self.subject_max_share, self.subject_max_headings,
                self.subject_scope) > self.max_missing_subject:
            return False
        if self.max_slot_gap is not None and s.slot is not None and s.slot_gap is not None \
                and s.slot_gap > self.max_slot_gap:
            return False
        if self.max_missing_neutral is not None and missing_neutral_share(s.neutral) > self.max_missing_neutral:
            return False
        if self.require_value_quoted and s.misses_asked_value:
            return False
        return not (self.max_uncovered is not None and s.uncovered is not None and s.uncovered > self.max_uncovered)

    def dense_bar(self, s: Signal) -> float:
        if s.agree is False and self.min_dense_disagree is not None \
                and not phrases_held(s.phrases, self.held_phrase_share, self.held_max_missing):
            return max(self.min_dense, self.min_dense_disagree)
        return self.min_dense


@dataclass(frozen=True)
class Signal:
    """One question in one view, as the sweep needs it."""

    source: str  # "obliqa" | "golden" (exclusion runs) | the e2e corpus: "sample", "real2", …
    view: str  # "normal" (answerable, asked as is) | "excluded" (gold hidden) | "unanswerable" (on topic)
    max_dense: float | None
    max_lexical: float
    blocked_names: bool  # a name or identifier of the question is absent: refused whatever the threshold
    answered: bool  # the gate let an answer through (thresholds at 0)
    right: bool  # normal view: a gold passage / expected page cited; excluded: answered elsewhere
    max_dense_other_language: float | None = None
    kind: str = ""  # the golden question's kind (paraphrase, cross_language, …), when known
    must_contain: bool | None = None  # e2e: the answer holds every must-contain string
    agree: bool | None = None  # the densest and the lexically best span share a chunk (None: not recorded)
    slot: str | None = None  # the kind of value asked: money, duration, count (None: none, or not recorded)
    max_dense_slot: float | None = None  # best similarity of a span holding a value of that kind
    uncovered: float | None = None  # share of the question's content terms in no passage (None: not measured)
    named_section: bool = False  # the section the question names by number and title was read: answered
    subject: tuple[tuple[str, float, int, bool], ...] | None = None  # Decision.subject (None: not measured)
    slot_gap: float | None = None  # Decision.slot_gap
    phrases: tuple[tuple[str, float, bool, bool, bool], ...] | None = None  # Decision.phrases
    neutral: tuple[tuple[str, float, bool], ...] | None = None  # Decision.neutral
    max_dense_defining: float | None = None  # Decision.max_dense_defining
    value_quoted: bool | None = None  # Decision.value_quoted
    codes_quoted: bool | None = None  # Decision.codes_quoted
    value_subject: tuple[float, float] | None = None  # Decision.value_subject

    @property
    def misses_asked_value(self) -> bool:
        """The composed answer lacks what the question asked for: a value of the kind asked, from a passage
        about the question's subject (`bot.offline.value_subject` at its bar), or codes (refused when the
        offline model's `require_value_quoted` is on)."""
        value_missing = self.value_quoted is False or not value_subject_check.about_subject(
            self.value_subject, value_subject_check.MAX_SHARE)
        return (self.slot is not None and value_missing) or self.codes_quoted is False


def _subject_keys(bar: Bar) -> dict[str, Any]:
    return {"max_missing_subject": bar.max_missing_subject, "subject_max_share": bar.subject_max_share,
            "subject_max_headings": bar.subject_max_headings, "max_slot_gap": bar.max_slot_gap,
            "subject_scope": bar.subject_scope, "min_dense_phrase": bar.min_dense_phrase,
            "phrase_max_share": bar.phrase_max_share, "phrase_scope": bar.phrase_scope,
            "min_missing_phrases": bar.min_missing_phrases,
            "max_missing_neutral": bar.max_missing_neutral, "min_dense_defining": bar.min_dense_defining,
            "require_value_quoted": bar.require_value_quoted, "held_phrase_share": bar.held_phrase_share,
            "held_max_missing": bar.held_max_missing}


def current_bar() -> Bar:
    """Today's setting: every bar and check an `OfflineRulebookModel` is built with (its fields carry the
    Bar's names)."""
    from dataclasses import fields

    from bot.offline.offline_model import OfflineRulebookModel

    model = OfflineRulebookModel()
    return Bar(**{f.name: getattr(model, f.name) for f in fields(Bar)})


def answered_at(s: Signal, min_dense: float | Bar, min_lexical: float | None = None) -> bool:
    bar = min_dense if isinstance(min_dense, Bar) else Bar(min_dense, float(min_lexical or 0.0))
    if s.blocked_names or not s.answered:
        return False
    if s.named_section:
        return True
    if not bar.covers(s):
        return False
    if bar.phrase_missing(s):
        return s.max_dense is not None and s.max_dense >= max(bar.dense_bar(s), bar.min_dense_phrase or 0.0)
    return (s.max_lexical >= bar.min_lexical or (s.max_dense is not None and s.max_dense >= bar.dense_bar(s))
            or (bar.min_dense_defining is not None and s.max_dense_defining is not None
                and s.max_dense_defining >= bar.min_dense_defining)
            or (s.max_dense_other_language is not None
                and s.max_dense_other_language >= bar.min_dense_other_language))


def _coverage(d: dict[str, Any]) -> dict[str, Any]:
    subject = d.get("subject")
    return {"slot": d.get("slot"), "max_dense_slot": d.get("max_dense_slot"), "uncovered": d.get("uncovered"),
            "named_section": bool(d.get("named_section")),
            "subject": None if subject is None else tuple(tuple(t) for t in subject), "slot_gap": d.get("slot_gap"),
            "phrases": None if d.get("phrases") is None else tuple(tuple(p) for p in d["phrases"]),
            "neutral": None if d.get("neutral") is None else tuple(tuple(t) for t in d["neutral"]),
            "max_dense_defining": d.get("max_dense_defining"), "value_quoted": d.get("value_quoted"),
            "codes_quoted": d.get("codes_quoted"),
            "value_subject": None if d.get("value_subject") is None else tuple(d["value_subject"])}


def signals_from_answering(report: dict[str, Any], split: str = "dev") -> list[Signal]:
    out = []
    for c in report.get("cases", []):
        if c["split"] != split or c.get("decision") is None:
            continue
        d = c["decision"]
        right = c["gold_cited"] if c["view"] == "normal" else c.get("elsewhere", 0.0) >= ELSEWHERE_OVERLAP
        out.append(Signal("obliqa", c["view"], d["max_dense"], d["max_lexical"], bool(d["absent"]) or d["hits"] == 0,
                          c["outcome"] == "answered", bool(right), d.get("max_dense_other_language"),
                          agree=d.get("agree"), **_coverage(d)))
    return out


def signals_from_exclusion(report: dict[str, Any], split: str = "dev",
                           views: Sequence[str] = ("normal", "excluded")) -> list[Signal]:
    out = []
    for c in report.get("cases", []):
        if c["split"] != split or c.get("decision") is None or c.get("view", "excluded") not in views:
            continue
        d = c["decision"]
        view = c.get("view", "excluded")
        out.append(Signal("golden", view, d["max_dense"], d["max_lexical"], bool(d["absent"]) or d["hits"] == 0,
                          c["outcome"] == "answered",
                          bool(c.get("right_page")) if view == "normal" else bool(c.get("elsewhere")),
                          d.get("max_dense_other_language"), agree=d.get("agree"), **_coverage(d)))
    return out


def signals_from_e2e(report: dict[str, Any], split: str = "dev") -> list[Signal]:
    """`rulebook eval e2e --calibration --json`: answerable questions are the normal view (right: an
    expected page cited), unanswerable ones (on topic, not in the corpus) must be refused. A question
    refused before any decision (an advice request, an injection) has no signals and is left out:
    no threshold changes it."""
    split_of = report.get("split_of") or {}
    out = []
    for r in report.get("questions", []):
        if r.get("decision") is None or split_of.get(r["id"], r.get("split", "")) != split:
            continue
        d = r["decision"]
        view = "normal" if r["answerable"] else "unanswerable"
        out.append(Signal(r["corpus"], view, d["max_dense"], d["max_lexical"], bool(d["absent"]) or d["hits"] == 0,
                          r["outcome"] == "answered", view == "normal" and bool(r.get("expected_cited")),
                          d.get("max_dense_other_language"), r.get("kind", ""),
                          bool(r.get("must_contain_ok")) if view == "normal" else None, d.get("agree"),
                          **_coverage(d)))
    return out


def point(signals: Sequence[Signal], min_dense: float | Bar, min_lexical: float | None = None) -> dict[str, Any]:
    bar = min_dense if isinstance(min_dense, Bar) else Bar(min_dense, float(min_lexical or 0.0))
    return {"min_dense": bar.min_dense, "min_lexical": bar.min_lexical,
            "min_dense_other_language": bar.min_dense_other_language,
            "min_dense_disagree": bar.min_dense_disagree,
            "min_dense_slot": bar.min_dense_slot, "max_uncovered": bar.max_uncovered, **_subject_keys(bar),
            **figures(signals, lambda s: answered_at(s, bar))}


def figures(signals: Sequence[Signal], answers_it: Callable[[Signal], bool]) -> dict[str, Any]:
    """What a decision (`answers_it`: is this case answered?) scores over the cases (see the module
    docstring: F1 of right answers, precision over every answer given, recall over the answerable)."""
    given = {id(s): answers_it(s) for s in signals}
    normal = [s for s in signals if s.view == "normal"]
    excluded = [s for s in signals if s.view == "excluded"]
    unanswerable = [s for s in signals if s.view == "unanswerable"]
    answers = [s for s in signals if given[id(s)]]
    right = [s for s in answers if s.right]
    right_normal = [s for s in right if s.view == "normal"]
    precision = len(right) / len(answers) if answers else 1.0
    recall = len(right_normal) / len(normal) if normal else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    ex_refused = [s for s in excluded if not given[id(s)]]
    un_refused = [s for s in unanswerable if not given[id(s)]]
    normal_answered = [s for s in normal if given[id(s)]]
    with_contain = [s for s in normal if s.must_contain is not None]
    by_source = {name: sum(given[id(s)] for s in normal if s.source == name)
                 for name in sorted({s.source for s in normal})}
    return {"f1": round(f1, 4), "precision": round(precision, 4), "recall": round(recall, 4),
            "answered_share": round(len(normal_answered) / len(normal), 4) if normal else None,
            "right_of_answered": round(len(right_normal) / len(normal_answered), 4) if normal_answered else None,
            "refused_when_excluded": round(len(ex_refused) / len(excluded), 4) if excluded else None,
            "refused_unanswerable": round(len(un_refused) / len(unanswerable), 4) if unanswerable else None,
            # e2e: must-contain of answerable questions (a refusal holds none of it)
            "must_contain": round(sum(bool(s.must_contain) and given[id(s)] for s in with_contain)
                                  / len(with_contain), 4) if with_contain else None,
            "answered_by_source": by_source}


def by_source(signals: Sequence[Signal], bar: Bar) -> dict[str, dict[str, Any]]:
    """The point of each source (obliqa, golden, sample, real2…) on its own, and of each kind of the
    e2e sets' answerable questions (answered share only): where a bar costs what."""
    out: dict[str, dict[str, Any]] = {name: point([s for s in signals if s.source == name], bar)
                                      for name in sorted({s.source for s in signals})}
    kinds = sorted({s.kind for s in signals if s.kind and s.view == "normal"})
    out["answered_by_kind"] = {k: f"{sum(answered_at(s, bar) for s in group)}/{len(group)}"
                               for k in kinds for group in [[s for s in signals if s.kind == k and s.view == "normal"]]}
    return out


SLOT_GRID: tuple[float | None, ...] = (None, *(round(0.78 + 0.01 * i, 2) for i in range(13)))  # None, 0.78 .. 0.90
UNCOVERED_GRID: tuple[float | None, ...] = (None, 0.75, 0.6, 0.5, 0.4, 0.34, 0.25, 0.2, 0.0)
# a new setting replaces today's bars only when it gains this much dev F1: on ~440 dev cases one
# case moves F1 by ~0.002, so smaller gains are a case or two the bars were fitted to
MIN_F1_GAIN = 0.005
DISAGREE_STEPS = (0.01, 0.02, 0.03, 0.04)  # the disagreeing bar above min_dense (and None: the same bar)


class _Columns:
    """The signals as numpy columns, so that a sweep of many thousand settings replays each one in
    microseconds; `point` on a list of signals stays the reference (tests compare the two)."""

    def __init__(self, signals: Sequence[Signal]) -> None:
        import numpy as np

        def col(values: Iterable[Any], fill: float = -1.0) -> Any:
            return np.array([fill if v is None else float(v) for v in values], dtype=float)

        self.np = np
        self.base = np.array([not s.blocked_names and s.answered for s in signals])
        self.named = np.array([s.named_section for s in signals], dtype=bool)
        self.lexical = col(s.max_lexical for s in signals)
        self.dense = col(s.max_dense for s in signals)
        self.other = col(s.max_dense_other_language for s in signals)
        self.defining = col(s.max_dense_defining for s in signals)
        self.disagree = np.array([s.agree is False for s in signals])
        self.slot = np.array([s.slot is not None for s in signals])
        self.slot_dense = col(s.max_dense_slot for s in signals)
        self.uncovered = col(s.uncovered for s in signals)
        self.right = np.array([s.right for s in signals])
        self.normal = np.array([s.view == "normal" for s in signals])
        self.excluded = np.array([s.view == "excluded" for s in signals])
        self.unanswerable = np.array([s.view == "unanswerable" for s in signals])
        self.has_contain = np.array([s.must_contain is not None for s in signals]) & self.normal
        self.contain = np.array([bool(s.must_contain) for s in signals])
        self._signals = list(signals)
        self._missing: dict[tuple[float, int, str], Any] = {}
        self._phrases: dict[tuple[float, str, float], Any] = {}
        self._held: dict[tuple[float, float], Any] = {}
        self.gap = col((s.slot_gap if s.slot is not None else None) for s in signals)
        self.neutral = self.np.array([missing_neutral_share(s.neutral) for s in signals])
        self.value_missing = np.array([s.misses_asked_value for s in signals])
        names = sorted({s.source for s in signals if s.view == "normal"})
        self.by_source = {name: self.normal & np.array([s.source == name for s in signals]) for name in names}

    def missing(self, share: float, headings: int, scope: str = "passage") -> Any:
        """Per signal, the weight of the subject terms at this rarity the evidence does not hold."""
        key = (share, headings, scope)
        if key not in self._missing:
            self._missing[key] = self.np.array([missing_subject_weight(s.subject, share, headings, scope)
                                                for s in self._signals])
        return self._missing[key]

    def phrase_missing(self, share: float, scope: str, min_missing: float) -> Any:
        """Per signal, whether enough phrases at this rarity are missing from the evidence within `scope`."""
        key = (share, scope, min_missing)
        if key not in self._phrases:
            self._phrases[key] = self.np.array([phrase_missing(s.phrases, share, scope, min_missing)
                                                for s in self._signals], dtype=bool)
        return self._phrases[key]

    def held(self, share: float | None, max_missing: float) -> Any:
        """Per signal, whether the passages shown hold the question's phrases at this rarity."""
        if share is None:
            return self.np.zeros(len(self._signals), dtype=bool)
        key = (share, max_missing)
        if key not in self._held:
            self._held[key] = self.np.array([phrases_held(s.phrases, share, max_missing) for s in self._signals],
                                            dtype=bool)
        return self._held[key]

    def answered(self, bar: Bar) -> Any:
        np = self.np
        disagree = self.disagree & ~self.held(bar.held_phrase_share, bar.held_max_missing)
        dense_bar = np.where(disagree & (bar.min_dense_disagree is not None),
                             max(bar.min_dense, bar.min_dense_disagree or 0.0), bar.min_dense)
        reach = ((self.lexical >= bar.min_lexical) | ((self.dense >= 0) & (self.dense >= dense_bar))
                 | ((self.other >= 0) & (self.other >= bar.min_dense_other_language)))
        if bar.min_dense_defining is not None:
            reach |= (self.defining >= 0) & (self.defining >= bar.min_dense_defining)
        if bar.min_dense_phrase is not None:
            close = (self.dense >= 0) & (self.dense >= np.maximum(dense_bar, bar.min_dense_phrase))
            reach = np.where(self.phrase_missing(bar.phrase_max_share, bar.phrase_scope, bar.min_missing_phrases),
                             close, reach)
        ok = self.base & reach
        if bar.min_dense_slot is not None:
            ok &= ~self.slot | (self.slot_dense >= bar.min_dense_slot)
        if bar.max_uncovered is not None:
            ok &= (self.uncovered < 0) | (self.uncovered <= bar.max_uncovered)
        if bar.max_missing_subject is not None:
            ok &= self.missing(bar.subject_max_share, bar.subject_max_headings,
                               bar.subject_scope) <= bar.max_missing_subject
        if bar.max_slot_gap is not None:
            ok &= (self.gap < 0) | (self.gap <= bar.max_slot_gap)
        if bar.max_missing_neutral is not None:
            ok &= self.neutral <= bar.max_missing_neutral
        if bar.require_value_quoted:
            ok &= ~self.value_missing
        return ok | (self.base & self.named)

    def point(self, bar: Bar) -> dict[str, Any]:
        a = self.answered(bar)
        n_normal, n_ex, n_un = int(self.normal.sum()), int(self.excluded.sum()), int(self.unanswerable.sum())
        answers = int(a.sum())
        right = int((a & self.right).sum())
        right_normal = int((a & self.right & self.normal).sum())
        normal_answered = int((a & self.normal).sum())
        precision = right / answers if answers else 1.0
        recall = right_normal / n_normal if n_normal else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        n_contain = int(self.has_contain.sum())
        return {"min_dense": bar.min_dense, "min_lexical": bar.min_lexical,
                "min_dense_other_language": bar.min_dense_other_language,
                "min_dense_disagree": bar.min_dense_disagree,
                "min_dense_slot": bar.min_dense_slot, "max_uncovered": bar.max_uncovered, **_subject_keys(bar),
                "f1": round(f1, 4), "precision": round(precision, 4), "recall": round(recall, 4),
                "answered_share": round(normal_answered / n_normal, 4) if n_normal else None,
                "right_of_answered": round(right_normal / normal_answered, 4) if normal_answered else None,
                "refused_when_excluded": round(int((~a & self.excluded).sum()) / n_ex, 4) if n_ex else None,
                "refused_unanswerable": round(int((~a & self.unanswerable).sum()) / n_un, 4) if n_un else None,
                "must_contain": round(int((a & self.has_contain & self.contain).sum()) / n_contain, 4)
                if n_contain else None,
                "answered_by_source": {name: int((a & mask).sum()) for name, mask in self.by_source.items()}}


def sweep(signals: Sequence[Signal], dense_grid: Iterable[float] = DENSE_GRID,
          lexical_grid: Iterable[float] = LEXICAL_GRID,
          other_grid: Iterable[float] = (MIN_DENSE_OTHER_LANGUAGE,),
          disagree: bool = False, slot_grid: Iterable[float | None] = (None,),
          uncovered_grid: Iterable[float | None] = (None,), subject: Bar | None = None) -> list[dict[str, Any]]:
    """Every setting of the grids; with `disagree`, higher dense bars for disagreeing signals too
    (`DISAGREE_STEPS` above min_dense; None: the same bar)."""
    columns = _Columns(signals)
    dense = list(dense_grid)
    others, lexicals, slots, uncovereds = list(other_grid), list(lexical_grid), list(slot_grid), list(uncovered_grid)
    points = []
    for o in others:
        for lx in lexicals:
            for d in dense:
                steps = [None, *(round(d + x, 3) for x in DISAGREE_STEPS)] if disagree else [None]
                for dd in steps:
                    for sl in slots:
                        for un in uncovereds:
                            # every other check as `subject` has it (its grid values are these six)
                            bar = Bar(d, lx, o, dd, sl, un) if subject is None else with_subject(
                                subject, min_dense=d, min_lexical=lx, min_dense_other_language=o,
                                min_dense_disagree=dd, min_dense_slot=sl, max_uncovered=un)
                            points.append(columns.point(bar))
    return points


def _key(p: dict[str, Any]) -> tuple[float, ...]:
    """F1, then the more cautious setting: higher bars. A coverage check is only switched on where it
    changes the dev outcome: when "no check" ties with a bar, no check is chosen (a bar that never
    fires on dev has no evidence behind it and would refuse unmeasured questions elsewhere). Among
    subject checks that tie, the one that calls fewer terms subject terms (it refuses less elsewhere)."""
    disagree = p.get("min_dense_disagree")
    slot, uncovered = p.get("min_dense_slot"), p.get("max_uncovered")
    missing, gap = p.get("max_missing_subject"), p.get("max_slot_gap")
    phrase, neutral = p.get("min_dense_phrase"), p.get("max_missing_neutral")
    defining, held = p.get("min_dense_defining"), p.get("held_phrase_share")
    # the held-phrase relief lowers a bar: off is the cautious end, then the rarer phrases, fewer missing
    return (p["f1"], 2.0 if missing is None else missing, 2.0 if gap is None else gap,
            2.0 if defining is None else defining,
            1.0 if held is None else -held, -(p.get("held_max_missing") or 0.0) if held is not None else 0.0,
            0.0 if phrase is None else -phrase, 2.0 if neutral is None else neutral,
            p.get("min_missing_phrases") or 0.0,
            -(p.get("subject_max_share") or 0.0), -(p.get("subject_max_headings") or 0),
            SCOPES.index(p.get("subject_scope") or "passage"),
            -(p.get("phrase_max_share") or 0.0), PHRASE_SCOPES.index(p.get("phrase_scope") or "passage"),
            p["min_dense"], disagree if disagree is not None else p["min_dense"], p["min_lexical"],
            p["min_dense_other_language"], 2.0 if slot is None else slot,
            2.0 if uncovered is None else -uncovered)


# The "own golden dev sets not lower than today": a setting that answers fewer of the dev
# questions that have an answer than today's bars (the `current` bars of the run) is not chosen,
# however its F1 is
ANSWERED_SLACK = 0.0
# A coverage check that changes the outcome of fewer dev cases than this, against the same setting
# without it, is switched off: a bar that fixes one question is a smell, not a calibration
MIN_CASES_CHANGED = 2
# each coverage check and the value that switches it off
_CHECKS: dict[str, Any] = {
    **dict.fromkeys(("max_missing_subject", "max_uncovered", "max_slot_gap", "min_dense_slot", "min_dense_phrase",
                     "max_missing_neutral", "min_dense_defining", "held_phrase_share")),
    "require_value_quoted": False,
}


def prune(signals: Sequence[Signal], bar: Bar, current: Bar | None = None) -> Bar:
    """`bar` with each coverage check off that changes fewer than `MIN_CASES_CHANGED` dev outcomes;
    and, given today's bars, each coverage check whose new settings change fewer than that many
    dev outcomes against today's settings of it kept as today (a re-tuned check is held to the
    same evidence as a new one)."""
    columns = _Columns(signals)
    for check, off_value in _CHECKS.items():
        if getattr(bar, check) == off_value:
            continue
        off = with_subject(bar, **{check: off_value})
        if int((columns.answered(bar) != columns.answered(off)).sum()) < MIN_CASES_CHANGED:
            bar = off
    if current is not None:
        for group in _COVERAGE_GROUPS:
            today = with_subject(bar, **{k: getattr(current, k) for k in group})
            if today != bar and int((columns.answered(bar) != columns.answered(today)).sum()) < MIN_CASES_CHANGED:
                bar = today
    return bar


def value_check(signals: Sequence[Signal], bar: Bar) -> dict[str, Any]:
    """The value check (`Bar.require_value_quoted`) measured at `bar`'s other settings: dev figures with
    it off and on, and the cases it changes: how many, and how many of those were answers that held
    every must-contain string (an e2e answer it would refuse although the answer had the key facts)."""
    off, on = with_subject(bar, require_value_quoted=False), with_subject(bar, require_value_quoted=True)
    changed = [s for s in signals if answered_at(s, off) != answered_at(s, on)]
    return {"off": point(signals, off), "on": point(signals, on), "changed": len(changed),
            "changed_by_view": {v: sum(s.view == v for s in changed) for v in ("normal", "excluded", "unanswerable")},
            "changed_right": sum(s.right for s in changed if s.view == "normal"),
            "changed_with_key_facts": sum(bool(s.must_contain) for s in changed if s.view == "normal")}


def no_worse_than_today(signals: Sequence[Signal], bar: Bar, now: Bar, min_gain: float = MIN_F1_GAIN) -> Bar:
    """`bar`, unless it scores a lower dev F1 than today's bars `now` (pruning works check by check,
    so the setting it leaves may never have been the best one), or a higher one by less than
    `min_gain`: F1 has settled, and moving bars for a case or two of noise is fitting."""
    columns = _Columns(signals)
    if bar == now:
        return now
    return bar if columns.point(bar)["f1"] >= columns.point(now)["f1"] + min_gain else now


def choose(points: Sequence[dict[str, Any]], min_answered: float | None = None,
           min_by_source: dict[str, int] | None = None) -> dict[str, Any]:
    """The best point by `_key`, among those answering at least `min_answered` of the answerable
    dev questions (all of them when none does)."""
    kept = [p for p in points if (min_answered is None or (p.get("answered_share") or 0.0) >= min_answered)
            and all((p.get("answered_by_source") or {}).get(k, 0) >= n for k, n in (min_by_source or {}).items())]
    return max(kept or points, key=_key)


def bar_of(p: dict[str, Any]) -> Bar:
    return Bar(p["min_dense"], p["min_lexical"], p.get("min_dense_other_language", MIN_DENSE_OTHER_LANGUAGE),
               p.get("min_dense_disagree"), p.get("min_dense_slot"), p.get("max_uncovered"),
               p.get("max_missing_subject"), p.get("subject_max_share", SUBJECT_MAX_SHARE),
               p.get("subject_max_headings", SUBJECT_MAX_HEADINGS), p.get("max_slot_gap"),
               p.get("subject_scope") or SUBJECT_SCOPE, p.get("min_dense_phrase"),
               p.get("phrase_max_share", PHRASE_MAX_SHARE), p.get("phrase_scope") or PHRASE_SCOPE,
               min_missing_phrases=p.get("min_missing_phrases", MIN_MISSING_PHRASES),
               max_missing_neutral=p.get("max_missing_neutral"), min_dense_defining=p.get("min_dense_defining"),
               require_value_quoted=bool(p.get("require_value_quoted", False)),
               held_phrase_share=p.get("held_phrase_share"),
               held_max_missing=p.get("held_max_missing", HELD_MAX_MISSING))


def with_subject(bar: Bar, **changes: Any) -> Bar:
    from dataclasses import replace

    return replace(bar, **changes)


_COVERAGE = ("min_dense_slot", "max_uncovered", "max_missing_subject", "subject_max_share", "subject_max_headings",
             "max_slot_gap", "subject_scope", "min_dense_phrase", "phrase_max_share", "phrase_scope",
             "max_missing_neutral", "min_missing_phrases", "min_dense_defining", "require_value_quoted",
             "held_phrase_share", "held_max_missing")
_COVERAGE_GROUPS = (("min_dense_slot",), ("max_uncovered",), ("max_slot_gap",), ("min_dense_defining",),
                    ("max_missing_subject", "subject_max_share", "subject_max_headings", "subject_scope"),
                    ("min_dense_phrase", "phrase_max_share", "phrase_scope", "min_missing_phrases"),
                    ("max_missing_neutral",), ("require_value_quoted",), ("held_phrase_share", "held_max_missing"))
# the subject check's grids: a term's share of the chunks, the rulebooks whose headings hold it, the
# missing subject terms allowed (None: no check); the value's score gap below the best span
SUBJECT_SHARE_GRID = (0.02, 0.05, 0.1, 0.2, 0.3, 1.0)
SUBJECT_HEADINGS_GRID = (1, 2, 3, 5, 100)
MISSING_SUBJECT_GRID: tuple[float | None, ...] = (None, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
SLOT_GAP_GRID: tuple[float | None, ...] = (None, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2)


def subject_sweep(signals: Sequence[Signal], at: Bar) -> list[dict[str, Any]]:
    """Every subject-check setting and value gap at the other bars of `at`."""
    return _gated_sweep(signals, at, {"max_slot_gap": SLOT_GAP_GRID}, ("max_missing_subject", MISSING_SUBJECT_GRID),
                        {"subject_max_share": SUBJECT_SHARE_GRID, "subject_max_headings": SUBJECT_HEADINGS_GRID,
                         "subject_scope": SCOPES})


def _gated_sweep(signals: Sequence[Signal], at: Bar, free: dict[str, Sequence[Any]],
                 gate: tuple[str, Sequence[Any]], gated: dict[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """A point for every combination of the `free` settings and the `gate` setting; the `gated`
    settings are swept only where the gate is on (not None), and stay as in `at` where it is off.
    Later settings vary fastest."""
    columns = _Columns(signals)
    gate_name, gate_grid = gate
    points = []
    for free_values in itertools.product(*free.values()):
        for on in gate_grid:
            grids = [grid if on is not None else (getattr(at, name),) for name, grid in gated.items()]
            for gated_values in itertools.product(*grids):
                points.append(columns.point(with_subject(
                    at, **dict(zip(free, free_values, strict=True)), **{gate_name: on},
                    **dict(zip(gated, gated_values, strict=True)))))
    return points


# the phrase check's grids: the dense bar when a rare phrase of the question is missing from the
# evidence (None: no check), a phrase's largest share of the chunks, where the evidence must hold it
PHRASE_DENSE_GRID: tuple[float | None, ...] = (None, *(round(0.86 + 0.005 * i, 3) for i in range(13)))  # .86-.92
PHRASE_SHARE_GRID = (0.005, 0.01, 0.02, 0.05)
MISSING_PHRASES_GRID = (0.01, 0.34, 0.5, 0.67, 1.0)  # the share of the rare phrases missing that raises the bar
# evidence in another language: the share of the question's acronyms and codes its documents may miss
NEUTRAL_GRID: tuple[float | None, ...] = (None, 0.0, 0.34, 0.5, 0.67)


def phrase_sweep(signals: Sequence[Signal], at: Bar) -> list[dict[str, Any]]:
    """Every phrase-check and neutral-term setting at the other bars of `at`."""
    return _gated_sweep(signals, at, {"max_missing_neutral": NEUTRAL_GRID}, ("min_dense_phrase", PHRASE_DENSE_GRID),
                        {"phrase_max_share": PHRASE_SHARE_GRID, "phrase_scope": PHRASE_SCOPES,
                         "min_missing_phrases": MISSING_PHRASES_GRID})


# the dense bar of a span defining the question's code or element (None: no such route)
DEFINING_GRID: tuple[float | None, ...] = (None, *(round(0.78 + 0.01 * i, 2) for i in range(9)))  # .78-.86


def defining_sweep(signals: Sequence[Signal], at: Bar) -> list[dict[str, Any]]:
    """Every bar of the defining route at the other bars of `at`."""
    columns = _Columns(signals)
    return [columns.point(with_subject(at, min_dense_defining=d)) for d in DEFINING_GRID]


# the held-phrase relief's grids: a phrase's largest share of the chunks (None: no relief), the share of
# those phrases the passages shown may miss
HELD_SHARE_GRID: tuple[float | None, ...] = (None, 0.001, 0.002, 0.005, 0.01, 0.02)
HELD_MISSING_GRID = (0.0, 0.34, 0.5, 0.67)


def held_sweep(signals: Sequence[Signal], at: Bar) -> list[dict[str, Any]]:
    """Every setting of the held-phrase relief at the other bars of `at`."""
    return _gated_sweep(signals, at, {}, ("held_phrase_share", HELD_SHARE_GRID), {"held_max_missing": HELD_MISSING_GRID})


def _same(p: dict[str, Any], chosen: dict[str, Any], keys: Sequence[str]) -> bool:
    return all(p.get(k) == chosen.get(k) for k in keys)


def _lines(ax: Any, rows: Sequence[dict[str, Any]], x: Any, keys: Sequence[tuple[str, str]]) -> None:
    xs = [x(p) for p in rows]
    for key, label in keys:
        ax.plot(xs, [p.get(key) if p.get(key) is not None else float("nan") for p in rows], label=label, marker=".")


_SHARES = (("f1", "F1"), ("answered_share", "answered (of answerable)"),
           ("refused_unanswerable", "refused, unanswerable on topic"), ("refused_when_excluded", "refused, gold hidden"),
           ("must_contain", "must-contain (e2e answerable)"))


def plot(points: Sequence[dict[str, Any]], chosen: dict[str, Any], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    other, disagree = chosen.get("min_dense_other_language"), chosen.get("min_dense_disagree")
    at = [p for p in points if p["min_dense"] == chosen["min_dense"] and p["min_lexical"] == chosen["min_lexical"]]
    by_other = sorted((p for p in at if p.get("min_dense_disagree") == disagree and _same(p, chosen, _COVERAGE)),
                      key=lambda p: p.get("min_dense_other_language", 0))
    by_disagree = sorted((p for p in at if p.get("min_dense_other_language") == other
                          and _same(p, chosen, _COVERAGE)),
                         key=lambda p: p.get("min_dense_disagree") or p["min_dense"])
    fixed = [p for p in at if p.get("min_dense_other_language") == other and p.get("min_dense_disagree") == disagree]
    subject_keys = ("max_missing_subject", "subject_max_share", "subject_max_headings", "max_slot_gap", "subject_scope",
                    "min_dense_phrase", "phrase_max_share", "phrase_scope", "max_missing_neutral",
                    "min_missing_phrases")
    by_slot = sorted((p for p in fixed if p.get("max_uncovered") == chosen.get("max_uncovered")
                      and _same(p, chosen, subject_keys)), key=lambda p: p.get("min_dense_slot") or 0.0)
    by_gap = sorted((p for p in fixed if _same(p, chosen, ("min_dense_slot", "max_uncovered", *subject_keys[:3],
                                                           "subject_scope", *subject_keys[5:]))),
                    key=lambda p: p.get("max_slot_gap") if p.get("max_slot_gap") is not None else 0.3)
    by_phrase = [p for p in fixed if _same(p, chosen, ("min_dense_slot", "max_uncovered", "max_slot_gap",
                                                        *subject_keys[:3], "subject_scope", "max_missing_neutral",
                                                        "min_missing_phrases"))
                 and (p.get("min_dense_phrase") is None or p.get("phrase_scope") == chosen.get("phrase_scope"))]
    by_subject = [p for p in fixed if _same(p, chosen, ("min_dense_slot", "max_uncovered", "max_slot_gap",
                                                         "subject_max_headings", *subject_keys[5:]))
                  and (p.get("max_missing_subject") is None or p.get("subject_scope") == chosen.get("subject_scope"))]
    by_uncovered = sorted((p for p in fixed if p.get("min_dense_slot") == chosen.get("min_dense_slot")
                           and _same(p, chosen, subject_keys)),
                          key=lambda p: -(p.get("max_uncovered") if p.get("max_uncovered") is not None else 1.05))
    points = [p for p in points if p.get("min_dense_other_language") == other and _on_disagree_line(p, disagree)
              and _same(p, chosen, _COVERAGE)]
    fig, axes = plt.subplots(2, 6, figsize=(38, 9))
    left, right, third, fourth, ninth, eleventh, seventh, fifth, sixth, eighth, tenth, spare = axes.flat
    spare.axis("off")
    _held_panel(eleventh, [p for p in fixed if _same(p, chosen, tuple(k for k in _COVERAGE
                                                                    if k not in ("held_phrase_share",
                                                                                 "held_max_missing")))], chosen)
    _phrase_panel(ninth, by_phrase, chosen)
    by_defining = sorted((p for p in fixed if _same(p, chosen, tuple(k for k in _COVERAGE if k != "min_dense_defining"))),
                         key=lambda p: p.get("min_dense_defining") or 0.9)
    _lines(tenth, by_defining, lambda p: p.get("min_dense_defining") or 0.9, _SHARES)
    defining = chosen.get("min_dense_defining")
    tenth.axvline(defining if defining is not None else 0.9, color="grey", linestyle="--")
    tenth.set(xlabel="min_dense_defining (a span defining the question's code or element; 0.9 = no such route)",
              ylabel="share", ylim=(0, 1.02), title="answered on a span that defines what the question names")
    if tenth.lines:
        tenth.legend(fontsize=7)
    for lexical in sorted({p["min_lexical"] for p in points}):
        row = [p for p in points if p["min_lexical"] == lexical]
        label = "lexical off" if lexical > 1 else f"min_lexical {lexical}"
        left.plot([p["min_dense"] for p in row], [p["f1"] for p in row], label=label,
                  linewidth=2.5 if lexical == chosen["min_lexical"] else 1)
    left.axvline(chosen["min_dense"], color="grey", linestyle="--")
    left.set(xlabel="min_dense (best span's cosine with the question)", ylabel="F1 (right answers)",
             title="F1 by threshold (coverage bars as chosen)")
    left.legend(fontsize=7)
    row = sorted((p for p in points if p["min_lexical"] == chosen["min_lexical"]), key=lambda p: p["min_dense"])
    _lines(right, row, lambda p: p["min_dense"],
           (("answered_share", "answered (of answerable)"), ("right_of_answered", "gold cited (of answered)"),
            ("refused_when_excluded", "refused, gold hidden"), ("refused_unanswerable", "refused, unanswerable on topic"),
            ("must_contain", "must-contain (e2e answerable)"), ("precision", "precision"), ("recall", "recall")))
    right.axvline(chosen["min_dense"], color="grey", linestyle="--")
    right.set(xlabel="min_dense", ylabel="share", ylim=(0, 1.02),
              title=f"at min_lexical {chosen['min_lexical']} (chosen: {chosen['min_dense']})")
    _lines(third, by_other, lambda p: p.get("min_dense_other_language"), _SHARES[:4])
    third.axvline(other if other is not None else float("nan"), color="grey", linestyle="--")
    third.set(xlabel="min_dense_other_language (source in another language)", ylabel="share", ylim=(0, 1.02),
              title=f"at min_dense {chosen['min_dense']}, min_lexical {chosen['min_lexical']}")
    _lines(fourth, by_disagree, lambda p: p.get("min_dense_disagree") or p["min_dense"], _SHARES[:4])
    fourth.axvline(disagree if disagree is not None else chosen["min_dense"], color="grey", linestyle="--")
    fourth.set(xlabel="min_dense_disagree (densest and wordiest span in different chunks)", ylabel="share",
               ylim=(0, 1.02), title="the dense bar when the two signals disagree")
    _lines(fifth, by_slot, lambda p: p.get("min_dense_slot") or 0.76, _SHARES)
    slot = chosen.get("min_dense_slot")
    fifth.axvline(slot if slot is not None else 0.76, color="grey", linestyle="--")
    fifth.set(xlabel="min_dense_slot (best span holding the asked kind of value; 0.76 = no check)", ylabel="share",
              ylim=(0, 1.02), title="coverage: a value of the kind asked (money, duration, count)")
    _lines(sixth, by_uncovered, lambda p: p.get("max_uncovered") if p.get("max_uncovered") is not None else 1.05,
           _SHARES)
    uncovered = chosen.get("max_uncovered")
    sixth.axvline(uncovered if uncovered is not None else 1.05, color="grey", linestyle="--")
    sixth.set(xlabel="max_uncovered (share of question terms in no passage; 1.05 = no check)", ylabel="share",
              ylim=(0, 1.02), title="coverage: the question's own terms")
    for missing in sorted({p.get("max_missing_subject") for p in by_subject}, key=lambda m: -1 if m is None else m):
        row = sorted((p for p in by_subject if p.get("max_missing_subject") == missing),
                     key=lambda p: p.get("subject_max_share") or 0.0)
        label = "no subject check" if missing is None else f"refuse above {missing} of the weight missing"
        xs = [p.get("subject_max_share") for p in row] if missing is not None else list(SUBJECT_SHARE_GRID)
        ys = [p["f1"] for p in row] if missing is not None else [row[0]["f1"]] * len(xs)
        seventh.plot(xs, ys, label=f"F1, {label}", marker=".", linestyle="--" if missing is None else "-")
        if missing == chosen.get("max_missing_subject") and missing is not None:
            for key, name in _SHARES[1:4]:
                seventh.plot(xs, [p.get(key) for p in row], label=f"{name}, {label}", marker=".", linewidth=0.8)
    seventh.set(xscale="log", xlabel="subject_max_share (a subject term is in at most this share of the chunks)",
                ylabel="share", ylim=(0, 1.02),
                title=f"subject check at subject_max_headings {chosen.get('subject_max_headings')}, "
                      f"held in the {chosen.get('subject_scope')}")
    _lines(eighth, by_gap, lambda p: p.get("max_slot_gap") if p.get("max_slot_gap") is not None else 0.3, _SHARES)
    gap = chosen.get("max_slot_gap")
    eighth.axvline(gap if gap is not None else 0.3, color="grey", linestyle="--")
    eighth.set(xlabel="max_slot_gap (best span holding the asked kind of value, below the best span; 0.3 = no check)",
               ylabel="share", ylim=(0, 1.02), title="coverage: the value near the evidence")
    for ax in (right, third, fourth, fifth, sixth, seventh, eighth):
        ax.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _phrase_panel(ax: Any, rows: Sequence[dict[str, Any]], chosen: dict[str, Any]) -> None:
    """F1 by the phrase check's dense bar, one line per phrase rarity (0.855: no check), and the
    answered and refused shares at the chosen rarity."""
    off = [p for p in rows if p.get("min_dense_phrase") is None]
    for share in sorted({p.get("phrase_max_share") for p in rows if p.get("min_dense_phrase") is not None}):
        line = sorted((p for p in rows if p.get("phrase_max_share") == share and p.get("min_dense_phrase") is not None),
                      key=lambda p: p["min_dense_phrase"])
        line = off[:1] + line
        xs = [p.get("min_dense_phrase") or 0.855 for p in line]
        ax.plot(xs, [p["f1"] for p in line], label=f"F1, phrases in at most {share} of the chunks", marker=".",
                linewidth=2.5 if share == chosen.get("phrase_max_share") else 1)
        if share == chosen.get("phrase_max_share"):
            for key, name in _SHARES[1:4]:
                ax.plot(xs, [p.get(key) for p in line], label=name, marker=".", linewidth=0.8)
    bar = chosen.get("min_dense_phrase")
    ax.axvline(bar if bar is not None else 0.855, color="grey", linestyle="--")
    ax.set(xlabel="min_dense_phrase (dense bar when a rare question phrase is missing from the evidence; "
                  "0.855 = no check)", ylabel="share", ylim=(0, 1.02),
           title=f"phrase check, held in the {chosen.get('phrase_scope')}")
    if ax.lines:
        ax.legend(fontsize=7)


def _held_panel(ax: Any, rows: Sequence[dict[str, Any]], chosen: dict[str, Any]) -> None:
    """F1 by the share of the rare phrases the passages may miss, one line per phrase rarity (a dotted
    line: no relief, the disagreeing bar always applies), and the shares at the chosen rarity."""
    off = [p for p in rows if p.get("held_phrase_share") is None]
    if off:
        ax.axhline(off[0]["f1"], color="black", linestyle=":", label="F1, no relief")
    for share in sorted({p.get("held_phrase_share") for p in rows if p.get("held_phrase_share") is not None}):
        line = sorted((p for p in rows if p.get("held_phrase_share") == share), key=lambda p: p["held_max_missing"])
        xs = [p["held_max_missing"] for p in line]
        ax.plot(xs, [p["f1"] for p in line], label=f"F1, phrases in at most {share} of the chunks", marker=".",
                linewidth=2.5 if share == chosen.get("held_phrase_share") else 1)
        if share == chosen.get("held_phrase_share"):
            for key, name in _SHARES[1:4]:
                ax.plot(xs, [p.get(key) for p in line], label=name, marker=".", linewidth=0.8)
    if chosen.get("held_phrase_share") is not None:
        ax.axvline(chosen["held_max_missing"], color="grey", linestyle="--")
    ax.set(xlabel="held_max_missing (rare question phrases the passages may miss)", ylabel="share", ylim=(0, 1.02),
           title="disagreeing signals, rare phrases held: min_dense")
    if ax.lines:
        ax.legend(fontsize=7)


OTHER_GRID = tuple(round(0.78 + 0.01 * i, 2) for i in range(13))  # 0.78 .. 0.90


def all_signals(answering: Sequence[dict[str, Any]], exclusion: Sequence[dict[str, Any]],
                e2e: Sequence[dict[str, Any]], split: str) -> list[Signal]:
    signals = [s for r in answering for s in signals_from_answering(r, split)]
    # with e2e reports, the questions asked as is come from them (unanswerable ones too): an exclusion
    # report's own normal view would count the same golden questions twice
    views = ("excluded",) if e2e else ("normal", "excluded")
    signals += [s for r in exclusion for s in signals_from_exclusion(r, split, views)]
    signals += [s for r in e2e for s in signals_from_e2e(r, split)]
    return signals


def _on_disagree_line(p: dict[str, Any], disagree: float | None) -> bool:
    """The point has the chosen bar for disagreeing signals, or a single bar at or above it."""
    if disagree is None or p["min_dense"] >= disagree:
        return p.get("min_dense_disagree") is None
    return p.get("min_dense_disagree") == disagree


def _slices(points: Sequence[dict[str, Any]], chosen: dict[str, Any]) -> list[dict[str, Any]]:
    keep = []
    for p in points:
        same_other = p["min_dense_other_language"] == chosen["min_dense_other_language"]
        same_disagree = _on_disagree_line(p, chosen.get("min_dense_disagree"))
        same_coverage = _same(p, chosen, _COVERAGE)
        at_chosen = p["min_dense"] == chosen["min_dense"] and p["min_lexical"] == chosen["min_lexical"]
        exact_disagree = p.get("min_dense_disagree") == chosen.get("min_dense_disagree")
        # one coverage check varied at a time (the subject check's four settings count as one)
        differing = sum(not _same(p, chosen, group) for group in _COVERAGE_GROUPS)
        if not _same(p, chosen, ("subject_max_headings", "subject_scope")) \
                and not _same(p, chosen, ("max_missing_subject", "subject_max_share")):
            differing += 1  # the subject check: weight x share, or headings x scope, at a time
        if (same_other and same_disagree and same_coverage) \
                or (at_chosen and same_coverage and (same_other or same_disagree)) \
                or (at_chosen and same_other and exact_disagree and differing == 1):
            keep.append(p)
    return keep


def _sweep_all(signals: Sequence[Signal], now: Bar, floor: float, per_set: dict[str, int]) -> Bar:
    """Every bar swept (session 5's procedure): the dense, lexical, disagree and coverage bars together
    at today's other-language bar, the subject check and the value gap at those bars, the other
    bars again at the chosen check, then the other-language bar."""
    points = sweep(signals, other_grid=(now.min_dense_other_language,), disagree=True, slot_grid=SLOT_GRID,
                   uncovered_grid=UNCOVERED_GRID)
    first = bar_of(choose(points, floor, per_set))
    points += subject_sweep(signals, first)
    points += phrase_sweep(signals, bar_of(choose(points, floor, per_set)))
    second = bar_of(choose(points, floor, per_set))
    if (second.max_missing_subject, second.max_slot_gap, second.min_dense_phrase) != (None, None, None):
        points += sweep(signals, other_grid=(now.min_dense_other_language,), disagree=True, slot_grid=SLOT_GRID,
                        uncovered_grid=UNCOVERED_GRID, subject=second)
        points += subject_sweep(signals, bar_of(choose(points, floor, per_set)))
        points += phrase_sweep(signals, bar_of(choose(points, floor, per_set)))
    points += defining_sweep(signals, bar_of(choose(points, floor, per_set)))
    points += held_sweep(signals, bar_of(choose(points, floor, per_set)))
    first = bar_of(choose(points, floor, per_set))
    columns = _Columns(signals)
    points += [columns.point(with_subject(first, min_dense_other_language=o))
               for o in OTHER_GRID if o != first.min_dense_other_language]
    return prune(signals, bar_of(choose(points, floor, per_set)), now)


def calibrate(answering: Sequence[dict[str, Any]], exclusion: Sequence[dict[str, Any]], out_json: Path,
              out_png: Path, current: tuple[float, ...] | Bar, e2e: Sequence[dict[str, Any]] = (),
              sweep_all: bool = False) -> dict[str, Any]:
    now = current if isinstance(current, Bar) else Bar(*current)
    signals = all_signals(answering, exclusion, e2e, "dev")
    if not signals:
        raise ValueError("no dev case with recorded signals: run the evals with --calibration first")
    floor = max(0.0, (point(signals, now)["answered_share"] or 0.0) - ANSWERED_SLACK)
    # and no dev set answers fewer of its answerable questions than today: a bar that trades ObliQA
    # answers for golden-set ones is not chosen either
    per_set = point(signals, now)["answered_by_source"]
    columns = _Columns(signals)
    # today's checks are held to the evidence a new one needs: one that changes fewer than
    # MIN_CASES_CHANGED dev outcomes goes, whatever that one case does to F1 (kept, it would be a bar
    # fitted to one question because it was fitted first)
    held = prune(signals, now)
    if sweep_all:
        bar = _sweep_all(signals, held, floor, per_set)
    else:
        # the bars calibrated before stay as they are; only the checks not on yet are swept at them
        points = phrase_sweep(signals, held) + defining_sweep(signals, held) + held_sweep(signals, held)
        bar = prune(signals, bar_of(choose(points, floor, per_set)), held)
    bar = no_worse_than_today(signals, bar, held)
    points = [columns.point(now)]
    # the curves through the final setting (pruning may have moved it off the points swept so far)
    points += subject_sweep(signals, bar) + phrase_sweep(signals, bar) + defining_sweep(signals, bar)
    points += held_sweep(signals, bar)
    points += sweep(signals, other_grid=(bar.min_dense_other_language,), disagree=True, slot_grid=SLOT_GRID,
                    uncovered_grid=UNCOVERED_GRID, subject=bar)
    points += [columns.point(with_subject(bar, min_dense_other_language=o)) for o in OTHER_GRID]
    chosen = columns.point(bar)
    if chosen not in points:
        points.append(chosen)
    # the test halves, read at the current and the chosen values only: never looked at to choose
    held_out = all_signals(answering, exclusion, e2e, "test")
    counts: dict[str, int] = {}
    for s in signals:
        counts[f"{s.source}_{s.view}"] = counts.get(f"{s.source}_{s.view}", 0) + 1
    result = {
        "what": "answer/refuse thresholds of the offline model (bot.offline.span_scoring MIN_DENSE, MIN_LEXICAL, "
                "MIN_DENSE_OTHER_LANGUAGE, MIN_DENSE_DISAGREE, and the evidence-coverage bars MIN_DENSE_SLOT, "
                "MAX_UNCOVERED; bot.offline.subject_terms MAX_MISSING_SUBJECT, SUBJECT_MAX_SHARE, "
                "SUBJECT_MAX_HEADINGS, MAX_SLOT_GAP)",
        "method": __doc__.split("\n\n", 1)[1].strip(),
        "dev_signals": {"total": len(signals), **dict(sorted(counts.items()))},
        "inputs": [r.get("command", r.get("benchmark", "")) for r in [*answering, *exclusion, *e2e]],
        "current": point(signals, now),
        "current_held_to_evidence": point(signals, held),
        "chosen": chosen,
        "min_answered_share": floor,
        "dev_by_source_at_current": by_source(signals, now),
        "dev_by_source_at_chosen": by_source(signals, bar),
        "test_cases": len(held_out),
        "test_at_current": point(held_out, now) if held_out else None,
        "test_at_chosen": point(held_out, bar) if held_out else None,
        "test_by_source_at_current": by_source(held_out, now) if held_out else None,
        "test_by_source_at_chosen": by_source(held_out, bar) if held_out else None,
        "value_check": {"dev": value_check(signals, bar), "test": value_check(held_out, bar) if held_out else None},
        "curve_note": "curve: every (min_dense, min_lexical) at the chosen other-language, disagree and coverage "
                      "bars; every other-language and disagree bar at the chosen (min_dense, min_lexical); every "
                      "coverage bar (min_dense_slot, max_uncovered) with the other one and the rest as chosen",
        "curve": _slices(points, chosen),
    }
    out_json.parent.mkdir(parents=True, exist_ok=True)
    out_json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    plot(points, chosen, out_png, f"Offline model answer/refuse sweep, dev only ({len(signals)} cases)")
    return result
