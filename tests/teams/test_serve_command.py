"""`rulebook serve` as a user runs it: it starts, says loudly that it accepts unauthenticated
requests when no Teams app id is set, and answers /healthz."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

from tests.teams.conftest import free_port


def test_serve_starts_warns_without_app_id_and_answers_healthz(tmp_path):
    port = free_port()
    env = {**os.environ, "RULEBOOK_DATA_DIR": str(tmp_path / "data"), "RULEBOOK_TEAMS_APP_ID": "",
           "RULEBOOK_SLACK_SIGNING_SECRET": "", "NO_PROXY": "127.0.0.1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        body = None
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.3)
        assert body is not None, "the server did not come up"
        assert '"status": "ok"' in body and '"teams_authenticated": false' in body
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert "UNAUTHENTICATED" in output, output[-3000:]


def test_serve_refuses_to_start_with_a_broken_roles_file(tmp_path):
    roles = tmp_path / "roles.yaml"
    roles.write_text("users:\n  teams: {aad-1: risk-officer}\n", encoding="utf-8")
    env = {**os.environ, "RULEBOOK_DATA_DIR": str(tmp_path / "data"), "RULEBOOK_ROLES_FILE": str(roles),
           "RULEBOOK_SLACK_SIGNING_SECRET": ""}
    result = subprocess.run([sys.executable, "-m", "adapters.cli", "serve", "--port", "0"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=90)
    assert result.returncode == 2
    assert f"error: {roles}: users.teams.aad-1: roles must be a list" in result.stderr
    assert "Traceback" not in result.stderr
