"""Finished web-table games on disk: one replay file each, never overwritten."""

from __future__ import annotations

import itertools
from pathlib import Path

from meeplezoo.envs.core.replay import ReplayRecord


def save_new_replay(record: ReplayRecord, folder: str | Path) -> Path:
    """Write ``record`` as the first free ``<game>_<k>.json`` in ``folder``
    (created if needed); an existing file is never replaced."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    text = record.to_json()
    for k in itertools.count():
        path = folder / f"{record.game}_{k:05d}.json"
        try:
            with path.open("x", encoding="utf-8") as out:
                out.write(text)
        except FileExistsError:
            continue
        return path
    raise AssertionError("unreachable")  # pragma: no cover
