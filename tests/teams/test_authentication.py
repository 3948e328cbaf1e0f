"""With a Teams app id configured, /api/messages takes only requests whose Bot Framework token
validates. The Bot Framework's signing keys come from a loopback OpenID metadata stand-in (run in
a thread: the Agents SDK fetches keys with PyJWT's blocking `PyJWKClient`), so the SDK's real
validation runs offline; outbound tokens come from a stand-in for Entra ID."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from adapters.teams.front_end import TeamsWiring
from tests.teams import activities
from tests.teams.conftest import start_server
from tests.teams.token_standin import OUTBOUND_TOKEN, FixedTokenConnections

APP_ID = "11111111-2222-3333-4444-555555555555"
ISSUER = "https://api.botframework.com"
KID = "test-signing-key"


class _KeyServer:
    def __init__(self, public_jwk: dict) -> None:
        self.requests: list[str] = []
        keys = {"keys": [{**public_jwk, "kid": KID, "use": "sig", "endorsements": ["msteams"]}]}
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                outer.requests.append(self.path)
                port = self.server.server_address[1]
                if self.path == "/openid":
                    body = {"issuer": ISSUER, "jwks_uri": f"http://127.0.0.1:{port}/keys"}
                elif self.path == "/keys":
                    body = keys
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/openid"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _private_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def signing_key() -> rsa.RSAPrivateKey:
    return _private_key()


@pytest.fixture
def key_server(signing_key, monkeypatch) -> Iterator[_KeyServer]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    public_jwk = json.loads(RSAAlgorithm.to_jwk(signing_key.public_key()))
    server = _KeyServer(public_jwk)
    yield server
    server.close()


@pytest.fixture
async def secured(tmp_path, key_server, sample_index, sample_knowledge):
    running, runner = await start_server(
        tmp_path, sample_index, sample_knowledge, settings={"teams_app_id": APP_ID, "teams_app_password": "not-used-offline"},
        teams=TeamsWiring(openid_metadata_url=key_server.url, connections=FixedTokenConnections(APP_ID)))
    yield running
    await runner.cleanup()
    running.event_log.close()


def _token(key, service_url: str, **overrides) -> str:
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": APP_ID, "serviceurl": service_url, "nbf": now - 10,
              "exp": now + 600, "iat": now - 10}
    claims.update(overrides)
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": KID})


async def test_request_without_token_is_rejected(secured, connector):
    status, body = await secured.post(activities.message(connector.url, "hello"))
    assert status == 401 and "token" in body["error"]
    assert connector.calls == []


async def test_garbage_token_is_rejected(secured, connector, key_server):
    status, _ = await secured.post(activities.message(connector.url, "hello"), token="not-a-jwt")
    assert status == 401
    assert key_server.requests == []  # refused before any key was fetched


async def test_token_from_a_foreign_issuer_is_rejected_before_any_key_fetch(secured, connector, key_server):
    forged = jwt.encode({"iss": "https://attacker.example", "aud": APP_ID}, "a-secret-that-is-long-enough-for-hs256!", algorithm="HS256")
    status, _ = await secured.post(activities.message(connector.url, "hello"), token=forged)
    assert status == 401
    assert key_server.requests == []


async def test_token_signed_with_another_key_is_rejected(secured, connector, key_server):
    inbound = activities.message(connector.url, "hello")
    status, _ = await secured.post(inbound, token=_token(_private_key(), connector.url))
    assert status == 401
    assert "/keys" in key_server.requests  # it got as far as checking the signature
    assert connector.calls == []


async def test_token_for_another_bot_or_expired_is_rejected(secured, connector, signing_key):
    inbound = activities.feedback_invoke(connector.url, "act-1")
    other_bot = _token(signing_key, connector.url, aud="99999999-2222-3333-4444-555555555555")
    assert (await secured.post(inbound, token=other_bot))[0] == 401
    expired = _token(signing_key, connector.url, exp=int(time.time()) - 3600, nbf=int(time.time()) - 7200)
    assert (await secured.post(inbound, token=expired))[0] == 401
    assert secured.events("feedback") == []


async def test_valid_token_is_accepted(secured, connector, signing_key):
    inbound = activities.feedback_invoke(connector.url, "act-1", reaction="like", comment="")
    status, body = await secured.post(inbound, token=_token(signing_key, connector.url))
    assert status == 200 and body == {}
    [event] = secured.events("feedback")
    assert event.data["value"] == "positive"


async def test_an_authenticated_question_is_answered_with_the_bots_own_token(secured, connector, signing_key):
    inbound = activities.message(connector.url, "Can I pay with my fridge?")
    status, _ = await secured.post(inbound, token=_token(signing_key, connector.url))
    assert status == 202
    calls = await connector.wait_for(lambda cs: any(
        (c.stream_info() or {}).get("streamType") == "final" for c in cs))
    assert {c.authorization for c in calls} == {f"Bearer {OUTBOUND_TOKEN}"}


async def test_a_token_for_another_service_url_is_rejected(secured, connector, signing_key):
    inbound = activities.message(connector.url, "hello")
    token = _token(signing_key, "https://smba.trafficmanager.net/emea/")
    assert (await secured.post(inbound, token=token))[0] == 401
    assert connector.calls == []


def test_app_registrations_map_to_the_sdks_configuration():
    from adapters.teams.authentication import auth_configuration
    from adapters.teams.teams_settings import TeamsSettings
    from config.settings import Settings

    base = Settings(_env_file=None)
    anonymous = auth_configuration(base, TeamsSettings(_env_file=None))
    assert anonymous.ANONYMOUS_ALLOWED
    single = auth_configuration(base.model_copy(update={
        "teams_app_id": APP_ID, "teams_app_password": "pw", "teams_tenant_id": "tenant-guid"}),
        TeamsSettings(_env_file=None))
    assert (single.CLIENT_ID, single.TENANT_ID, single.CLIENT_SECRET) == (APP_ID, "tenant-guid", "pw")
    assert single.VALIDATE_ISSUER and not single.ANONYMOUS_ALLOWED
    assert "https://api.botframework.com" in single.ISSUERS
    multi = auth_configuration(base.model_copy(update={"teams_app_id": APP_ID, "teams_app_password": "pw"}),
                               TeamsSettings(_env_file=None))
    assert multi.TENANT_ID == "botframework.com"
    identity = auth_configuration(base.model_copy(update={"teams_app_id": APP_ID, "teams_tenant_id": "t"}),
                                  TeamsSettings(_env_file=None, auth_type="UserManagedIdentity"))
    assert identity.AUTH_TYPE == "UserManagedIdentity" and identity.CLIENT_SECRET is None
    with pytest.raises(ValueError, match="RULEBOOK_TEAMS_APP_PASSWORD"):
        auth_configuration(base.model_copy(update={"teams_app_id": APP_ID}), TeamsSettings(_env_file=None))
