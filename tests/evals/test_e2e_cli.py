"""`rulebook eval e2e` end to end on the session's sample index: the JSON object the brief asks
for, repeats with flips, and a baseline written then compared against."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from adapters.cli import app

REQUIRED = ("citation_correctness", "answered", "refused", "blocked", "correct_refusals", "unsupported_sentences",
            "must_contain_rate", "retrieval_hit_rate", "questions")


def _run(args: list[str]) -> dict:
    result = CliRunner().invoke(app, ["eval", "e2e", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_report_repeat_and_baseline(cli_env, tmp_path):
    baseline = tmp_path / "baseline.json"
    args = ["--corpus", "sample", "--only", "s-ps04-01", "--only", "s-ps08-04", "--only", "s-no-08", "--json",
            "--baseline", str(baseline)]
    first = _run([*args, "--repeat", "2", "--write-baseline"])
    for key in REQUIRED:
        assert key in first, key
    assert [q["id"] for q in first["questions"]] == ["s-ps04-01", "s-ps08-04", "s-no-08"]
    assert first["repeats"] == 2 and first["flips"] == {}  # the offline model is deterministic
    assert first["correct_refusals"] == 1.0 and first["unsupported_sentences"] == 0
    assert all(d["baseline"] is None for d in first["deltas"].values())
    stored = json.loads(baseline.read_text(encoding="utf-8"))
    assert set(stored["questions"]) == {"s-ps04-01", "s-ps08-04", "s-no-08"}

    second = _run(args)
    assert second["deltas"]["citation_correctness"]["baseline"] == first["citation_correctness"]
    assert second["deltas"]["citation_correctness"]["delta"] == 0
    assert second["question_changes"] == {"newly_passing": [], "newly_failing": [], "new_questions": []}


def test_bad_options_are_refused_clearly(cli_env, tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["eval", "e2e", "--only", "no-such-question"])
    assert result.exit_code == 2 and "no such question id" in result.output
    result = runner.invoke(app, ["eval", "e2e", "--persona", "astronaut"])
    assert result.exit_code != 0 and "unknown persona" in result.output
    bad = tmp_path / "e2e_bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    result = runner.invoke(app, ["eval", "e2e", "--golden", str(bad)])
    assert result.exit_code == 2 and "e2e_bad.jsonl:1" in result.output
