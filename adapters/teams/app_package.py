"""The Teams app package: manifest.json with our app id filled in, plus the two icons, zipped.

The manifest in `manifest/teams/` carries a placeholder id (all zeros); Teams refuses a package
whose app id or bot id is not the bot's real Microsoft App ID, so both are replaced here.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

MANIFEST_DIR = Path(__file__).resolve().parents[2] / "manifest" / "teams"
PLACEHOLDER_ID = "00000000-0000-0000-0000-000000000000"
_GUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
ICON_SIZES = {"color.png": (192, 192), "outline.png": (32, 32)}


class AppPackageError(ValueError):
    pass


def filled_manifest(app_id: str, manifest_dir: Path = MANIFEST_DIR) -> dict:
    if not _GUID.match(app_id):
        raise AppPackageError(f"the app id must be a GUID (the bot's Microsoft App ID), got {app_id!r}")
    if app_id == PLACEHOLDER_ID:
        raise AppPackageError("the app id is still the placeholder; pass the bot's Microsoft App ID")
    manifest = json.loads((manifest_dir / "manifest.json").read_text(encoding="utf-8"))
    manifest["id"] = app_id
    for bot in manifest.get("bots", []):
        bot["botId"] = app_id
    return manifest


def write_app_package(app_id: str, out: Path, manifest_dir: Path = MANIFEST_DIR) -> Path:
    """Write the zip Teams uploads (manifest.json, color.png, outline.png at the root)."""
    manifest = filled_manifest(app_id, manifest_dir)
    from PIL import Image

    for name, size in ICON_SIZES.items():
        path = manifest_dir / name
        if not path.is_file():
            raise AppPackageError(f"missing icon {path}")
        with Image.open(path) as image:
            if image.size != size:
                raise AppPackageError(f"{name} must be {size[0]}x{size[1]} pixels, is {image.size}")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False))
        for name in ICON_SIZES:
            package.write(manifest_dir / name, name)
    tmp.replace(out)  # never leave a half-written package where the user expects a good one
    return out
