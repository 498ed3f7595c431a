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


def _grid(picture: np.ndarray, tile: int) -> tuple[np.ndarray, np.ndarray]:
    """The picture cut into squares: (codes of the squares, their pixels)."""
    h, w = picture.shape[:2]
    rows, cols = -(-h // tile), -(-w // tile)
    if cols > STRIDE:
        raise ValueError(f"picture too wide to encode: {w} pixels")
    padded = np.zeros((rows * tile, cols * tile, 3), np.uint8)
    padded[:h, :w] = picture
    squares = padded.reshape(rows, tile, cols, tile, 3).transpose(0, 2, 1, 3, 4).reshape(rows * cols, -1)
    codes = (np.arange(rows)[:, None] * STRIDE + np.arange(cols)[None, :]).ravel()
    return codes, squares


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


def encode_frames(pictures: Iterable[np.ndarray], tile: int = TILE) -> dict:
    """JSON-able encoding of a sequence of HxWx3 uint8 pictures.

    ``frames[k]`` is ``{"size": [w, h], "changes": [code, tile, code, tile...]}``
    (tile ``EMPTY`` clears a square); tiles are numbered in order of first
    use and laid out ``SHEET_COLUMNS`` wide, ``SHEET_ROWS`` tall per sheet."""
    index: dict[bytes, int] = {}
    tiles: list[bytes] = []
    frames = []
    prev_codes = np.zeros(0, np.int64)
    prev_squares = np.zeros((0, tile * tile * 3), np.uint8)
    for picture in pictures:
        codes, squares = _grid(np.asarray(picture, dtype=np.uint8), tile)
        if np.array_equal(codes, prev_codes):
            changed = np.flatnonzero(np.any(squares != prev_squares, axis=1))
            gone = np.zeros(0, np.int64)
        else:
            changed = np.arange(codes.size)
            gone = np.setdiff1d(prev_codes, codes)
        out = []
        for k in changed:
            raw = squares[k].tobytes()
            t = index.get(raw)
            if t is None:
                t = index[raw] = len(tiles)
                tiles.append(raw)
            out += (int(codes[k]), t)
        for code in gone:
            out += (int(code), EMPTY)
        h, w = picture.shape[:2]
        frames.append({"size": [int(w), int(h)], "changes": out})
        prev_codes, prev_squares = codes, squares
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
        changes = frame["changes"]
        for code, t in zip(changes[::2], changes[1::2]):
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
