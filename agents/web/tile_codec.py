"""A game's pictures as a few tile sheets plus per-move tile changes.

A move changes a small part of the board, and the same squares of picture
recur all game long (an empty cell, a thief on grass), so a page stores each
distinct 16x16 tile once, in PNG sheets, and each position as the grid
squares that changed since the one before. A 2,000-move game then takes a
few hundred kilobytes instead of one full PNG per move, losslessly. The page
script rebuilds any position by replaying the changes.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from meeplezoo.agents.web.pictures import data_uri_to_array, png_data_uri

TILE = 16
STRIDE = 1024  # grid squares per row in a position code: code = row * STRIDE + column
SHEET_COLUMNS = 64
SHEET_ROWS = 128
EMPTY = -1  # a square outside the current picture (the picture shrank)


def _grid(picture: np.ndarray, tile: int) -> np.ndarray:
    """The picture cut into squares: an array (rows, columns, pixels of a square)."""
    h, w = picture.shape[:2]
    rows, cols = -(-h // tile), -(-w // tile)
    if cols > STRIDE:
        raise ValueError(f"picture too wide to encode: {w} pixels")
    # edge pixels fill the last squares: a smaller picture on a bigger canvas shows no black seam
    padded = np.pad(picture, ((0, rows * tile - h), (0, cols * tile - w), (0, 0)), mode="edge")
    return padded.reshape(rows, tile, cols, tile, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1)


def _changed(squares: np.ndarray, prev: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of the squares that differ from ``prev`` and of those that
    are gone (``prev`` was bigger); a picture that changes size is compared
    where the two overlap."""
    rows, cols = squares.shape[:2]
    changed = np.ones((rows, cols), bool)
    gone = np.zeros((0, 2), np.int64)
    if prev is not None:
        r, c = min(rows, prev.shape[0]), min(cols, prev.shape[1])
        changed[:r, :c] = np.any(squares[:r, :c] != prev[:r, :c], axis=2)
        outside = np.ones(prev.shape[:2], bool)
        outside[:rows, :cols] = False
        gone = np.argwhere(outside)
    return np.argwhere(changed), gone


def _sheets(tiles: list[bytes], tile: int) -> list[str]:
    per_sheet = SHEET_COLUMNS * SHEET_ROWS
    sheets = []
    for start in range(0, len(tiles), per_sheet):
        chunk = tiles[start : start + per_sheet]
        rows = -(-len(chunk) // SHEET_COLUMNS)
        sheet = np.zeros((rows * tile, SHEET_COLUMNS * tile, 3), np.uint8)
        for k, raw in enumerate(chunk):
            r, c = divmod(k, SHEET_COLUMNS)
            square = np.frombuffer(raw, np.uint8).reshape(tile, tile, 3)
            sheet[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile] = square
        sheets.append(png_data_uri(sheet))
    return sheets


def _delta_coded(updates: list[tuple[int, int]]) -> list[int]:
    """``[(code, tile)...]`` sorted by code as ``[code step, tile, ...]``: each
    code is given as its distance from the one before (short numbers in JSON)."""
    out, last = [], 0
    for code, t in updates:
        out += (code - last, t)
        last = code
    return out


def encode_frames(pictures: Iterable[np.ndarray], tile: int = TILE) -> dict:
    """JSON-able encoding of a sequence of HxWx3 uint8 pictures.

    ``frames[k]`` is ``{"size": [w, h], "changes": [step, tile, step, tile...]}``:
    the squares that differ from position k - 1, where each square's code
    (``row * STRIDE + column``) is the previous one plus ``step`` (starting
    from 0) and tile ``EMPTY`` clears it. Tiles are numbered in order of first
    use and laid out ``SHEET_COLUMNS`` wide, ``SHEET_ROWS`` tall per sheet."""
    index: dict[bytes, int] = {}
    tiles: list[bytes] = []
    frames = []
    prev = None
    for picture in pictures:
        picture = np.asarray(picture, dtype=np.uint8)
        squares = _grid(picture, tile)
        changed, gone = _changed(squares, prev)
        updates = []
        for r, c in changed:
            raw = squares[r, c].tobytes()
            t = index.get(raw)
            if t is None:
                t = index[raw] = len(tiles)
                tiles.append(raw)
            updates.append((int(r) * STRIDE + int(c), t))
        updates += [(int(r) * STRIDE + int(c), EMPTY) for r, c in gone]
        h, w = picture.shape[:2]
        frames.append({"size": [int(w), int(h)], "changes": _delta_coded(sorted(updates))})
        prev = squares
    return {
        "tile": tile,
        "stride": STRIDE,
        "sheetColumns": SHEET_COLUMNS,
        "sheetRows": SHEET_ROWS,
        "sheets": _sheets(tiles, tile),
        "frames": frames,
    }


def decode_frames(encoded: dict) -> list[np.ndarray]:
    """The pictures back from :func:`encode_frames` (what the page draws)."""
    tile, stride, cols = encoded["tile"], encoded["stride"], encoded["sheetColumns"]
    per_sheet = cols * encoded["sheetRows"]
    sheets = [data_uri_to_array(uri) for uri in encoded["sheets"]]
    width = max(f["size"][0] for f in encoded["frames"])
    height = max(f["size"][1] for f in encoded["frames"])
    canvas = np.zeros((-(-height // tile) * tile, -(-width // tile) * tile, 3), np.uint8)
    out = []
    for frame in encoded["frames"]:
        changes, code = frame["changes"], 0
        for step, t in zip(changes[::2], changes[1::2]):
            code += step
            r, c = divmod(code, stride)
            dst = canvas[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile]
            if t == EMPTY:
                dst[:] = 0
                continue
            sheet = sheets[t // per_sheet]
            sr, sc = divmod(t % per_sheet, cols)
            dst[:] = sheet[sr * tile : (sr + 1) * tile, sc * tile : (sc + 1) * tile]
        w, h = frame["size"]
        out.append(canvas[:h, :w].copy())
    return out
