"""Block Kit's documented limits, checked on what the app actually sends."""

from __future__ import annotations

from typing import Any

MAX_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_TEXT = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_ACTION_ELEMENTS = 25
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTION_ID = 255


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
    duplicates = {a for a in action_ids if action_ids.count(a) > 1}
    if duplicates:
        problems.append(f"action_ids not unique in one message: {sorted(duplicates)}")
    return problems


def is_final_answer(blocks: list[dict[str, Any]] | None) -> bool:
    """The final answer's last message carries the feedback buttons."""
    return any(b.get("type") == "actions" and any(e.get("action_id") == "rulebook_feedback_up"
                                                   for e in b.get("elements", []))
               for b in blocks or [])


def source_buttons(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b["accessory"] for b in blocks
            if b.get("type") == "section" and b.get("accessory", {}).get("url")]


def button(blocks: list[dict[str, Any]], action_id: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if element.get("action_id") == action_id:
                return element
    raise AssertionError(f"no {action_id} button")
