"""The role directory (adapters/role_directory.py), shared by the Teams and Slack front ends: how its
entries combine, how a bad file is reported, and how it follows edits of its file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from adapters.role_directory import (
    Identity,
    Place,
    RoleDirectoryError,
    RoleSource,
    load_role_directory,
    role_directory_from_mapping,
    role_source,
)
from tests.conftest import REPO_ROOT, make_settings

DIRECTORY = role_directory_from_mapping({
    "default": ["employee"],
    "users": {"teams": {"aad-1": ["risk-officer"]}, "slack": {"U1": ["treasury"]}},
    "emails": {"K.Maes@Aurora.example": ["risk-officer", "operations"]},
    "groups": {"teams": {"tenant-1": ["staff"], "team-9": ["operations"]}, "slack": {"T1": ["staff"]}},
})


def test_roles_are_the_union_of_default_and_every_matching_entry():
    who = Identity("teams", "aad-1", email="k.maes@aurora.example", groups=("tenant-1", "team-9"))
    assert DIRECTORY.roles_for(who) == ("employee", "operations", "risk-officer", "staff")


def test_an_unknown_user_holds_exactly_the_default():
    assert DIRECTORY.roles_for(Identity("teams", "aad-unknown", groups=("tenant-x",))) == ("employee",)
    assert role_directory_from_mapping(None).roles_for(Identity("slack", "U1")) == ()


def test_ids_of_one_platform_never_match_on_the_other():
    assert DIRECTORY.roles_for(Identity("slack", "aad-1", groups=("tenant-1",))) == ("employee",)
    assert DIRECTORY.roles_for(Identity("teams", "U1", groups=("T1",))) == ("employee",)
    assert DIRECTORY.roles_for(Identity("slack", "U1", groups=("T1",))) == ("employee", "staff", "treasury")


def test_e_mail_addresses_match_whatever_their_case():
    assert "risk-officer" in DIRECTORY.roles_for(Identity("slack", "U9", email=" K.MAES@aurora.EXAMPLE "))


def test_a_shared_place_holds_the_default_and_its_own_groups_never_a_persons_entries():
    assert DIRECTORY.place_roles(Place("teams", shared=True, groups=("tenant-1", "team-9"))) == (
        "employee", "operations", "staff")
    assert DIRECTORY.place_roles(Place("slack", shared=True, groups=("T1",))) == ("employee", "staff")
    assert DIRECTORY.place_roles(Place("slack", shared=True)) == ("employee",)


async def test_the_place_decides_whose_roles_apply_and_a_shared_place_looks_up_no_e_mail():
    source = RoleSource(DIRECTORY)
    lookups: list[str] = []

    async def lookup() -> str:
        lookups.append("asked")
        return "k.maes@aurora.example"

    anna = Identity("teams", "aad-1", groups=("tenant-1",))
    private = Place("teams", shared=False, groups=("tenant-1",))
    shared = Place("teams", shared=True, groups=("tenant-1",))
    assert await source.roles_in(anna, private, lookup) == ("employee", "operations", "risk-officer", "staff")
    assert lookups == ["asked"]
    assert await source.roles_in(Identity("teams", "aad-2", groups=("tenant-1",)), shared, lookup) == (
        "employee", "staff")
    assert await source.roles_in(anna, shared, lookup) == ("employee", "staff")
    assert lookups == ["asked"]
    with pytest.raises(ValueError, match="slack place"):
        await source.roles_in(anna, Place("slack", shared=True), lookup)


def test_the_example_file_loads_and_grants_what_it_says():
    directory = load_role_directory(REPO_ROOT / "examples" / "roles.yaml")
    assert directory.roles_for(Identity("slack", "U0123ABCDE")) == ("risk-officer",)
    assert directory.roles_for(Identity("teams", "someone", email="k.maes@aurora.example")) == ("risk-officer",)
    assert directory.roles_for(Identity("slack", "U9", groups=("T0123ABCDE",))) == ("operations",)
    assert directory.roles_for(Identity("teams", "someone")) == ()


@pytest.mark.parametrize(("text", "message"), [
    ("default: risk-officer\n", "default: roles must be a list"),
    ("user:\n  teams: {a: [x]}\n", "unknown key(s) user"),
    ("users:\n  msteams: {a: [x]}\n", "unknown platform 'msteams'"),
    ("users:\n  teams: {aad-7: [risk-officer, '']}\n", "users.teams.aad-7: a role must be a non-empty text"),
    ("groups:\n  slack: {T1: ['ops,treasury']}\n", "contains a comma"),
    ("emails:\n  not-an-address: [x]\n", "'not-an-address' is not an e-mail address"),
    ("users: [a, b]\n", "users: expected a mapping"),
    ("default: [\n", "is not valid YAML"),
])
def test_a_bad_file_is_refused_with_the_file_and_the_entry_named(tmp_path: Path, text: str, message: str):
    path = tmp_path / "roles.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RoleDirectoryError) as error:
        load_role_directory(path)
    assert message in str(error.value) and str(path) in str(error.value)


def test_a_missing_file_is_refused(tmp_path: Path):
    with pytest.raises(RoleDirectoryError, match="cannot read the roles file"):
        role_source(tmp_path / "absent.yaml")


def test_the_server_does_not_start_with_a_broken_roles_file(tmp_path: Path):
    from adapters.server import build_app

    path = tmp_path / "roles.yaml"
    path.write_text("users:\n  teams: {aad-1: risk-officer}\n", encoding="utf-8")
    settings = make_settings(tmp_path / "data", roles_file=path)
    with pytest.raises(RoleDirectoryError, match="users.teams.aad-1: roles must be a list"):
        build_app(settings, service=object(), event_sink=None)


def _rewrite(path: Path, text: str, tick: int) -> None:
    path.write_text(text, encoding="utf-8")
    stamp = 1_900_000_000 + tick  # an explicit mtime: two writes within one clock tick still differ
    os.utime(path, (stamp, stamp))


async def test_an_edit_of_the_file_takes_effect_and_a_broken_edit_keeps_the_last_good_one(tmp_path: Path):
    path = tmp_path / "roles.yaml"
    _rewrite(path, "users:\n  slack: {U1: [risk-officer]}\n", 1)
    source = RoleSource.from_file(path)
    anna = Identity("slack", "U1")
    assert await source.roles_for(anna) == ("risk-officer",)

    _rewrite(path, "users:\n  slack: {U1: [treasury]}\n", 2)
    assert await source.roles_for(anna) == ("treasury",)

    _rewrite(path, "users:\n  slack: {U1: treasury}\n", 3)  # a typo mid-day
    assert await source.roles_for(anna) == ("treasury",)

    path.unlink()  # a deleted file is an error too: the last good directory stays
    assert await source.roles_for(anna) == ("treasury",)


async def test_the_e_mail_is_looked_up_only_when_the_directory_has_e_mail_entries():
    lookups: list[str] = []

    async def lookup() -> str | None:
        lookups.append("asked")
        return "k.maes@aurora.example"

    without_emails = RoleSource(role_directory_from_mapping({"users": {"slack": {"U1": ["x"]}}}))
    assert await without_emails.roles_for(Identity("slack", "U2"), lookup) == ()
    assert lookups == []

    with_emails = RoleSource(DIRECTORY)
    assert "risk-officer" in await with_emails.roles_for(Identity("slack", "U2"), lookup)
    assert "risk-officer" in await with_emails.roles_for(Identity("slack", "U2"), lookup)
    assert lookups == ["asked"], "cached per user"


async def test_a_failed_lookup_is_not_cached_and_costs_only_the_e_mail_roles():
    attempts: list[int] = []

    async def failing() -> str | None:
        attempts.append(1)
        raise ConnectionError("platform down")

    source = RoleSource(DIRECTORY)
    who = Identity("teams", "aad-2", groups=("tenant-1",))
    assert await source.roles_for(who, failing) == ("employee", "staff")
    assert await source.roles_for(who, failing) == ("employee", "staff")
    assert len(attempts) == 2
