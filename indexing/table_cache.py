"""Tables found on a page, kept by the page's content fingerprint (sqlite under the data dir).

Table extraction is the costliest parsing stage. A re-index of an edited rulebook (a new
version with a few changed pages, or the same file after the index state was lost) looks the
page up by what camelot reads from it: its size, its text and the position of every object
drawn on it. Only pages whose fingerprint is new are extracted again. The key includes the
extractor's version, so a change to the extraction rules makes every entry miss.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from indexing.pdf_text import BBox

CachedTable = tuple[BBox, list[list[str]], str]  # box, rows, flavour


class TableCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=30)
        self._db.execute("CREATE TABLE IF NOT EXISTS page_tables (key TEXT PRIMARY KEY, tables TEXT NOT NULL)")

    def get_many(self, keys: list[str]) -> dict[str, list[CachedTable]]:
        found: dict[str, list[CachedTable]] = {}
        for start in range(0, len(keys), 500):
            part = keys[start:start + 500]
            marks = ",".join("?" * len(part))
            for key, payload in self._db.execute(
                    f"SELECT key, tables FROM page_tables WHERE key IN ({marks})", part):  # noqa: S608
                found[key] = [(tuple(box), rows, flavor) for box, rows, flavor in json.loads(payload)]
        return found

    def put_many(self, entries: dict[str, list[CachedTable]]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO page_tables (key, tables) VALUES (?, ?)",
                                 [(key, json.dumps(tables)) for key, tables in entries.items()])

    def close(self) -> None:
        self._db.close()
