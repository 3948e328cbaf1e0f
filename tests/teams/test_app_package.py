"""The Teams app package: the manifest is valid against Microsoft's Teams manifest schema (vendored),
the icons have the sizes Teams requires, and `rulebook teams-package` fills in the app id."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import jsonschema
import pytest
from PIL import Image
from typer.testing import CliRunner

from adapters.cli import app as cli
from adapters.teams.app_package import MANIFEST_DIR, PLACEHOLDER_ID

SCHEMA = Path(__file__).parent / "schemas" / "MicrosoftTeams.v1.19.schema.json"
APP_ID = "3f2a7c1e-9b4d-4e8a-a1f0-5c6d7e8f9a0b"


@pytest.fixture(scope="module")
def manifest_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def _manifest() -> dict:
    return json.loads((MANIFEST_DIR / "manifest.json").read_text(encoding="utf-8"))


def _errors(validator, manifest) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(manifest)]


def test_manifest_is_valid_against_the_teams_schema(manifest_validator):
    manifest = _manifest()
    assert _errors(manifest_validator, manifest) == []
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert manifest["manifestVersion"] == schema["properties"]["manifestVersion"]["const"]
    [bot] = manifest["bots"]
    assert sorted(bot["scopes"]) == ["groupChat", "personal", "team"]
    commands = [c for command_list in bot["commandLists"] for c in command_list["commands"]]
    assert len(commands) >= 3
    assert manifest["id"] == bot["botId"] == PLACEHOLDER_ID


def test_schema_check_catches_a_broken_manifest(manifest_validator):
    broken = _manifest()
    broken["bots"][0]["scopes"] = ["personal", "everywhere"]
    del broken["developer"]
    errors = _errors(manifest_validator, broken)
    assert any("everywhere" in e for e in errors) and any("developer" in e for e in errors)


def test_icons_have_the_sizes_and_colours_teams_requires():
    with Image.open(MANIFEST_DIR / "color.png") as color:
        assert color.size == (192, 192)
    with Image.open(MANIFEST_DIR / "outline.png") as outline:
        assert outline.size == (32, 32) and outline.mode == "RGBA"
        pixels = set(outline.get_flattened_data() if hasattr(outline, "get_flattened_data")
                     else outline.getdata())
        # Teams: the outline icon is white on a transparent background
        assert all(a == 0 or (r, g, b) == (255, 255, 255) for r, g, b, a in pixels)
        assert any(a == 255 for _, _, _, a in pixels)


def test_teams_package_writes_the_zip_with_the_app_id(tmp_path, manifest_validator):
    out = tmp_path / "pkg" / "rulebook.zip"
    result = CliRunner().invoke(cli, ["teams-package", "--app-id", APP_ID, "--out", str(out)])
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as package:
        assert sorted(package.namelist()) == ["color.png", "manifest.json", "outline.png"]
        manifest = json.loads(package.read("manifest.json"))
        assert package.read("color.png") == (MANIFEST_DIR / "color.png").read_bytes()
    assert manifest["id"] == APP_ID and manifest["bots"][0]["botId"] == APP_ID
    assert _errors(manifest_validator, manifest) == []


@pytest.mark.parametrize("bad_id", ["not-a-guid", PLACEHOLDER_ID, ""])
def test_teams_package_refuses_a_bad_app_id_and_writes_nothing(tmp_path, bad_id):
    out = tmp_path / "rulebook.zip"
    result = CliRunner().invoke(cli, ["teams-package", "--app-id", bad_id, "--out", str(out)])
    assert result.exit_code == 2
    assert "app id" in result.output.lower()
    assert not out.exists()
