"""Answer latency of the offline model on the sample corpus: time to first token and to the final event.

    python benchmarks/answer.py [--data-dir DIR] [--rounds 3]

Every question goes through `AssistantService.ask` exactly as a front end calls it (agent loop,
zoom tools, citation gate). Per question we take, from the service's own usage events:
- first token: from the call to the first TokenEvent;
- final: from the call to the FinalEvent;
- model: time inside the chat model (for the offline model, its planning: choosing and
  embedding sentences); tools: time inside the zoom tools (retrieval);
- overhead: final − model − tools, i.e. what the agent loop, the gate and the service cost.
Round 1 is cold (sentence embeddings not yet cached); later rounds are warm. The knowledge
layer's 10-second result cache is switched off so that every round really searches.
Targets on 2 cores: first token p95 < 1 s, complete answer p95 < 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.agent.chat_models import load_chat_model  # noqa: E402
from bot.answer import FinalEvent, TokenEvent, User  # noqa: E402
from bot.memory.history import InMemoryHistoryStore  # noqa: E402
from bot.memory.review_queue import InMemoryReviewQueue  # noqa: E402
from bot.service import AssistantService  # noqa: E402
from config.settings import Settings, get_settings  # noqa: E402
from events.usage_sinks import InMemorySink  # noqa: E402

QUESTIONS = [
    "Can I pay with my fridge?",
    "What is the limit per transaction for a connected refrigerator?",
    "Can I pay with cufflinks?",
    "What is the refund processing fee for card transactions?",
    "What does a recall cost?",
    "What is the annual participation fee of a direct participant?",
    "How long is a Device Certificate valid?",
    "What does Visa charge for a refund?",
    "Quelle est la limite par transaction pour Aurora QR ?",
    "Mag ik betalen met een koelkast?",
    "Puis-je payer avec mon réfrigérateur ?",
    "What is the filing fee for arbitration?",
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


async def run(settings: Settings, rounds: int) -> None:
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(settings)
    knowledge.searcher.cache_seconds = 0.0
    if knowledge.store.count() == 0:
        sys.exit(f"the index in {settings.data_dir} is empty: run `rulebook index examples/rulebooks` first")
    sink = InMemorySink()
    service = AssistantService(knowledge, load_chat_model("offline", knowledge), settings=settings,
                               history=InMemoryHistoryStore(), events=sink, review=InMemoryReviewQueue())
    rows: dict[int, list[dict[str, float]]] = {}
    outcomes: dict[str, str] = {}
    for round_no in range(1, rounds + 1):
        for i, question in enumerate(QUESTIONS):
            start = time.perf_counter()
            first: float | None = None
            final: FinalEvent | None = None
            async for event in service.ask(question, User(id="bench"), f"bench-{round_no}-{i}"):
                if isinstance(event, TokenEvent) and first is None:
                    first = time.perf_counter() - start
                if isinstance(event, FinalEvent):
                    final = event
            total = time.perf_counter() - start
            data = sink.of_kind("answer")[-1].data
            rows.setdefault(round_no, []).append({
                "first": first if first is not None else total, "final": total,
                "model": data["model_ms"] / 1000, "tools": data["tool_ms"] / 1000,
                "overhead": total - data["model_ms"] / 1000 - data["tool_ms"] / 1000})
            outcomes[question] = final.answer.outcome if final else "none"

    def report(label: str, sample: list[dict[str, float]]) -> None:
        print(f"\n{label} ({len(sample)} answers)")
        print(f"{'':12}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
        for key in ("first", "final", "model", "tools", "overhead"):
            values = [r[key] * 1000 for r in sample]
            print(f"{key:12}{percentile(values, .5):10.0f}{percentile(values, .95):10.0f}{max(values):10.0f}")

    print(f"offline model, {len(QUESTIONS)} questions x {rounds} rounds, index {settings.data_dir}")
    report("round 1 (cold sentence embeddings)", rows[1])
    warm = [r for n, sample in rows.items() if n > 1 for r in sample]
    if warm:
        report(f"rounds 2-{rounds} (warm)", warm)
    report("all rounds", [r for sample in rows.values() for r in sample])
    print("\noutcomes:", ", ".join(f"{q[:40]!r}: {o}" for q, o in outcomes.items()))
    knowledge.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    settings = get_settings()
    if args.data_dir:
        settings = settings.model_copy(update={"data_dir": args.data_dir})
    asyncio.run(run(settings, args.rounds))


if __name__ == "__main__":
    main()
