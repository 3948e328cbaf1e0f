"""No constant secret, no secret in a log line, and a forged source link opens nothing.

Against a real `rulebook serve` on loopback with every secret configured: the start-up and an
answer (a Teams activity, replies recorded by a local Bot Connector stand-in) are logged without
any of the secret values; a link to the restricted PS-07 signed with the old constant key, or
with a made-up signature, is refused exactly like a rulebook that does not exist, while the
same link signed with the data dir's own key opens.
"""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
import time

import aiohttp
import pytest
from pydantic import SecretStr

from adapters.source_server_links import SourceLinks
from benchmarks.load_standins import ConnectorRecorder, teams_final
from config.secret_values import KEY_FILE_NAME, reveal
from config.settings import Settings
from tests.conftest import REPO_ROOT
from tests.load.test_cli_faults import index_copy  # noqa: F401 - the fixture
from tests.load.test_http_hardening import _free_port

OLD_CONSTANT_KEY = "change-me-rulebook-pseudonym-key"
ACCOUNT_KEY = "c2VjcmV0LWFjY291bnQta2V5LXRoYXQtbXVzdC1uZXZlci1iZS1sb2dnZWQ="
SECRETS = {
    "RULEBOOK_TEAMS_APP_PASSWORD": "teams-password-Zq81",
    "RULEBOOK_SLACK_SIGNING_SECRET": "slack-signing-secret-Wm27",
    "RULEBOOK_SLACK_BOT_TOKEN": "xoxb-secret-bot-token-Pp44",
    "RULEBOOK_QDRANT_API_KEY": "qdrant-api-key-Tt09",
    "RULEBOOK_TABLES_CONNECTION_STRING": (
        f"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={ACCOUNT_KEY};"
        f"TableEndpoint=http://127.0.0.1:{_free_port()}/devstoreaccount1;"),
    "RULEBOOK_BLOB_CONNECTION_STRING": (
        f"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={ACCOUNT_KEY};"
        f"BlobEndpoint=http://127.0.0.1:{_free_port()}/devstoreaccount1;"),
}


def test_every_secret_setting_is_a_secretstr_without_a_value_by_default(tmp_path):
    settings = Settings(_env_file=None, data_dir=tmp_path / "d")
    for name in ("qdrant_api_key", "teams_app_password", "slack_signing_secret", "slack_bot_token",
                 "slack_app_token", "tables_connection_string", "blob_connection_string"):
        assert getattr(settings, name) is None, name
        assert "SecretStr" in str(Settings.model_fields[name].annotation), name
    configured = Settings(_env_file=None, data_dir=tmp_path / "d", slack_bot_token="xoxb-1",
                          tables_connection_string="AccountKey=abc")
    assert isinstance(configured.slack_bot_token, SecretStr)
    assert "xoxb-1" not in repr(configured) and "abc" not in str(configured)


def test_the_user_hash_key_is_random_per_data_dir_kept_0600_and_configurable(tmp_path):
    first = Settings(_env_file=None, data_dir=tmp_path / "one")
    assert not (tmp_path / "one").exists()  # nothing is written until the key is needed
    key = reveal(first.user_hash_key)
    assert len(key) >= 40 and key != OLD_CONSTANT_KEY
    path = tmp_path / "one" / KEY_FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert reveal(Settings(_env_file=None, data_dir=tmp_path / "one").user_hash_key) == key  # kept
    assert reveal(Settings(_env_file=None, data_dir=tmp_path / "two").user_hash_key) != key
    assert reveal(Settings(_env_file=None, data_dir=tmp_path / "three", user_hash_key="mine").user_hash_key) == "mine"
    assert not (tmp_path / "three").exists()
    assert key not in repr(first)
    # another process on the same data dir agrees on the key
    out = subprocess.run([sys.executable, "-c", "from config.settings import Settings; from config.secret_values "
                          "import reveal; print(reveal(Settings(_env_file=None).user_hash_key))"],
                         env={**os.environ, "RULEBOOK_DATA_DIR": str(tmp_path / "one"), "PYTHONPATH": str(REPO_ROOT)},
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == key


@pytest.fixture
async def connector():
    recorder = ConnectorRecorder()
    url = await recorder.start()
    yield recorder, url
    await recorder.stop()


async def test_serve_logs_no_secret_and_refuses_a_forged_link_to_a_restricted_pdf(index_copy, tmp_path,  # noqa: F811
                                                                                  connector):
    recorder, connector_url = connector
    (index_copy / KEY_FILE_NAME).unlink(missing_ok=True)  # this data dir makes its own key
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, **SECRETS, "RULEBOOK_DATA_DIR": str(index_copy), "RULEBOOK_TEAMS_APP_ID": "",
           "RULEBOOK_PUBLIC_BASE_URL": base, "RULEBOOK_SLACK_API_URL": f"http://127.0.0.1:{_free_port()}/api/",
           "RULEBOOK_SLACK_APP_TOKEN": "", "NO_PROXY": "127.0.0.1", "PYTHONPATH": str(REPO_ROOT)}
    env.pop("RULEBOOK_USER_HASH_KEY", None)
    process = subprocess.Popen([sys.executable, "-m", "adapters.cli", "serve", "--port", str(port)], cwd=tmp_path,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 120
            while True:
                assert process.poll() is None and time.monotonic() < deadline, "rulebook serve did not come up"
                try:
                    async with session.get(f"{base}/healthz") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.3)

            activity = {"type": "message", "id": "in-1", "channelId": "msteams", "serviceUrl": connector_url,
                        "text": "What is the refund fee for a cross-border transfer?", "textFormat": "plain",
                        "from": {"id": "29:anna", "aadObjectId": "aad-anna"}, "recipient": {"id": "28:bot"},
                        "conversation": {"id": "a:anna", "conversationType": "personal", "tenantId": "t1"},
                        "channelData": {"tenant": {"id": "t1"}}}
            async with session.post(f"{base}/api/messages", json=activity) as response:
                assert response.status < 300
            for _ in range(240):
                if teams_final(recorder.calls.get("a:anna", [])):
                    break
                await asyncio.sleep(0.25)
            assert teams_final(recorder.calls.get("a:anna", [])), "no answer reached the connector"

            key_file = index_copy / KEY_FILE_NAME
            assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
            real = SourceLinks(base, key_file.read_text().strip())
            forged_old = SourceLinks(base, OLD_CONSTANT_KEY).url("PS-07", 2, roles=("risk-officer",))
            made_up = real.url("PS-07", 2, roles=("risk-officer",)).replace("sig=", "sig=0") [:-1]
            missing = SourceLinks(base, OLD_CONSTANT_KEY).url("PS-99", 2, roles=("risk-officer",))
            bodies = []
            for url in (forged_old, made_up, missing):
                async with session.get(url, allow_redirects=False) as response:
                    assert response.status == 404, url
                    bodies.append(await response.read())
            assert bodies[0] == bodies[2]  # a forged grant reads exactly like a rulebook that does not exist
            async with session.get(real.url("PS-07", 2, roles=("risk-officer",)), allow_redirects=True) as response:
                assert response.status == 200 and (await response.read()).startswith(b"%PDF")
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=60)
    assert "Running on" in output or "UNAUTHENTICATED" in output
    leaked = [name for name, value in SECRETS.items() if value in output]
    leaked += ["AccountKey"] if ACCOUNT_KEY in output else []
    leaked += ["user_hash_key"] if (index_copy / KEY_FILE_NAME).read_text().strip() in output else []
    assert not leaked, f"secrets in the log: {leaked}\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]
