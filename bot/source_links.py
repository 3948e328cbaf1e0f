"""The one place that builds links to a cited source: the page view and the PDF at a page.

By default the bot's own server serves the sources:

    /sources/{rulebook_id}/view?page=N&cite=H   the page as an image with the cited span
                                                highlighted (adapters.page_view)
    /sources/{rulebook_id}?page=N               the PDF opened at page N

Both log the click. Blob Storage deployments pass their own `SourceLink` (a time-limited SAS
URL) to the service instead; those links are left as they are.

A link is opened by a browser, outside any chat platform's authentication, so what it grants is
written into it: the roles of the user (or place) it was made for, signed with a key derived
from `settings.user_hash_key`. An unsigned or tampered link grants no roles. The `cite` handle
says which span to highlight: the cited chunk's id and the quoted text, deflated, base64url and
signed, so a link cannot be made to highlight words the assistant never cited. The platform and
the answer's message id ride along unsigned: they only label the source-click event.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from pydantic import SecretStr

from bot.answer import Citation
from config.secret_values import reveal
from knowledge.payload import ChunkPayload

SourceLink = Callable[[ChunkPayload, int], str]  # (cited chunk, page) -> URL

VIEW_SUFFIX = "/view"
MAX_QUOTE_CHARS = 800  # Citation.quote is cut there already; a handle never carries more


def _key(secret: str | SecretStr, purpose: bytes) -> bytes:
    return hmac.new(reveal(secret).encode(), purpose, hashlib.sha256).digest()


def roles_signature(secret: str, rulebook_id: str, roles: Sequence[str]) -> str:
    message = rulebook_id + "\n" + ",".join(roles)
    return hmac.new(_key(secret, b"rulebook-source-links"), message.encode(), hashlib.sha256).hexdigest()[:32]


def granted_roles(secret: str, rulebook_id: str, roles_param: str, sig: str) -> tuple[str, ...]:
    """The roles a link grants: its signed roles, or none when the signature does not match."""
    if not roles_param or not sig:
        return ()
    roles = tuple(sorted({r for r in roles_param.split(",") if r}))
    expected = roles_signature(secret, rulebook_id, roles)
    return roles if hmac.compare_digest(expected, sig) else ()


def _access_params(secret: str, rulebook_id: str, roles: Sequence[str], platform: str,
                   message_id: str) -> list[tuple[str, str]]:
    params: list[tuple[str, str]] = []
    roles = tuple(sorted(set(roles)))
    if roles:
        params += [("roles", ",".join(roles)), ("sig", roles_signature(secret, rulebook_id, roles))]
    if platform:
        params.append(("via", platform))
    if message_id:
        params.append(("m", message_id))
    return params


def pdf_url(base_url: str, secret: str, rulebook_id: str, page: int, *, roles: Sequence[str] = (),
            platform: str = "", message_id: str = "") -> str:
    """`/sources/{id}?page=N`: opens the PDF itself at page N."""
    params = [("page", str(max(1, int(page)))), *_access_params(secret, rulebook_id, roles, platform, message_id)]
    return f"{base_url.rstrip('/')}/sources/{quote(rulebook_id, safe='')}?" + urlencode(params)


def view_url(base_url: str, secret: str, rulebook_id: str, page: int, *, roles: Sequence[str] = (),
             platform: str = "", message_id: str = "", cite: str = "") -> str:
    """`/sources/{id}/view?page=N&cite=H`: the page view with the cited span highlighted."""
    params = [("page", str(max(1, int(page)))), *_access_params(secret, rulebook_id, roles, platform, message_id)]
    if cite:
        params.append(("cite", cite))
    return (f"{base_url.rstrip('/')}/sources/{quote(rulebook_id, safe='')}{VIEW_SUFFIX}?"
            + urlencode(params))


# -- the cite handle ---------------------------------------------------------------------------

@dataclass(frozen=True)
class CitedSpan:
    """What a cite handle names: the chunk the quote comes from and the quoted text."""

    chunk_id: str
    quote: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _handle_signature(secret: str, rulebook_id: str, body: str) -> str:
    mac = hmac.new(_key(secret, b"rulebook-cite-handles"), f"{rulebook_id}\n{body}".encode(), hashlib.sha256)
    return _b64(mac.digest()[:12])


def cite_handle(secret: str, rulebook_id: str, chunk_id: str, quote_text: str) -> str:
    """A compact, signed handle for (chunk, quote); "" when there is nothing to highlight."""
    if not quote_text.strip():
        return ""
    raw = json.dumps([chunk_id, quote_text[:MAX_QUOTE_CHARS]], ensure_ascii=False, separators=(",", ":"))
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = _b64(compressor.compress(raw.encode()) + compressor.flush())
    return f"{body}.{_handle_signature(secret, rulebook_id, body)}"


def read_cite_handle(secret: str, rulebook_id: str, handle: str) -> CitedSpan | None:
    """The span a handle names, or None for a missing, malformed or tampered handle."""
    body, _, sig = (handle or "").partition(".")
    if not body or not sig or len(body) > 4096:
        return None
    if not hmac.compare_digest(_handle_signature(secret, rulebook_id, body), sig):
        return None
    try:
        decompressor = zlib.decompressobj(-15)
        raw = decompressor.decompress(_unb64(body), 16 * MAX_QUOTE_CHARS)
        chunk_id, quote_text = json.loads(raw.decode())
    except (ValueError, TypeError, zlib.error, binascii.Error, UnicodeDecodeError):
        return None
    if not isinstance(chunk_id, str) or not isinstance(quote_text, str):
        return None
    return CitedSpan(chunk_id, quote_text)


# -- what the service and the adapters use -----------------------------------------------------

@dataclass(frozen=True)
class SourceLinkBuilder:
    """Links for one server: `base_url` is settings.public_base_url, `secret` settings.user_hash_key."""

    base_url: str
    secret: str

    def pdf(self, rulebook_id: str, page: int, roles: Sequence[str] = (), platform: str = "",
            message_id: str = "") -> str:
        return pdf_url(self.base_url, self.secret, rulebook_id, page, roles=roles, platform=platform,
                       message_id=message_id)

    def view(self, rulebook_id: str, page: int, roles: Sequence[str] = (), platform: str = "",
             message_id: str = "", cite: str = "") -> str:
        return view_url(self.base_url, self.secret, rulebook_id, page, roles=roles, platform=platform,
                        message_id=message_id, cite=cite)

    def thumbnail(self, citation: Citation, roles: Sequence[str] = (), *, local: bool = False) -> str:
        """A small image of the highlighted region, for source cards; "" unless the server is
        reachable from outside (Teams and Slack fetch card images themselves) or `local` (the
        web chat, which loads it from its own origin)."""
        if not local and not is_public_base_url(self.base_url):
            return ""
        cite = cite_handle(self.secret, citation.rulebook_id, citation.chunk_id, citation.quote)
        view = self.view(citation.rulebook_id, citation.page, roles=roles, cite=cite)
        return view.replace(VIEW_SUFFIX + "?", VIEW_SUFFIX + "/thumbnail?", 1)

    def for_citation(self, citation: Citation, roles: Sequence[str] = (), platform: str = "",
                     message_id: str = "") -> str:
        """The page view of a citation, highlighting its quote, granting `roles`."""
        cite = cite_handle(self.secret, citation.rulebook_id, citation.chunk_id, citation.quote)
        return self.view(citation.rulebook_id, citation.page, roles=roles, platform=platform,
                         message_id=message_id, cite=cite)


def is_public_base_url(base_url: str) -> bool:
    """False for loopback, private and link-local addresses and "localhost"."""
    import ipaddress

    host = (urlsplit(base_url).hostname or "").lower()
    if not host or host == "localhost" or host.endswith((".local", ".internal", ".localhost")):
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return True
    return address.is_global


def served_source_link(public_base_url: str) -> SourceLink:
    """The service's default link for a cited chunk: the page view (no roles, no highlight yet;
    `with_cite_handles` adds the highlight once the quote is known)."""
    def link(chunk: ChunkPayload, page: int) -> str:
        return view_url(public_base_url, "", chunk.rulebook_id, page)

    return link


def is_view_link(uri: str) -> bool:
    return urlsplit(uri).path.endswith(VIEW_SUFFIX) and "/sources/" in urlsplit(uri).path


def with_cite_handles(citations: list[Citation], secret: str) -> list[Citation]:
    """Citations whose page-view links also carry the signed handle of their quote."""
    out: list[Citation] = []
    for citation in citations:
        if citation.uri and is_view_link(citation.uri) and citation.quote:
            parts = urlsplit(citation.uri)
            params = [(k, v) for k, v in parse_qsl(parts.query) if k != "cite"]
            params.append(("cite", cite_handle(secret, citation.rulebook_id, citation.chunk_id, citation.quote)))
            citation = replace(citation, uri=urlunsplit(parts._replace(query=urlencode(params))))
        out.append(citation)
    return out
