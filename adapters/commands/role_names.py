"""`--role` on the command line: refuse a role nobody defined, and name the ones that exist.

A role exists when a catalogued document in the index is restricted to it, or when the roles
file (`RULEBOOK_ROLES_FILE`) grants it to someone. A typo such as `--role risk-oficer` would
otherwise be accepted silently and the user would wonder why a restricted rulebook "does not
exist".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import typer


def index_roles(store: Any) -> set[str]:
    return {role for payload in store.scroll(None) for role in (payload.roles or ())}


def file_roles(settings: Any) -> set[str]:
    if not getattr(settings, "roles_file", None):
        return set()
    from adapters.role_directory import load_role_directory

    directory = load_role_directory(settings.roles_file)
    found = set(directory.default) | set(directory.emails and
                                         {r for roles in directory.emails.values() for r in roles})
    for table in (directory.users, directory.groups):
        for entries in table.values():
            for roles in entries.values():
                found |= set(roles)
    return found


def check_roles(requested: Sequence[str], known: Iterable[str]) -> None:
    """Exit 2 with the list of existing roles when a requested one is unknown."""
    known = set(known)
    unknown = sorted(set(requested) - known)
    if not unknown:
        return
    names = ", ".join(sorted(known)) or "none: no indexed document is restricted to a role"
    plural = "s" if len(unknown) > 1 else ""
    typer.echo(f"error: unknown role{plural} {', '.join(unknown)}; the roles that exist: {names}", err=True)
    raise typer.Exit(2)


def check_cli_roles(requested: Sequence[str], store: Any, settings: Any) -> None:
    if requested:
        check_roles(requested, index_roles(store) | file_roles(settings))
