"""Who uses the web chat: access tokens (`RULEBOOK_WEB_TOKENS`) or, on loopback only, nobody in particular.

`RULEBOOK_WEB_TOKENS` holds JSON, or a path to a JSON or YAML file, mapping each token to a user:

    {"<token>": {"user": "alice@example.com", "roles": ["risk-officer"], "name": "Alice"}}

Tokens are compared by their sha256 only and never logged. Without tokens the chat answers
loopback clients only, as a local user without roles; `rulebook serve` refuses to listen on any
other address unless tokens are configured (or the chat is switched off with
`RULEBOOK_WEB_CHAT=false`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from config.secret_values import reveal

LOCAL_USER_ID = "local-browser"
MIN_TOKEN_CHARS = 16


class WebTokensError(ValueError):
    pass


@dataclass(frozen=True)
class WebUser:
    id: str
    roles: tuple[str, ...] = ()
    name: str = ""


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class WebTokens:
    def __init__(self, users: dict[bytes, WebUser]) -> None:
        self._users = users

    @property
    def configured(self) -> bool:
        return bool(self._users)

    def user_for(self, token: str | None) -> WebUser | None:
        if not token:
            return None
        digest = _digest(token)
        found = None
        for known, user in self._users.items():  # constant time in the token
            if hmac.compare_digest(known, digest):
                found = user
        return found

    @classmethod
    def from_setting(cls, value: Any) -> WebTokens:
        """Read `settings.web_tokens` (a SecretStr, or None for no tokens)."""
        raw = reveal(value)
        raw = raw.strip()
        if not raw:
            return cls({})
        if raw.startswith("{"):
            data, where = _parse_json(raw, "RULEBOOK_WEB_TOKENS"), "RULEBOOK_WEB_TOKENS"
        else:
            path = Path(raw).expanduser()
            if not path.is_file():
                raise WebTokensError(f"RULEBOOK_WEB_TOKENS: no such file {path}")
            text = path.read_text(encoding="utf-8")
            where = str(path)
            try:
                data = yaml.safe_load(text) if path.suffix.lower() in (".yaml", ".yml") else _parse_json(text, where)
            except yaml.YAMLError as exc:
                raise WebTokensError(f"{where}: not valid YAML ({exc})") from None
        return cls(_users(data, where))


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # the message names the place, never the text: it holds the tokens
        raise WebTokensError(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno})") from None


def _users(data: Any, where: str) -> dict[bytes, WebUser]:
    if not isinstance(data, dict):
        raise WebTokensError(f"{where}: expected a mapping of token -> {{user, roles}}")
    users: dict[bytes, WebUser] = {}
    for number, (token, entry) in enumerate(data.items(), 1):
        if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS:
            raise WebTokensError(f"{where}: token #{number} is shorter than {MIN_TOKEN_CHARS} characters")
        if isinstance(entry, str):
            entry = {"user": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("user"), str) or not entry["user"].strip():
            raise WebTokensError(f"{where}: token #{number} needs a \"user\" (an id)")
        roles = entry.get("roles") or []
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            raise WebTokensError(f"{where}: the roles of token #{number} must be a list of names")
        users[_digest(token)] = WebUser(entry["user"].strip(), tuple(sorted(set(roles))), str(entry.get("name", "")))
    return users


def is_loopback(host: str | None) -> bool:
    """127.0.0.0/8, ::1 and "localhost"; an empty host (all interfaces) is not loopback."""
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0]).is_loopback
    except ValueError:
        return False


def refuse_unprotected_chat(settings: Any, host: str) -> None:
    """Raise WebTokensError when the server would offer an open web chat beyond this machine."""
    if not getattr(settings, "web_chat", True):
        return
    tokens = WebTokens.from_setting(getattr(settings, "web_tokens", None))
    if not is_loopback(host) and not tokens.configured:
        raise WebTokensError(
            f"refusing to listen on {host}: the web chat (/chat) would be open to anyone who can reach "
            "this address. Set RULEBOOK_WEB_TOKENS (token -> user and roles, JSON or a file path), "
            "listen on 127.0.0.1, or switch the chat off with RULEBOOK_WEB_CHAT=false.")
