"""Active content in a PDF: JavaScript, launch actions, actions run on opening or on events.

A rulebook has no business running code in the reader's PDF viewer. Such a PDF is still indexed
(its text is what it is), but it is flagged in the index summary and the inventory, and the
`/sources/` route serves it as a download (`Content-Disposition: attachment`) rather than opening
it inline in a browser tab.

What counts (PDF 1.7 §12.6): a JavaScript action or name tree (/JS, /JavaScript), a launch action
(/S /Launch), additional actions (/AA: run on page open/close, field events…), and an /OpenAction
that is one of those. The structure is walked from the document catalog with pypdf (content
streams are not decoded). A quick byte scan comes first: a file without object streams whose bytes
name none of the keys has none.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger("rulebook.pdf")

JAVASCRIPT = "JavaScript"
LAUNCH = "launch action"
AUTOMATIC = "automatic actions (/AA)"
OPEN_ACTION = "action run on opening"
_MAX_OBJECTS = 200_000
_MARKERS = (b"/JavaScript", b"/JS", b"/Launch", b"/AA", b"/OpenAction")


def _quick_clean(path: Path) -> bool:
    data = path.read_bytes()
    return b"/ObjStm" not in data and not any(marker in data for marker in _MARKERS)


def _action_kind(action: Any) -> str | None:
    kind = action.get("/S") if hasattr(action, "get") else None
    if kind == "/JavaScript" or (hasattr(action, "get") and action.get("/JS") is not None):
        return JAVASCRIPT
    if kind == "/Launch":
        return LAUNCH
    return None


def active_content(path: Path) -> list[str]:
    """What active content the PDF holds (empty for none, or when the file cannot be read)."""
    path = Path(path)
    try:
        if _quick_clean(path):
            return []
        from pypdf import PdfReader
        from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

        reader = PdfReader(str(path), strict=False)
        if reader.is_encrypted:
            reader.decrypt("")
        found: set[str] = set()
        stack: list[Any] = [reader.trailer.get("/Root")]
        seen: set[tuple[int, int]] = set()
        visited = 0
        while stack and visited < _MAX_OBJECTS:
            node = stack.pop()
            if isinstance(node, IndirectObject):
                key = (node.idnum, node.generation)
                if key in seen:
                    continue
                seen.add(key)
                node = node.get_object()
            visited += 1
            if isinstance(node, DictionaryObject):
                for name, value in node.items():
                    if name in ("/JS", "/JavaScript"):
                        found.add(JAVASCRIPT)
                    elif name == "/AA":
                        found.add(AUTOMATIC)
                    elif name == "/S" and value == "/Launch":
                        found.add(LAUNCH)
                    elif name == "/S" and value == "/JavaScript":
                        found.add(JAVASCRIPT)
                    elif name == "/OpenAction":
                        action = value.get_object() if isinstance(value, IndirectObject) else value
                        kind = _action_kind(action) if isinstance(action, DictionaryObject) else None
                        if kind:
                            found.update({OPEN_ACTION, kind})
                    if name not in ("/Parent", "/Contents", "/Font", "/XObject", "/ColorSpace"):
                        stack.append(value)
            elif isinstance(node, ArrayObject):
                stack.extend(node)
        return sorted(found)
    except Exception as exc:  # noqa: BLE001 — an unreadable file is reported elsewhere (indexing)
        log.warning("could not check %s for active content: %s", path, exc)
        return []
