"""`rulebook eval e2e` and `rulebook eval retrieval` report the dev and test parts side by side,
with the gap, pick a part with `--split`, and still compare against baselines written before the
split existed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adapters.cli import app
from evals.e2e_golden import load_golden
from evals.e2e_report import DEFAULT_BASELINE, kind_gaps, load_baseline, split_deltas
from evals.retrieval import DEFAULT_GOLDEN, evaluate_golden, render_report
from evals.retrieval import load_golden as load_retrieval_golden
from knowledge.knowledge_base import KnowledgeBase


def _pick() -> list[str]:
    """Two answerable and one unanswerable sample question from each part."""
    sample = [q for q in load_golden() if q.corpus == "sample" and not q.history and not q.roles]
    ids: list[str] = []
    for split in ("dev", "test"):
        part = [q for q in sample if q.split == split]
        ids += [q.id for q in part if q.answerable][:2] + [q.id for q in part if not q.answerable][:1]
    return ids


def _run(args: list[str]) -> dict:
    result = CliRunner().invoke(app, ["eval", "e2e", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_dev_and_test_side_by_side_against_old_and_new_baselines(cli_env, tmp_path):
    ids = _pick()
    only = [a for i in ids for a in ("--only", i)]
    old = tmp_path / "old.json"
    committed = json.loads(DEFAULT_BASELINE.read_text(encoding="utf-8"))
    committed.pop("splits", None)  # a baseline written before the split existed
    old.write_text(json.dumps(committed), encoding="utf-8")
    report = _run(["--corpus", "sample", *only, "--json", "--baseline", str(old)])
    splits = report["splits"]
    assert splits["dev"]["question_count"] == 3 and splits["test"]["question_count"] == 3
    assert splits["unsplit"] == 0
    for metric in ("citation_expected_rate", "answerable_answered", "correct_refusals", "must_contain_all",
                   "retrieval_hit_rate"):
        dev, test = splits["dev"][metric], splits["test"][metric]
        assert splits["gap"][metric] == pytest.approx(dev - test, abs=1e-4)
    assert report["baseline_has_splits"] is False and report["split_deltas"] == {"dev": None, "test": None}
    assert report["deltas"]["citation_correctness"]["baseline"] == committed["summary"]["citation_correctness"]

    new = tmp_path / "new.json"
    _run(["--corpus", "sample", *only, "--json", "--baseline", str(new), "--write-baseline"])
    stored = json.loads(new.read_text(encoding="utf-8"))
    assert stored["splits"]["dev"]["question_count"] == 3 and "by_kind" not in stored["splits"]["dev"]
    again = _run(["--corpus", "sample", *only, "--json", "--baseline", str(new)])
    assert again["baseline_has_splits"] is True
    assert again["split_deltas"]["test"]["correct_refusals"]["delta"] == 0

    text = CliRunner().invoke(app, ["eval", "e2e", "--corpus", "sample", *only, "--baseline", str(old)])
    assert text.exit_code == 0, text.output
    assert "dev / test" in text.stdout and "gap = dev - test" in " ".join(text.stdout.split())
    assert "baseline has no split figures" in text.stdout
    assert "passed by kind" in text.stdout  # where dev and test part, kind by kind
    assert [row["kind"] for row in report["kind_gaps"]] and stored["kind_gaps"] == again["kind_gaps"]


def test_split_option_asks_one_part_only(cli_env):
    ids = _pick()
    report = _run(["--corpus", "sample", *[a for i in ids for a in ("--only", i)][:8], "--split", "test", "--json"])
    by_id = {q.id: q for q in load_golden()}
    assert report["questions"] and all(by_id[q["id"]].split == "test" for q in report["questions"])
    assert "dev" not in report["splits"] and "gap" not in report["splits"]


def test_bad_split_and_corpus_are_refused(cli_env):
    runner = CliRunner()
    result = runner.invoke(app, ["eval", "e2e", "--split", "train"])
    assert result.exit_code == 2 and "dev, test or all" in result.output
    result = runner.invoke(app, ["eval", "e2e", "--corpus", "sample,moon"])
    assert result.exit_code == 2 and "unknown corpus moon" in result.output
    result = runner.invoke(app, ["eval", "retrieval", "--split", "both"])
    assert result.exit_code == 2 and "dev, test or all" in result.output


def test_baselines_without_splits_still_load(tmp_path):
    old = json.loads(DEFAULT_BASELINE.read_text(encoding="utf-8"))
    old.pop("splits", None)  # as written before the split existed
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    base = load_baseline(path)
    assert base is not None and split_deltas({"dev": {"answered": 1.0}}, base) == {"dev": None}
    committed = load_baseline(DEFAULT_BASELINE)
    assert committed is not None and set(committed["splits"]) >= {"dev", "test"}


def test_retrieval_eval_reports_each_part_and_the_gap(sample_index, cli_env):
    items = load_retrieval_golden(DEFAULT_GOLDEN)
    chosen = [i for i in items if i.split == "dev"][:3] + [i for i in items if i.split == "test"][:3]
    knowledge = KnowledgeBase.from_settings(sample_index)
    try:
        report = evaluate_golden(knowledge, chosen, modes={"bm25": "bm25"})
    finally:
        knowledge.close()
    row = report["modes"]["bm25"]
    assert report["split_counts"] == {"dev": 3, "test": 3}
    assert row["splits"]["dev"]["questions"] == row["splits"]["test"]["questions"] == 3
    assert row["splits"]["gap"]["hit_at_10"] == pytest.approx(
        row["splits"]["dev"]["hit_at_10"] - row["splits"]["test"]["hit_at_10"], abs=1e-4)
    assert row["hit_at_10"] == pytest.approx((row["splits"]["dev"]["hit_at_10"] + row["splits"]["test"]["hit_at_10"]) / 2,
                                             abs=1e-3)
    text = render_report(report)
    assert "dev" in text and "gap" in text

    result = CliRunner().invoke(app, ["eval", "retrieval", "--split", "test", "--limit", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["split_counts"] == {"dev": 0, "test": 2} and data["split_asked"] == "test"


def test_a_retrieval_line_with_a_bad_split_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"id": "a", "question": "q", "rulebook_id": "PS-01", "page": 1, "split": "x"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(ValueError, match="split must be dev or test"):
        load_retrieval_golden(path)


def test_kind_gaps_put_the_kind_that_passes_far_more_on_dev_first():
    splits = {
        "dev": {"by_kind": {"table": {"questions": 10, "passed": 9}, "fact": {"questions": 4, "passed": 2},
                            "limit": {"questions": 2, "passed": 1}}},
        "test": {"by_kind": {"table": {"questions": 10, "passed": 5}, "fact": {"questions": 4, "passed": 3},
                             "whole_section": {"questions": 1, "passed": 0}}},
    }
    rows = kind_gaps(splits)
    assert [r["kind"] for r in rows] == ["table", "fact", "limit", "whole_section"]
    # forty points on ten questions a side: its interval still reaches just below 0, so not beyond chance
    assert rows[0] == {"kind": "table", "dev": "9/10", "test": "5/10", "gap": 0.4,
                       "gap_interval": [-0.0024, 0.6759], "beyond_chance": False}
    assert rows[1]["gap"] == -0.25  # passes more often on test: not a sign of tuning
    assert rows[2]["test"] == "0/0" and rows[2]["gap"] is None  # asked in one part only: no gap to read
    assert kind_gaps({"test": splits["test"]}) == [] and kind_gaps(None) == []
