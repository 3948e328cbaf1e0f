"""The golden set through promptfoo (npm), offline: the Python provider asks the real assistant
and the deterministic assertions (source cited, must-contain, refusal) decide.

promptfoo lives in .ci/node (see the report line for .ci/run); without it the test is skipped
on a developer machine and fails in CI (CI=true), where it must be installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from knowledge.store_copy import copy_store_dir

REPO = Path(__file__).resolve().parents[2]
PROMPTFOO = REPO / ".ci" / "node" / "node_modules" / ".bin" / "promptfoo"
IDS = ("s-ps04-01", "s-ps02-04", "s-no-01")


def _promptfoo() -> Path:
    if PROMPTFOO.exists() and shutil.which("node"):
        return PROMPTFOO
    message = (f"promptfoo is not installed at {PROMPTFOO} (bash scripts/test.sh installs it with Node 24) "
               "or node is missing")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def test_promptfoo_runs_the_golden_set_offline(sample_index, tmp_path):
    binary = _promptfoo()
    # The embedded store admits one process at a time; the provider runs in promptfoo's own
    # Python process, so it gets a copy of the session's index.
    data_dir = tmp_path / "data"
    copy_store_dir(sample_index.data_dir, data_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULEBOOK_", "PROMPTFOO_"))}
    env.update({
        "PROMPTFOO_DISABLE_TELEMETRY": "1", "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_DISABLE_SHARING": "1",
        "PROMPTFOO_CONFIG_DIR": str(tmp_path / "promptfoo-home"), "PROMPTFOO_PYTHON": sys.executable,
        "RULEBOOK_DATA_DIR": str(data_dir), "RULEBOOK_CHAT_MODEL": "offline",
        "RULEBOOK_PROMPTFOO_IDS": ",".join(IDS), "NO_COLOR": "1",
    })
    out = tmp_path / "results.json"
    proc = subprocess.run(
        [str(binary), "eval", "-c", str(REPO / "evals" / "promptfooconfig.yaml"), "--no-share", "--no-cache",
         "--no-write", "--no-progress-bar", "-o", str(out)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    results = report["results"]["results"]
    assert sorted(r["vars"]["id"] for r in results) == sorted(IDS)
    for r in results:
        assert r.get("error") in (None, ""), r.get("error")
        metrics = {c["assertion"].get("metric") for c in r["gradingResult"]["componentResults"]}
        if r["vars"]["id"] == "s-no-01":
            assert metrics == {"refusal"}
        else:
            assert metrics == {"source_cited", "answered", "must_contain"}
        assert r["success"], (r["vars"]["id"], r["gradingResult"]["reason"], r["response"]["output"][:500])
    assert report["results"]["stats"]["successes"] == len(IDS)
    # no judge configured: no llm-rubric assertion was generated
    assert "llm-rubric" not in json.dumps(report["config"].get("tests", ""))


def test_llm_rubric_assertions_appear_only_with_a_judge(monkeypatch):
    from config.settings import reset_settings
    from evals import promptfoo_provider

    monkeypatch.setenv("RULEBOOK_PROMPTFOO_IDS", "s-ps04-01,s-no-11")
    monkeypatch.delenv("RULEBOOK_JUDGE_MODEL", raising=False)
    reset_settings()
    tests = promptfoo_provider.generate_tests()
    assert {a["type"] for t in tests for a in t["assert"]} == {"regex", "python", "not-icontains"}
    monkeypatch.setenv("RULEBOOK_JUDGE_MODEL", "openai:gpt-4o-mini")
    reset_settings()
    try:
        tests = promptfoo_provider.generate_tests()
    finally:
        monkeypatch.delenv("RULEBOOK_JUDGE_MODEL")
        reset_settings()
    rubrics = [a for t in tests for a in t["assert"] if a["type"] == "llm-rubric"]
    assert len(rubrics) == 2 and all(a["provider"] == "openai:chat:gpt-4o-mini" for a in rubrics)
