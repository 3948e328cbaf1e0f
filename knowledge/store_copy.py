"""Copy an embedded store's folder without filling its holes.

The embedded engine preallocates its storage files (32 MiB pages, a 32 MiB WAL) and writes only
a little of each: an index of the sample corpus takes 7 MB on disk and 250 MB once copied with
`shutil.copytree`, which writes every zero. Tests and benchmarks copy an index so that a second
process may hold it; this copy skips blocks of zeros, so the target stays as small as the source.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

BLOCK = 1 << 14
_ZEROS = bytes(BLOCK)


def copy_sparse(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> str:
    """Copy one file, seeking over every all-zero block (the file system then leaves a hole)."""
    with open(source, "rb") as reading, open(target, "wb") as writing:
        while block := reading.read(BLOCK):
            if block == _ZEROS[: len(block)]:
                writing.seek(len(block), os.SEEK_CUR)
            else:
                writing.write(block)
        # a file that ends in a hole gets its length from truncate, not from a write
        writing.truncate(reading.tell())
    shutil.copystat(source, target)
    return str(target)


def copy_store_dir(source: Path, target: Path, ignore: Callable[[str, list[str]], set[str]] | None = None) -> Path:
    """`shutil.copytree` with sparse file copies; `target` must not exist."""
    shutil.copytree(source, target, ignore=ignore, copy_function=copy_sparse)
    return target
