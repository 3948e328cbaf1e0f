"""A copied index takes the disk space of its source, not of its preallocated length."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from knowledge.store_copy import copy_sparse, copy_store_dir

MIB = 1 << 20


def _allocated(path: Path) -> int:
    return path.stat().st_blocks * 512


def _tree_allocated(root: Path) -> int:
    return sum(_allocated(p) for p in root.rglob("*") if p.is_file())


def _holey_file(path: Path) -> bytes:
    """4 KiB of data, an 8 MiB hole, a partly filled block, and a trailing 8 MiB hole."""
    with open(path, "wb") as handle:
        handle.write(b"head" * 1024)
        handle.seek(8 * MIB, 1)
        handle.write(b"\x00" * 100 + b"middle" + b"\x00" * 100)
        handle.truncate(handle.tell() + 8 * MIB)
    return path.read_bytes()


def test_a_file_with_holes_is_copied_byte_for_byte_and_stays_small(tmp_path):
    source = _holey_file(tmp_path / "page_0.dat")
    if _allocated(tmp_path / "page_0.dat") > 4 * MIB:
        pytest.skip("this file system does not keep holes, so there is nothing to preserve")
    copy_sparse(tmp_path / "page_0.dat", tmp_path / "copy.dat")
    copied = (tmp_path / "copy.dat").read_bytes()
    assert len(copied) == len(source) and copied == source
    assert _allocated(tmp_path / "copy.dat") <= 2 * MIB


def test_a_file_of_only_zeros_and_an_empty_file_keep_their_length(tmp_path):
    (tmp_path / "zeros").write_bytes(bytes(3 * MIB + 7))
    (tmp_path / "empty").write_bytes(b"")
    for name in ("zeros", "empty"):
        copy_sparse(tmp_path / name, tmp_path / f"{name}.copy")
        assert (tmp_path / f"{name}.copy").read_bytes() == (tmp_path / name).read_bytes()


def test_the_sample_index_copy_is_identical_and_no_bigger_than_its_source(sample_index, tmp_path):
    source = Path(sample_index.data_dir)
    target = copy_store_dir(source, tmp_path / "data", ignore=shutil.ignore_patterns("*.lock"))
    files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file() and not p.name.endswith(".lock"))
    assert files and files == sorted(p.relative_to(target) for p in target.rglob("*") if p.is_file())
    for relative in files:
        assert (target / relative).read_bytes() == (source / relative).read_bytes(), relative
    apparent = sum((source / r).stat().st_size for r in files)
    if _tree_allocated(source) * 4 > apparent:
        pytest.skip("the source index is not sparse on this file system")
    # shutil.copytree writes every preallocated zero (250 MB for 7 MB of index)
    assert _tree_allocated(target) <= 2 * _tree_allocated(source) + 4 * MIB
