"""Who may use the web chat: tokens from RULEBOOK_WEB_TOKENS on every request, loopback only
without them, and `rulebook serve` refusing an open chat on any other address."""

from __future__ import annotations

import json
import subprocess
import sys
from unittest import mock

import aiohttp
import pytest
from aiohttp.test_utils import make_mocked_request
from pydantic import SecretStr

from adapters.web.chat import WebAccess
from adapters.web.tokens import WebTokens, WebTokensError, is_loopback, refuse_unprotected_chat
from tests.conftest import REPO_ROOT, make_settings
from tests.web.conftest import start_web_server

ALICE = "alice-token-0123456789abcdef"
BOB = "bob-token-0123456789abcdef00"
TOKENS = {ALICE: {"user": "alice@example.com", "roles": ["risk-officer"], "name": "Alice"},
          BOB: {"user": "bob@example.com"}}


@pytest.fixture
async def guarded(tmp_path, sample_index, sample_knowledge):
    server, runner = await start_web_server(tmp_path, sample_index, sample_knowledge,
                                            web_tokens=SecretStr(json.dumps(TOKENS)))
    yield server
    await runner.cleanup()


async def test_every_request_needs_a_token_when_tokens_are_set(guarded):
    base = guarded.base_url
    body = {"question": "Can I pay with my fridge?", "conversation": "conversation-1"}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:  # an IP host
        for method, path in (("GET", "/chat"), ("GET", "/chat/static/chat.js"), ("POST", "/chat/api/ask"),
                             ("POST", "/chat/api/feedback"), ("POST", "/chat/api/copy")):
            async with session.request(method, base + path, json=body) as response:
                assert response.status == 401, path
        async with session.get(base + "/chat?token=not-a-valid-token-at-all") as response:
            assert response.status == 401
        async with session.post(base + "/chat/api/ask", json=body,
                                headers={"Authorization": "Bearer wrong-token-0123456789"}) as response:
            assert response.status == 401
        assert guarded.service.asked == []

        # the first visit's ?token= becomes an HttpOnly cookie and leaves the address bar
        async with session.get(base + f"/chat?token={ALICE}", allow_redirects=False) as response:
            assert response.status == 302 and response.headers["Location"] == "/chat"
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        async with session.get(base + "/chat") as response:
            assert response.status == 200 and "Signed in as Alice" in await response.text()
        async with session.post(base + "/chat/api/ask", json=body) as response:
            assert response.status == 200
            stream = await response.text()
    assert "event: final" in stream
    question, user, conversation = guarded.service.asked[0]
    assert (user.id, user.roles, user.platform) == ("alice@example.com", ("risk-officer",), "web")
    assert conversation.startswith("web:") and conversation.endswith(":conversation-1")


async def test_links_in_the_chat_carry_the_token_users_roles(guarded):
    body = {"question": "What is the fraud reporting deadline?", "conversation": "conversation-2"}
    async with aiohttp.ClientSession() as session:
        async with session.post(guarded.base_url + "/chat/api/ask", json=body,
                                headers={"Authorization": f"Bearer {BOB}"}) as response:
            bob = await response.text()
        async with session.post(guarded.base_url + "/chat/api/ask", json=body,
                                headers={"Authorization": f"Bearer {ALICE}"}) as response:
            alice = await response.text()
    finals = [json.loads(s.split("data: ", 1)[1]) for s in (bob, alice) for s in s.split("\n\n")
              if s.startswith("event: final")]
    bob_final, alice_final = finals
    assert not any(s["rulebook_id"] == "PS-07" for s in bob_final["sources"])  # restricted to risk officers
    assert alice_final["sources"] and all("roles=risk-officer" in s["url"] for s in alice_final["sources"])


async def test_cross_site_and_malformed_requests_are_refused(web_server):
    url = web_server.base_url + "/chat/api/ask"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"question": "x", "conversation": "conversation-1"},
                                headers={"Origin": "https://evil.example"}) as response:
            assert response.status == 403
        async with session.post(url, data="question=x", headers={"Content-Type": "text/plain"}) as response:
            assert response.status == 415
        async with session.post(url, json={"question": "x", "conversation": "../../other"}) as response:
            assert response.status == 400
        async with session.post(web_server.base_url + "/chat/api/feedback",
                                json={"conversation": "conversation-1", "message_id": "m1", "value": "meh"}
                                ) as response:
            assert response.status == 400
    assert web_server.service.asked == []


def _request_from(address: str):
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (address, 5555) if name == "peername" else default
    return make_mocked_request("GET", "/chat", transport=transport)


def test_without_tokens_only_loopback_clients_are_served():
    from aiohttp import web

    access = WebAccess(WebTokens({}))
    assert access.user(_request_from("127.0.0.1")).id == "local-browser"
    assert access.user(_request_from("::1")).roles == ()
    with pytest.raises(web.HTTPForbidden):
        access.user(_request_from("10.1.2.3"))


def test_serve_refuses_an_open_chat_off_loopback(tmp_path):
    settings = make_settings(tmp_path)
    for host in ("127.0.0.1", "localhost", "::1"):
        refuse_unprotected_chat(settings, host)
    for host in ("0.0.0.0", "10.0.0.5", ""):
        with pytest.raises(WebTokensError, match="RULEBOOK_WEB_TOKENS"):
            refuse_unprotected_chat(settings, host)
    refuse_unprotected_chat(make_settings(tmp_path, web_tokens=SecretStr(json.dumps(TOKENS))), "0.0.0.0")
    refuse_unprotected_chat(make_settings(tmp_path, web_chat=False), "0.0.0.0")
    assert is_loopback("127.8.0.1") and not is_loopback("192.168.1.1")


def test_rulebook_serve_exits_with_a_clear_message_on_a_public_address(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), "RULEBOOK_DATA_DIR": str(tmp_path),
           "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "adapters.cli", "serve", "--host", "0.0.0.0", "--port", "0"],
                            capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "RULEBOOK_WEB_TOKENS" in result.stderr


def test_token_settings_errors_never_show_the_tokens(tmp_path):
    with pytest.raises(WebTokensError) as broken:
        WebTokens.from_setting(SecretStr('{"secret-token-value-123": '))
    assert "secret-token-value-123" not in str(broken.value)
    with pytest.raises(WebTokensError, match="shorter"):
        WebTokens.from_setting(SecretStr('{"short": {"user": "a"}}'))
    with pytest.raises(WebTokensError, match="user"):
        WebTokens.from_setting(SecretStr('{"long-enough-token-123": {"roles": []}}'))
    file = tmp_path / "tokens.yaml"
    file.write_text(f"{ALICE}:\n  user: alice\n  roles: [risk-officer]\n", encoding="utf-8")
    tokens = WebTokens.from_setting(SecretStr(str(file)))
    assert tokens.user_for(ALICE).roles == ("risk-officer",) and tokens.user_for(BOB) is None
    with pytest.raises(WebTokensError, match="no such file"):
        WebTokens.from_setting(SecretStr(str(tmp_path / "absent.json")))
    assert "alice-token" not in repr(make_settings(tmp_path, web_tokens=SecretStr(json.dumps(TOKENS))))
