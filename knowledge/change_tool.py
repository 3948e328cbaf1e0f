"""The agent's fifth tool: what changed in a rulebook, from the audit log, with the new text.

`list_rulebook_changes(rulebook_id?, since?)` returns the recorded changes (section, added /
changed / removed, by whom, when, version) and, for every section added or changed, its current
text as citable chunks (recorded in the ledger like the zoom tools' chunks, so "[S4]" cites the
new wording). Without `since` it answers "since the last release": the changes recorded with
each rulebook's latest version. The caller's roles are bound in (or, made without roles, read
from the agent run's context, as the zoom tools do: `knowledge.zoom_tools.ToolScope`): changes to a rulebook the
caller may not see are not shown, exactly as if it did not exist.

`change_question(question)` recognises such a question ("what changed in PS-04 since the last
release?", "wat is er gewijzigd in PS-05-NL?") for the offline model's tool plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from knowledge.change_log import parse_since, read_change_events, select_changes
from knowledge.citation_ledger import ToolResultLedger
from knowledge.zoom_tools import fixed_scope, render_chunks, scope_of

CHANGES = "list_rulebook_changes"
MAX_SECTIONS = 8

DESCRIPTION = """List what changed in the rulebooks: which sections were added, changed or removed,
by whom, when and in which version, from the indexing audit log, with the NEW text of every
added or changed section as citable passages. Use it for questions like "what changed in PS-04
since the last release?". Give rulebook_id to look at one rulebook; since (a date, 2026-11-30)
to go back to a date; without since you get the changes of each rulebook's latest release.
Cite the new text by its handle, e.g. [S3]."""

# asking about changes, not about changing something ("can I change my mandate?" is not one)
_CHANGE_WORDS = re.compile(
    r"\bwhat(?:'s| is| has| have)?\s+(?:been\s+)?(?:changed|new|updated|amended|modified)\b"
    r"|\b(?:changes|amendments|modifications|updates)\s+(?:in|since|were made|made)\b"
    r"|\b(?:changed|amended|updated)\s+(?:in|since)\b|\bsince the (?:last|latest|previous) (?:release|version)\b"
    r"|\bwat is er (?:gewijzigd|veranderd|nieuw)\b|\bwat is (?:gewijzigd|veranderd)\b|\bwijzigingen (?:in|sinds|van)\b"
    r"|\bqu'est-ce qui a chang[ée]\b|\bquels? (?:sont les )?(?:changements|modifications)\b"
    r"|\b(?:changements|modifications) (?:de|du|dans|depuis)\b"
    r"|\bwas hat sich (?:ge|ver)[äa]ndert\b|\b[äa]nderungen (?:in|an|seit)\b|\bwas ist neu\b", re.I)
_RULEBOOK_ID = re.compile(r"\b([A-Z]{2,5}-\d{1,3}(?:-[A-Z]{2})?)\b")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


def change_question(question: str) -> dict[str, Any] | None:
    """The tool's arguments when the question asks what changed, else None."""
    if not _CHANGE_WORDS.search(question):
        return None
    args: dict[str, Any] = {}
    if match := _RULEBOOK_ID.search(question):
        args["rulebook_id"] = match.group(1)
    if match := _DATE.search(question):
        args["since"] = match.group(1)
    return args


class ChangeArgs(BaseModel):
    rulebook_id: str | None = Field(default=None, description="Only this rulebook id, e.g. PS-04.")
    since: str | None = Field(default=None, description="From this date on (YYYY-MM-DD); omit for the latest release.")


def _line(event: dict[str, Any]) -> str:
    section = f"{event.get('section_key') or '(front matter)'} {event.get('section_title') or ''}".strip()
    version = f", version {event['version']}" if event.get("version") else ""
    by = f" by {event['changed_by']}" if event.get("changed_by") else ""
    return f"- {event['rulebook_id']} section {section}: {event['action']}{by} on {str(event.get('at', ''))[:10]}{version}"


def make_change_tool(knowledge: Any, roles: Sequence[str] | None = None, ledger: ToolResultLedger | None = None,
                     data_dir: Path | None = None) -> BaseTool:
    fixed = fixed_scope(roles, ledger)
    folder = data_dir or getattr(knowledge, "data_dir", None)

    def list_rulebook_changes(rulebook_id: str | None = None, since: str | None = None,
                              runtime: ToolRuntime = None  # type: ignore[assignment]
                              ) -> tuple[str, list[dict[str, Any]]]:
        scope = scope_of(runtime, fixed)
        bound_roles = scope.roles
        try:
            bound = parse_since(since)
        except ValueError as exc:
            return str(exc), []
        visible = {info.rulebook_id for info in knowledge.list_rulebooks(bound_roles, include_archived=True)}
        if rulebook_id and rulebook_id.casefold() not in {v.casefold() for v in visible}:
            return (f"No rulebook with id '{rulebook_id}' is available to you. "
                    f"Available rulebook ids: {', '.join(sorted(visible)) or 'none'}.", [])
        events = [e for e in select_changes(read_change_events(folder) if folder else [], rulebook_id, bound,
                                            latest_release=bound is None)
                  if e.get("rulebook_id") in visible]
        if not events:
            scope = f" to {rulebook_id}" if rulebook_id else ""
            when = f" since {since}" if since else " in the latest release"
            return f"No changes{scope} were recorded{when}.", []
        lines = [_line(e) for e in events]
        chunks, shown = [], set()
        for event in events:
            key = (event["rulebook_id"], event.get("section_key") or "")
            if event["action"] == "removed" or key in shown or len(shown) >= MAX_SECTIONS:
                continue
            shown.add(key)
            result = knowledge.section(event["rulebook_id"], event.get("section_key") or "", bound_roles)
            chunks.extend(c for c in result.chunks
                          if (c.section_path[-1] if c.section_path else "") == (event.get("section_key") or ""))
        text, artifact = render_chunks(chunks, scope.ledger) if chunks else ("", [])
        header = "Recorded changes, oldest first:\n" + "\n".join(lines)
        return (header + ("\n\nThe new text of the added or changed sections:\n\n" + text if text else "")), artifact

    return StructuredTool.from_function(list_rulebook_changes, name=CHANGES, description=DESCRIPTION,
                                        args_schema=ChangeArgs, response_format="content_and_artifact")
