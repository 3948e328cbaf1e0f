"""What an event costs the answer path: `EventLog.emit()` versus writing to the store inline.

    python benchmarks/event_log_bench.py [--events 1000] [--tables CONNECTION_STRING]

For each store (SQLite under a temp dir; Table Storage when a connection string is given, e.g.
Azurite's), prints: the caller's time per event with `emit()` (median and p99, microseconds),
the time until the background writer has everything in the store (events per second), and the
caller's time per event when it writes each event to the store itself.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.event_log import EventLog  # noqa: E402
from events.event_store_sqlite import SqliteEventStore  # noqa: E402
from events.usage_event import UsageEvent  # noqa: E402


def _events(n: int) -> list[UsageEvent]:
    return [UsageEvent("tool_call", f"conv-{i % 20}", f"m{i}", "user", "teams",
                       {"name": "search_rulebooks", "args": {"query": "fee cap"}, "result_chars": 4000, "ms": 9.5})
            for i in range(n)]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(name: str, make_store, n: int, spill_dir: Path) -> None:
    event_log = EventLog(make_store(), spill_dir)
    costs = []
    started = time.perf_counter()
    for event in _events(n):
        t = time.perf_counter()
        event_log.emit(event)
        costs.append((time.perf_counter() - t) * 1e6)
    event_log.flush(None)
    drained = time.perf_counter() - started
    event_log.close()

    store = make_store()
    inline = []
    for event in _events(min(n, 200)):
        t = time.perf_counter()
        store.write([event])
        inline.append((time.perf_counter() - t) * 1e6)
    store.close()
    print(f"{name:>8}: emit() median {statistics.median(costs):7.1f} µs, p99 {_percentile(costs, 0.99):8.1f} µs | "
          f"all {n} in the store after {drained:5.2f} s ({n / drained:6.0f} events/s) | "
          f"inline write median {statistics.median(inline):8.1f} µs, p99 {_percentile(inline, 0.99):8.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--tables", help="Table Storage connection string (e.g. Azurite's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        measure("sqlite", lambda: SqliteEventStore(root / "events.sqlite"), args.events, root / "spill-sqlite")
        if args.tables:
            from events.event_store_table_storage import TableEventStore

            prefix = "bench" + uuid.uuid4().hex[:8]
            measure("tables", lambda: TableEventStore(args.tables, table_prefix=prefix), args.events,
                    root / "spill-tables")


if __name__ == "__main__":
    main()
