"""Links to `/sources/{rulebook_id}?page=N`, the bot's own PDF server, and what they may carry.

A link is opened by a browser, outside any chat platform's authentication, so the server cannot
ask who clicks. What a link grants is therefore written into it: the roles of the user it was made
for, signed with a key derived from `settings.user_hash_key`. An unsigned (or tampered) link grants
no roles, i.e. it opens public rulebooks only; a rulebook the link does not grant reads exactly
like one that does not exist (404). The platform and the answer's message id ride along unsigned:
they only label the source-click event.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

from pydantic import SecretStr

from config.secret_values import reveal


def _link_key(secret: str | SecretStr) -> bytes:
    return hmac.new(reveal(secret).encode(), b"rulebook-source-links", hashlib.sha256).digest()


def _signature(secret: str | SecretStr, rulebook_id: str, roles: tuple[str, ...]) -> str:
    message = rulebook_id + "\n" + ",".join(roles)
    return hmac.new(_link_key(secret), message.encode(), hashlib.sha256).hexdigest()[:32]


@dataclass(frozen=True)
class SourceLinks:
    base_url: str  # settings.public_base_url
    secret: str | SecretStr  # settings.user_hash_key

    def url(self, rulebook_id: str, page: int, roles: tuple[str, ...] = (), platform: str = "",
            message_id: str = "") -> str:
        params: list[tuple[str, str]] = [("page", str(max(1, int(page))))]
        roles = tuple(sorted(set(roles)))
        if roles:
            params += [("roles", ",".join(roles)), ("sig", _signature(self.secret, rulebook_id, roles))]
        if platform:
            params.append(("via", platform))
        if message_id:
            params.append(("m", message_id))
        return (f"{self.base_url.rstrip('/')}/sources/{quote(rulebook_id, safe='')}?"
                + urlencode(params))

    def granted_roles(self, rulebook_id: str, roles_param: str, sig: str) -> tuple[str, ...]:
        """The roles a link grants: its signed roles, or none when the signature does not match."""
        if not roles_param or not sig:
            return ()
        roles = tuple(sorted({r for r in roles_param.split(",") if r}))
        expected = _signature(self.secret, rulebook_id, roles)
        return roles if hmac.compare_digest(expected, sig) else ()

    def is_own_link(self, uri: str) -> bool:
        """True for a link into this server's /sources route (absolute or path-only)."""
        parts = urlsplit(uri)
        if not parts.path.startswith("/sources/"):
            return False
        if not parts.netloc:
            return True
        own = urlsplit(self.base_url)
        return (parts.scheme, parts.netloc) == (own.scheme, own.netloc)
