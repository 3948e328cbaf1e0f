"""Many users at once against a real `rulebook serve`, over Teams and Slack, on loopback only.

    python benchmarks/load.py [--levels 5,25,50,100] [--questions 100] [--level-seconds 240]
                              [--data-dir DIR] [--url http://127.0.0.1:PORT --connector-url … --slack-api-url …]

What it does
- Starts `rulebook serve` (unless `--url` names a running one, which must then be configured with
  this run's stand-ins) on the sample corpus with the offline model: a data dir of its own under
  /tmp, indexed once with `rulebook index` (the embedding cache of earlier runs is reused when
  given with --embedding-cache). Teams is unauthenticated (loopback), Slack has a random signing
  secret and its Web API pointed at the stand-in.
- Local stand-ins record what the bot sends: a Bot Connector (`benchmarks/load_standins.py`) for
  Teams personal chats, a Slack Web API for @mentions in a channel thread. Only HTTP is spoken.
- Baseline: the same questions asked one at a time (one Teams user, then one Slack user).
- Per level N: N users (half Teams, half Slack), each asking its next question as soon as its
  previous one is answered, until `--questions` answers have been asked at that level or
  `--level-seconds` have passed (bounded in requests and time).
Per level and platform it prints: answers failed (no final reply within the per-answer limit,
or a final that says something went wrong, or "busy"), first visible reply p50/p95 (the first
text the user sees: informative update, placeholder or streamed text), final p50/p95, the
server's peak RSS, CPU seconds per answer (server process, user + system), and the machine's
load average (other work on the machine skews every figure: read them together).
The questions repeat (the sample golden set has 87; the serial baseline and every level draw from
it), so the server runs with `RULEBOOK_QUESTION_CACHES=false`: nothing keyed on a question's text
(search results, query vectors) outlives its answer, and every answer is real work. Caches keyed
on chunk content stay on. `--question-caches` measures with them, to be printed beside.
Before the baseline every question is asked once, serially ("warm-up" row): the offline model
embeds the sentences of each chunk it reads the first time (~0.5-1 CPU-s an answer on a fresh
data dir) and keeps their vectors by content hash, so the warm-up row is the cold cost and the
rows after it are a server that has been answering over this corpus for a while (`--cold`
skips it).
`--json FILE` writes every outcome with its timeline: when each call of the answer reached the
stand-in (Teams: informative / streaming / final; Slack: the method), which shows what the final
answer waited for (an update shown less than an interval before it holds it back).
Targets on 2 cores, offline model: 0 failed at every level; at 25 users final p95 <= 3 s;
RSS <= 1 GB at 100 users.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.load_standins import (  # noqa: E402
    ConnectorRecorder,
    Recorded,
    SlackApiRecorder,
    answer_text,
    sign_slack,
    slack_final,
    slack_visible,
    teams_final,
    teams_visible,
)

GOLDEN = REPO / "evals" / "golden" / "e2e_sample.jsonl"
SAMPLE_CORPUS = REPO / "examples" / "rulebooks"
FAILURE_MARKS = ("Something went wrong", "something went wrong", "could not search the rulebooks",
                 "could not write an answer", "could not start", "try again in a moment")
ANSWER_LIMIT = 60.0  # seconds one answer may take before it counts as failed


def questions() -> list[str]:
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["question"] for row in rows]


# --- the server --------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_data_dir(data_dir: Path, embedding_cache: Path | None) -> None:
    if (data_dir / "qdrant").exists():
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    if embedding_cache and embedding_cache.is_file():
        import sqlite3

        src, dst = sqlite3.connect(embedding_cache), sqlite3.connect(data_dir / "embedding_cache.sqlite")
        src.backup(dst)
        src.close()
        dst.close()
    print(f"indexing the sample corpus into {data_dir} …", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "adapters.cli", "index", str(SAMPLE_CORPUS), "--json"],
                   env={**os.environ, "RULEBOOK_DATA_DIR": str(data_dir)}, check=True,
                   stdout=subprocess.DEVNULL, cwd=REPO)


@dataclass
class Server:
    url: str
    pid: int | None
    process: subprocess.Popen | None = None
    log_path: Path | None = None

    def rss_mb(self) -> float:
        if self.pid is None:
            return float("nan")
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_seconds(self) -> float:
        if self.pid is None:
            return float("nan")
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


async def start_server(data_dir: Path, connector_url: str, slack_api_url: str, secret: str,
                       log_path: Path, question_caches: bool = False) -> Server:
    port = free_port()
    env = {**os.environ, "RULEBOOK_DATA_DIR": str(data_dir), "RULEBOOK_CHAT_MODEL": "offline",
           "RULEBOOK_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}", "RULEBOOK_TEAMS_APP_ID": "",
           "RULEBOOK_SLACK_SIGNING_SECRET": secret, "RULEBOOK_SLACK_BOT_TOKEN": "xoxb-load-benchmark",
           "RULEBOOK_SLACK_API_URL": slack_api_url, "RULEBOOK_TABLES_CONNECTION_STRING": "",
           "RULEBOOK_QUESTION_CACHES": "true" if question_caches else "false",
           "NO_PROXY": "127.0.0.1", "PYTHONPATH": os.environ.get("PYTHONPATH", str(REPO))}
    out = log_path.open("w")
    process = subprocess.Popen([sys.executable, "-m", "adapters.cli", "serve", "--host", "127.0.0.1",
                                "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit(f"rulebook serve exited: see {log_path}")
            try:
                async with session.get(f"{url}/healthz") as response:
                    if response.status == 200:
                        return Server(url, process.pid, process, log_path)
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.3)
    process.kill()
    raise SystemExit(f"rulebook serve did not come up in time: see {log_path}")


# --- one question over each platform -----------------------------------------------------------

@dataclass
class Outcome:
    platform: str
    question: str
    first_visible: float | None = None
    final: float | None = None
    failed: str = ""  # why, when it failed
    text: str = ""
    timeline: list[tuple[float, str]] = field(default_factory=list)  # (seconds, what) of each call recorded


@dataclass
class Clients:
    server_url: str
    connector: ConnectorRecorder
    connector_url: str
    slack: SlackApiRecorder
    secret: str
    session: aiohttp.ClientSession
    ids: int = 0
    run_stamp: int = field(default_factory=lambda: int(time.time()))

    def next_id(self) -> int:
        self.ids += 1
        return self.ids


async def _wait_final(recorder, key: str, final_of, visible, started: float) -> tuple[Recorded | None, float | None]:
    first: float | None = None
    deadline = started + ANSWER_LIMIT
    while time.monotonic() < deadline:
        calls = recorder.calls.get(key, [])
        if first is None:
            seen = next((c for c in calls if visible(c)), None)
            if seen is not None:
                first = seen.at - started
        final = final_of(calls)
        if final is not None:
            return final, first
        recorder.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(recorder.changed.wait(), 0.5)
    return None, first


async def ask_teams(clients: Clients, question: str, user: int) -> Outcome:
    n = clients.next_id()
    conversation = f"a:load-{clients.run_stamp}-{user}-{n}"  # a fresh history, even in a reused data dir
    activity = {"type": "message", "id": f"in-{n}", "channelId": "msteams", "serviceUrl": clients.connector_url,
                "timestamp": "2026-12-01T10:00:00.000Z", "text": question, "textFormat": "plain", "locale": "en-US",
                "from": {"id": f"29:user-{user}", "name": f"User {user}", "aadObjectId": f"aad-load-{user}"},
                "recipient": {"id": "28:rulebook-bot", "name": "Rulebook"},
                "conversation": {"id": conversation, "conversationType": "personal", "tenantId": "tenant-load"},
                "channelData": {"tenant": {"id": "tenant-load"}}}
    return await _ask(clients, Outcome("teams", question), "/api/messages", {"json": activity},
                      clients.connector, conversation, teams_final, teams_visible)


async def ask_slack(clients: Clients, question: str, user: int) -> Outcome:
    n = clients.next_id()
    ts = f"{clients.run_stamp}.{n:06d}"  # unique per run: the server dedupes Slack events it has seen
    body = json.dumps({
        "token": "unused", "team_id": "T0LOAD", "api_app_id": "A0LOAD", "type": "event_callback",
        "event_id": f"EvLOAD{clients.run_stamp}{n:08d}", "event_time": int(time.time()),
        "event": {"type": "app_mention", "user": f"U0LOAD{user}", "text": f"<@U0BOT> {question}", "ts": ts,
                  "channel": "C0LOAD", "event_ts": ts},
        "authorizations": [{"team_id": "T0LOAD", "user_id": "U0BOT", "is_bot": True}],
        "is_ext_shared_channel": False})
    stamp = int(time.time())
    headers = {"Content-Type": "application/json", "X-Slack-Request-Timestamp": str(stamp),
               "X-Slack-Signature": sign_slack(body, clients.secret, stamp)}
    return await _ask(clients, Outcome("slack", question), "/slack/events",
                      {"data": body.encode(), "headers": headers}, clients.slack, ts, slack_final, slack_visible)


async def _ask(clients: Clients, outcome: Outcome, path: str, request: dict, recorder, key: str,
               final_of, visible) -> Outcome:
    """Post one question the way its platform delivers it, then wait for what the stand-in records."""
    started = time.monotonic()
    try:
        async with clients.session.post(f"{clients.server_url}{path}", **request) as response:
            if response.status >= 300:
                outcome.failed = f"HTTP {response.status}"
                return outcome
    except aiohttp.ClientError as exc:
        outcome.failed = f"{type(exc).__name__}"
        return outcome
    final, first = await _wait_final(recorder, key, final_of, visible, started)
    outcome.timeline = [(round(c.at - started, 3), _call_kind(c)) for c in recorder.calls.get(key, [])]
    return _conclude(outcome, final, first, started)


def _call_kind(call: Recorded) -> str:
    """Slack: the method; Teams: the activity type and stream type (informative, streaming, final)."""
    info = next((e for e in call.body.get("entities") or [] if e.get("type") == "streaminfo"), None)
    return f"{call.kind} {call.body.get('type', '')} {(info or {}).get('streamType', '')}".strip()


def _conclude(outcome: Outcome, final: Recorded | None, first: float | None, started: float) -> Outcome:
    outcome.first_visible = first
    if final is None:
        outcome.failed = f"no final reply within {ANSWER_LIMIT:g} s"
        return outcome
    outcome.final = final.at - started
    outcome.text = answer_text(final)
    for mark in FAILURE_MARKS:
        if mark in outcome.text:
            outcome.failed = "busy" if "moment" in mark else f"says: {mark}"
    return outcome


# --- levels ----------------------------------------------------------------------------------

@dataclass
class Level:
    users: int
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    rss_peak_mb: float = 0.0
    cpu_seconds: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)


async def run_serial(clients: Clients, server: Server, asked: list[str]) -> Level:
    level = Level(users=1)
    cpu0, started = server.cpu_seconds(), time.monotonic()
    for i, question in enumerate(asked):
        ask = ask_teams if i % 2 == 0 else ask_slack
        level.outcomes.append(await ask(clients, question, 0))
        level.rss_peak_mb = max(level.rss_peak_mb, server.rss_mb())
    level.seconds = time.monotonic() - started
    level.cpu_seconds = server.cpu_seconds() - cpu0
    level.load = os.getloadavg()
    return level


async def run_level(clients: Clients, server: Server, users: int, pool: list[str], budget: int,
                    seconds: float) -> Level:
    level = Level(users=users)
    cpu0, started = server.cpu_seconds(), time.monotonic()
    deadline = started + seconds
    handed = 0

    async def user(u: int) -> None:
        nonlocal handed
        ask = ask_teams if u % 2 == 0 else ask_slack
        while handed < budget and time.monotonic() < deadline:
            question = pool[handed % len(pool)]
            handed += 1
            level.outcomes.append(await ask(clients, question, u))

    async def sample_rss() -> None:
        while True:
            level.rss_peak_mb = max(level.rss_peak_mb, server.rss_mb())
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample_rss())
    await asyncio.gather(*(user(u) for u in range(users)))
    sampler.cancel()
    level.seconds = time.monotonic() - started
    level.cpu_seconds = server.cpu_seconds() - cpu0
    level.load = os.getloadavg()
    return level


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def rows(name: str, level: Level) -> list[list[str]]:
    out = []
    for platform in ("teams", "slack", "all"):
        group = [o for o in level.outcomes if platform == "all" or o.platform == platform]
        if not group:
            continue
        failed = [o for o in group if o.failed]
        firsts = [o.first_visible for o in group if o.first_visible is not None and not o.failed]
        finals = [o.final for o in group if o.final is not None and not o.failed]
        answers = len(group)
        out.append([name if platform == "teams" else "", platform, str(answers), str(len(failed)),
                    f"{pct(firsts, .5):.2f}", f"{pct(firsts, .95):.2f}", f"{pct(finals, .5):.2f}",
                    f"{pct(finals, .95):.2f}",
                    f"{level.rss_peak_mb:.0f}" if platform == "all" else "",
                    f"{level.cpu_seconds / max(1, answers):.3f}" if platform == "all" else "",
                    " ".join(f"{x:.1f}" for x in level.load) if platform == "all" else ""])
    return out


HEADER = ["users", "platform", "answers", "failed", "first p50", "first p95", "final p50", "final p95",
          "RSS MB", "CPU s/answer", "load 1/5/15"]


def print_table(table: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [HEADER, *table]) for i in range(len(HEADER))]
    for r in [HEADER, ["-" * w for w in widths], *table]:
        print(" | ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="5,25,50,100")
    parser.add_argument("--questions", type=int, default=100, help="answers asked per level (bound)")
    parser.add_argument("--level-seconds", type=float, default=240.0, help="time bound per level")
    parser.add_argument("--serial", type=int, default=20, help="questions in the serial baseline")
    parser.add_argument("--data-dir", type=Path, default=None, help="indexed data dir (default: a fresh one)")
    parser.add_argument("--embedding-cache", type=Path,
                        default=Path.home() / ".cache" / "rulebook-tests" / "embedding_cache.sqlite")
    parser.add_argument("--url", default=None, help="drive this running server instead of starting one")
    parser.add_argument("--signing-secret", default=None, help="with --url: its Slack signing secret")
    parser.add_argument("--connector-port", type=int, default=0, help="with --url: where its stand-ins listen")
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome here")
    parser.add_argument("--cold", action="store_true",
                        help="skip the warm-up pass (every question once, serially) before the baseline")
    parser.add_argument("--question-caches", action="store_true",
                        help="keep caches keyed on a question's text across answers (off by default: the "
                             "benchmark repeats its questions)")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x.strip()]

    connector, slack = ConnectorRecorder(), SlackApiRecorder()
    connector_url, slack_url = await connector.start(), await slack.start()
    secret = args.signing_secret or secrets.token_hex(16)
    workdir = Path(tempfile.mkdtemp(prefix="rulebook-load-"))
    if args.url:
        server = Server(args.url.rstrip("/"), None)
        print(f"driving {server.url}: it must use RULEBOOK_SLACK_API_URL={slack_url} and this signing "
              "secret; RSS and CPU are not measured", file=sys.stderr)
    else:
        data_dir = args.data_dir or workdir / "data"
        prepare_data_dir(data_dir, args.embedding_cache)
        server = await start_server(data_dir, connector_url, slack_url, secret, workdir / "serve.log",
                                    question_caches=args.question_caches)
    pool = questions()
    table: list[list[str]] = []
    everything: dict[str, list[dict]] = {}
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            clients = Clients(server.url, connector, connector_url, slack, secret, session)
            await ask_teams(clients, "warm up: what is a chargeback?", 0)  # loads the models once
            if not args.cold:
                # every question once, one at a time: the offline model's span vectors (keyed on chunk
                # content, kept in the data dir's embedding cache) get embedded, as on a server that has
                # been answering over this corpus for a while; shown as its own row (the cold cost)
                warm = await run_serial(clients, server, pool)
                table += rows("warm-up", warm)
                print_table(table)
            serial = await run_serial(clients, server, pool[:args.serial])
            table += rows("serial", serial)
            everything["serial"] = [o.__dict__ for o in serial.outcomes]
            print_table(table)
            for users in levels:
                level = await run_level(clients, server, users, pool, args.questions, args.level_seconds)
                table += rows(str(users), level)
                everything[str(users)] = [o.__dict__ for o in level.outcomes]
                print(f"\nafter {users} users ({level.seconds:.0f} s):", file=sys.stderr)
                failures = [o for o in level.outcomes if o.failed]
                for o in failures[:5]:
                    print(f"  failed ({o.platform}): {o.failed}: {o.question}", file=sys.stderr)
                print_table(table)
    finally:
        server.stop()
        await connector.stop()
        await slack.stop()
    caches = "on" if args.question_caches else "off (every answer searched and embedded afresh)"
    print(f"\n{os.cpu_count()} CPUs; offline model; question-keyed caches {caches}; serve log: {server.log_path}")
    if args.json:
        args.json.write_text(json.dumps(everything, ensure_ascii=False, indent=1), encoding="utf-8")
    if not args.data_dir and not args.url:
        shutil.rmtree(workdir / "data", ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
