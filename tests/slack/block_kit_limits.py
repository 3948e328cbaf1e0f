"""Block Kit's documented limits, checked on what the app actually sends, and every block read
back through `slack_sdk.models.blocks` (an unknown block, or one its model rejects, is a problem)."""

from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block

MAX_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_TEXT = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_ACTION_ELEMENTS = 25
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTION_ID = 255
MAX_MARKDOWN = 12_000
MAX_TABLE_ROWS = 100
MAX_TABLE_CELLS = 20


def model_problems(block: dict[str, Any]) -> list[str]:
    """What `slack_sdk.models.blocks` says of one block as sent."""
    model = Block.parse(dict(block))
    if model is None:
        return [f"not a block slack_sdk knows: {block.get('type')}"]
    try:
        model.validate_json()
        for element in getattr(model, "elements", None) or []:
            if hasattr(element, "validate_json"):
                element.validate_json()
    except SlackObjectFormationError as exc:
        return [str(exc)]
    if model.to_dict() != block:
        return ["does not read back the same through its model"]
    return []


def limit_violations(blocks: list[dict[str, Any]], max_blocks: int = MAX_BLOCKS) -> list[str]:
    problems: list[str] = []
    if not blocks:
        problems.append("no blocks")
    if len(blocks) > max_blocks:
        problems.append(f"{len(blocks)} blocks (max {max_blocks})")
    action_ids: list[str] = []

    def check_element(element: dict[str, Any], where: str) -> None:
        if element.get("type") == "button":
            text = element["text"]["text"]
            if not 0 < len(text) <= MAX_BUTTON_TEXT:
                problems.append(f"{where}: button text of {len(text)} chars")
            if len(element.get("value", "")) > MAX_BUTTON_VALUE:
                problems.append(f"{where}: button value of {len(element['value'])} chars")
            if len(element.get("url", "")) > MAX_URL:
                problems.append(f"{where}: button url too long")
            action_id = element.get("action_id", "")
            if len(action_id) > MAX_ACTION_ID:
                problems.append(f"{where}: action_id too long")
            action_ids.append(action_id)

    for i, block in enumerate(blocks):
        where = f"block {i} ({block.get('type')})"
        if block.get("type") == "section":
            text = block.get("text", {}).get("text", "")
            if not 0 < len(text) <= MAX_TEXT:
                problems.append(f"{where}: section text of {len(text)} chars")
            if "accessory" in block:
                check_element(block["accessory"], where)
        elif block.get("type") == "context":
            elements = block.get("elements", [])
            if not 0 < len(elements) <= MAX_CONTEXT_ELEMENTS:
                problems.append(f"{where}: {len(elements)} context elements")
            for element in elements:
                if len(element.get("text", "")) > MAX_TEXT:
                    problems.append(f"{where}: context text too long")
        elif block.get("type") == "actions":
            elements = block.get("elements", [])
            if not 0 < len(elements) <= MAX_ACTION_ELEMENTS:
                problems.append(f"{where}: {len(elements)} action elements")
            for element in elements:
                check_element(element, where)
        elif block.get("type") == "markdown":
            markdown_chars = sum(len(b.get("text", "")) for b in blocks if b.get("type") == "markdown")
            if markdown_chars > MAX_MARKDOWN:
                problems.append(f"{markdown_chars} markdown characters in one message (max {MAX_MARKDOWN})")
        elif block.get("type") == "table":
            rows = block.get("rows") or []
            if not 0 < len(rows) <= MAX_TABLE_ROWS or any(not 0 < len(r) <= MAX_TABLE_CELLS for r in rows):
                problems.append(f"{where}: {len(rows)} rows, up to {max(map(len, rows), default=0)} cells")
        elif block.get("type") == "context_actions":
            for element in block.get("elements", []):
                action_ids.append(element.get("action_id", ""))
        problems.extend(f"{where}: {p}" for p in model_problems(block))
    if sum(1 for b in blocks if b.get("type") == "table") > 1:
        problems.append("more than one table block in one message")
    duplicates = {a for a in action_ids if action_ids.count(a) > 1}
    if duplicates:
        problems.append(f"action_ids not unique in one message: {sorted(duplicates)}")
    return problems


def is_final_answer(blocks: list[dict[str, Any]] | None) -> bool:
    """The final answer's last message carries the feedback buttons."""
    return any(b.get("type") == "context_actions" and any(e.get("type") == "feedback_buttons"
                                                           for e in b.get("elements", []))
               for b in blocks or [])


def feedback_values(blocks: list[dict[str, Any]]) -> dict[str, str]:
    """{"positive": value, "negative": value} of the answer's feedback buttons."""
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "context_actions" else []:
            if element.get("type") == "feedback_buttons":
                return {"positive": element["positive_button"]["value"],
                        "negative": element["negative_button"]["value"]}
    raise AssertionError("no feedback buttons")


def source_buttons(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b["accessory"] for b in blocks
            if b.get("type") == "section" and b.get("accessory", {}).get("url")]


def button(blocks: list[dict[str, Any]], action_id: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if element.get("action_id") == action_id:
                return element
    raise AssertionError(f"no {action_id} button")
