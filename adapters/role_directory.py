"""Which roles a chat user holds: a YAML file mapping people and groups to roles.

Restricted rulebooks (a chunk's `roles`) are visible only to callers holding one of their roles;
chat platforms do not know our roles, so the front ends ask this directory on every question.
The file is named by `RULEBOOK_ROLES_FILE`; without one, everyone holds no role (public rulebooks
only). The format (see examples/roles.yaml):

    default: [employee]            # held by everyone, known or not
    users:                         # by the platform's user id
      teams: {<AAD object id>: [risk-officer]}
      slack: {<Slack user id>: [risk-officer]}
    emails:                        # by e-mail address, on any platform (case-insensitive)
      k.maes@aurora.example: [risk-officer]
    groups:                        # by where the user is
      teams: {<tenant id, team id or team AAD group id>: [operations]}  # a tenant includes its guests
      slack: {<workspace (team) id: the asker's; in a channel, the channel's>: [operations]}

How entries combine: a user's roles are the union of `default` and of every entry that matches
them (their user id on that platform, their e-mail address, each of their groups). Nothing
subtracts a role. A user no entry matches holds exactly `default`. Ids of one platform never
match on the other. Role names may not contain commas (signed source links list roles with them).

Who reads the answer decides whose roles apply (the place policy, `Place` and `RoleSource.roles_in`):

- In a private place (Teams personal chat; Slack DM, AI assistant thread, or the ephemeral answer
  to `/rulebook`) only the asker reads the answer: the asker's own roles apply, as above.
- In a shared place (Teams channel or group chat; a Slack channel thread or a multi-person DM)
  everyone there reads it, so only what the PLACE is granted applies: `default` plus the `groups`
  entries of the place itself (Teams: its tenant, and in a channel its team's id or AAD group id;
  Slack: the workspace the channel belongs to, and nothing in a channel shared with another
  organisation). The asker's personal `users` and `emails` entries never count there, and no
  e-mail address is looked up. A restricted rulebook therefore reaches a shared place only when
  the roles file grants its role to the place itself; source links posted there are signed for the
  place's roles, never for the asker's.
- Slack's "Share in channel" moves a private answer into a shared place: it is refused (and the
  user told privately) when the answer cites a rulebook the destination's roles cannot see;
  an answer citing only what the destination may read is shared as before, its links re-signed
  for the destination.

The file is re-read when it changes; a broken edit is logged and the last good directory stays
in force, so a typo never locks everyone out (or in) mid-day. A broken file at start-up is an
error (`RoleDirectoryError`) that names the file and the bad entry.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from cachetools import TTLCache

log = logging.getLogger("rulebook.roles")

PLATFORMS = ("teams", "slack")
TOP_LEVEL_KEYS = ("default", "users", "emails", "groups")
EMAIL_CACHE_SECONDS = 3600.0
EMAIL_CACHE_SIZE = 10_000

EmailLookup = Callable[[], Awaitable["str | None"]]


class RoleDirectoryError(ValueError):
    """The roles file cannot be used; the message names the file and the bad entry."""


@dataclass(frozen=True)
class Identity:
    """What a front end knows about the asker."""

    platform: str  # teams | slack
    user_id: str  # Teams: AAD object id; Slack: user id
    email: str | None = None  # when the platform already told us; otherwise looked up on demand
    groups: tuple[str, ...] = ()  # Teams: tenant id, team id, team AAD group id; Slack: team ids


@dataclass(frozen=True)
class Place:
    """Where an answer will be read. `shared`: by more people than the asker (see the module text)."""

    platform: str  # teams | slack
    shared: bool
    groups: tuple[str, ...] = ()  # the place's own: Teams tenant / team ids; Slack workspace id


@dataclass(frozen=True)
class RoleDirectory:
    default: frozenset[str] = frozenset()
    users: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)  # platform -> id
    emails: Mapping[str, frozenset[str]] = field(default_factory=dict)  # lower-cased address
    groups: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)  # platform -> id

    @property
    def uses_email(self) -> bool:
        """Only then is an asker's e-mail address worth a call to the platform."""
        return bool(self.emails)

    def roles_for(self, identity: Identity) -> tuple[str, ...]:
        roles = set(self.default)
        roles |= self.users.get(identity.platform, {}).get(identity.user_id, frozenset())
        if identity.email:
            roles |= self.emails.get(identity.email.strip().lower(), frozenset())
        platform_groups = self.groups.get(identity.platform, {})
        for group in identity.groups:
            roles |= platform_groups.get(group, frozenset())
        return tuple(sorted(roles))

    def place_roles(self, place: Place) -> tuple[str, ...]:
        """What a shared place is granted: `default` and its groups' entries, never a person's."""
        roles = set(self.default)
        platform_groups = self.groups.get(place.platform, {})
        for group in place.groups:
            roles |= platform_groups.get(group, frozenset())
        return tuple(sorted(roles))


# --- reading the file ----------------------------------------------------------------------------

def _roles(value: Any, where: str) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise RoleDirectoryError(f"{where}: roles must be a list, e.g. [risk-officer], got {value!r}")
    roles: set[str] = set()
    for role in value:
        if not isinstance(role, str) or not role.strip():
            raise RoleDirectoryError(f"{where}: a role must be a non-empty text, got {role!r}")
        if "," in role:
            raise RoleDirectoryError(f"{where}: role {role!r} contains a comma")
        roles.add(role.strip())
    return frozenset(roles)


def _mapping(value: Any, where: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RoleDirectoryError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _by_platform(value: Any, where: str) -> dict[str, dict[str, frozenset[str]]]:
    out: dict[str, dict[str, frozenset[str]]] = {}
    for platform, entries in _mapping(value, where).items():
        if platform not in PLATFORMS:
            raise RoleDirectoryError(f"{where}: unknown platform {platform!r} (expected one of "
                                     f"{', '.join(PLATFORMS)})")
        out[platform] = {str(key): _roles(roles, f"{where}.{platform}.{key}")
                         for key, roles in _mapping(entries, f"{where}.{platform}").items()}
    return out


def role_directory_from_mapping(data: Any, source: str = "roles file") -> RoleDirectory:
    data = _mapping(data, source)
    unknown = sorted(str(k) for k in data if k not in TOP_LEVEL_KEYS)
    if unknown:
        raise RoleDirectoryError(f"{source}: unknown key(s) {', '.join(unknown)} "
                                 f"(expected {', '.join(TOP_LEVEL_KEYS)})")
    emails = {str(address).strip().lower(): _roles(roles, f"{source}: emails.{address}")
              for address, roles in _mapping(data.get("emails"), f"{source}: emails").items()}
    bad = [address for address in emails if "@" not in address]
    if bad:
        raise RoleDirectoryError(f"{source}: emails: {bad[0]!r} is not an e-mail address")
    return RoleDirectory(
        default=_roles(data.get("default"), f"{source}: default"),
        users=_by_platform(data.get("users"), f"{source}: users"),
        emails=emails,
        groups=_by_platform(data.get("groups"), f"{source}: groups"),
    )


def load_role_directory(path: Path) -> RoleDirectory:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RoleDirectoryError(f"cannot read the roles file {path}: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RoleDirectoryError(f"{path} is not valid YAML: {exc}") from exc
    return role_directory_from_mapping(data, str(path))


# --- the live directory the front ends ask ----------------------------------------------------

class RoleSource:
    """The directory in force (re-read when its file changes) plus a cache of looked-up e-mails."""

    def __init__(self, directory: RoleDirectory | None = None, path: Path | None = None, *,
                 email_cache_seconds: float = EMAIL_CACHE_SECONDS) -> None:
        self.path = path
        self._directory = directory or RoleDirectory()
        self._stamp = self._file_stamp() if path else None
        # (platform, user id) -> e-mail address or None; Teams and Slack share one source
        self._emails: TTLCache[tuple[str, str], str | None] = TTLCache(EMAIL_CACHE_SIZE, email_cache_seconds)
        self._emails_lock = threading.Lock()

    @classmethod
    def from_file(cls, path: Path, **options: Any) -> RoleSource:
        source = cls(None, path, **options)  # stamped before reading: an edit meanwhile is re-read
        source._directory = load_role_directory(path)
        return source

    @property
    def configured(self) -> bool:
        return self.path is not None

    def _file_stamp(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)  # type: ignore[arg-type]
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def directory(self) -> RoleDirectory:
        if self.path is None:
            return self._directory
        stamp = self._file_stamp()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self._directory = load_role_directory(self.path)
                log.info("re-read the roles file %s", self.path)
            except RoleDirectoryError as exc:
                log.error("%s; keeping the roles read before", exc)
        return self._directory

    async def roles_for(self, identity: Identity, lookup_email: EmailLookup | None = None
                        ) -> tuple[str, ...]:
        """The asker's roles; `lookup_email` asks the platform, only when e-mail entries exist."""
        directory = self.directory()
        if identity.email is None and lookup_email is not None and directory.uses_email:
            identity = Identity(identity.platform, identity.user_id,
                                await self._email(identity, lookup_email), identity.groups)
        return directory.roles_for(identity)

    async def roles_in(self, identity: Identity, place: Place, lookup_email: EmailLookup | None = None
                       ) -> tuple[str, ...]:
        """The roles an answer for `identity` may use where it will be read: the asker's own in a
        private place, only the place's in a shared one (no e-mail lookup there)."""
        if place.platform != identity.platform:
            raise ValueError(f"a {identity.platform} asker in a {place.platform} place")
        if place.shared:
            return self.directory().place_roles(place)
        return await self.roles_for(identity, lookup_email)

    async def _email(self, identity: Identity, lookup_email: EmailLookup) -> str | None:
        key = (identity.platform, identity.user_id)
        with self._emails_lock:
            if key in self._emails:
                return self._emails[key]
        try:
            email = await lookup_email()
        except Exception as exc:
            # The user keeps the roles of the other entries; the lookup is tried again next time.
            log.warning("could not look up the e-mail address of a %s user: %s: %s",
                        identity.platform, type(exc).__name__, exc)
            return None
        with self._emails_lock:
            self._emails[key] = email or None
        return email or None


def role_source(roles_file: Path | None) -> RoleSource:
    """The configured directory (`settings.roles_file`), or one where nobody holds a role."""
    if roles_file is None:
        return RoleSource()
    return RoleSource.from_file(Path(roles_file))

