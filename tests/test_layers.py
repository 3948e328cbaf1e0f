"""The layers of DESIGN.md's package table, checked on every import in the tree (lazy ones too):
no import runs back up, the bot never knows a chat platform, and events know neither the bot
nor the adapters that emit them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

# package -> the other packages it may import ("bot.answer": that module only)
MAY_IMPORT: dict[str, set[str]] = {
    "config": set(),
    "knowledge": {"config"},
    "indexing": {"config", "knowledge"},
    "events": {"config", "knowledge"},
    "bot": {"config", "knowledge", "events"},
    "cards": {"config", "bot.answer"},
    "adapters": {"config", "knowledge", "indexing", "events", "bot", "cards"},
}
COMMAND_LINE_ALSO = {"evals"}  # adapters/commands drives the evals
OURS = {"config", "knowledge", "indexing", "events", "bot", "cards", "adapters", "evals", "benchmarks"}


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _allowed(package: str, path: Path, module: str) -> bool:
    top = module.split(".")[0]
    if top not in OURS or top == package:
        return True
    allowed = MAY_IMPORT[package] | (COMMAND_LINE_ALSO if path.parts[-2] == "commands" else set())
    return top in allowed or any(module == a or module.startswith(a + ".") for a in allowed)


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_no_import_runs_back_up_the_layers(package: str) -> None:
    wrong = [f"{path.relative_to(REPO_ROOT)}:{line} imports {module}"
             for path in sorted((REPO_ROOT / package).rglob("*.py"))
             for line, module in _imports(path) if not _allowed(package, path, module)]
    assert not wrong, "\n".join(wrong)
