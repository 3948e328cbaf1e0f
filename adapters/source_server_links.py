"""Links to the bot's own source server, signed for the roles of the user or place they are for.

The builder is `bot.source_links` (the service uses it too); this class binds it to the
server's settings and adds what only adapters need. `url()` opens the PDF at a page
(`/sources/{rulebook_id}?page=N`); `for_citation()` opens the page view with the cited span
highlighted (`/sources/{rulebook_id}/view?page=N&cite=…`), which is where citation links go.
An unsigned (or tampered) link grants no roles, i.e. it opens public rulebooks only; a rulebook
the link does not grant reads exactly like one that does not exist (404).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import SecretStr

from bot.answer import Citation
from bot.source_links import SourceLinkBuilder
from bot.source_links import granted_roles as _granted_roles


@dataclass(frozen=True)
class SourceLinks:
    base_url: str  # settings.public_base_url
    secret: str | SecretStr  # settings.user_hash_key

    @property
    def builder(self) -> SourceLinkBuilder:
        return SourceLinkBuilder(self.base_url, self.secret)

    def url(self, rulebook_id: str, page: int, roles: tuple[str, ...] = (), platform: str = "",
            message_id: str = "") -> str:
        """The PDF itself, opened at `page`."""
        return self.builder.pdf(rulebook_id, page, roles=roles, platform=platform, message_id=message_id)

    def for_citation(self, citation: Citation, roles: tuple[str, ...] = (), platform: str = "",
                     message_id: str = "") -> str:
        """The page view of a citation with its quote highlighted: what every citation links to."""
        return self.builder.for_citation(citation, roles=roles, platform=platform, message_id=message_id)

    def thumbnail_for(self, citation: Citation, roles: tuple[str, ...] = (), *, local: bool = False) -> str:
        """An image of the highlighted region for a source card ("" while the server is not public)."""
        return self.builder.thumbnail(citation, roles=roles, local=local)

    def granted_roles(self, rulebook_id: str, roles_param: str, sig: str) -> tuple[str, ...]:
        """The roles a link grants: its signed roles, or none when the signature does not match."""
        return _granted_roles(self.secret, rulebook_id, roles_param, sig)

    def is_own_link(self, uri: str) -> bool:
        """True for a link into this server's /sources route (absolute or path-only)."""
        parts = urlsplit(uri)
        if not parts.path.startswith("/sources/"):
            return False
        if not parts.netloc:
            return True
        own = urlsplit(self.base_url)
        return (parts.scheme, parts.netloc) == (own.scheme, own.netloc)
