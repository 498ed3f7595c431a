"""``meeplezoo view``'s page: a replay as one self-contained HTML file.

Everything is inlined (pictures as tile sheets in data URIs, style, script),
so the file opens from disk with no network. The page shows what its viewer
may know: pictures rendered for that seat and move names from
:func:`~meeplezoo.agents.web.move_labels.move_label`.
"""

from __future__ import annotations

from pathlib import Path

from meeplezoo import envs
from meeplezoo.agents.web.static_files import page
from meeplezoo.agents.web.tile_codec import encode_frames
from meeplezoo.agents.web.timeline import replay_timeline
from meeplezoo.envs.core.replay import ReplayRecord


def view_note(hidden_information: bool, viewer: int | None) -> str:
    if viewer is None:
        if hidden_information:
            return "Spectator view: everything is shown, every seat's hidden cards and tiles included."
        return "Spectator view: everything is shown (every move of this game is public)."
    if hidden_information:
        return (
            f"Seen by player_{viewer}: only what player_{viewer} may know; "
            "other seats' private moves are named neutrally."
        )
    return f"Seen by player_{viewer}: every move of this game is public, so this is the full game."


def _seat_names(record: ReplayRecord, num_players: int) -> list[str]:
    agents = record.meta.get("agents")
    if isinstance(agents, list) and len(agents) == num_players:
        return [f"player_{i} ({agent})" for i, agent in enumerate(agents)]
    return [f"player_{i}" for i in range(num_players)]


def viewer_data(record: ReplayRecord, viewer: int | None = None) -> dict:
    """The page's data: one entry per position in each list, and the pictures."""
    labels, moved, to_move, rewards, ending = [], [], [], [], ""

    def collect():
        nonlocal ending
        for position in replay_timeline(record, viewer):
            labels.append(position.label)
            moved.append(position.moved)
            to_move.append(position.to_move)
            rewards.append(position.rewards)
            ending = position.status
            yield position.picture

    pictures = encode_frames(collect())
    game = envs.game_class(record.game)
    num_players = len(rewards[0])
    outcome = "" if to_move[-1] >= 0 else f", {ending}"
    return {
        "title": game.info.title,
        "subtitle": f"{record.game}, seed {record.seed}, {num_players} players, {len(record.actions)} moves{outcome}",
        "viewNote": view_note(game.info.hidden_information, viewer),
        "seats": _seat_names(record, num_players),
        "labels": labels,
        "moved": moved,
        "toMove": to_move,
        "rewards": rewards,
        "ending": ending,
        "pictures": pictures,
    }


def viewer_html(record: ReplayRecord, viewer: int | None = None) -> str:
    data = viewer_data(record, viewer)
    who = "spectator" if viewer is None else f"player_{viewer}"
    return page(
        "viewer.html",
        title=f"{data['title']} replay, seed {record.seed} ({who})",
        styles=["common.css", "viewer.css"],
        scripts=["board_fit.js", "tiles.js", "viewer.js"],
        data=data,
    )


def default_output(replay_path: Path, viewer: int | None) -> Path:
    suffix = ".html" if viewer is None else f".player_{viewer}.html"
    return replay_path.with_name(replay_path.stem + suffix)


def write_viewer_page(replay_path, output=None, viewer: int | None = None) -> Path:
    """Read a replay file and write its page (default: beside it, ``.html``).
    Raises ValueError (bad replay, bad viewer) or OSError (cannot read or write)."""
    replay_path = Path(replay_path)
    record = ReplayRecord.load(replay_path)
    out = Path(output) if output is not None else default_output(replay_path, viewer)
    if out.resolve() == replay_path.resolve():
        raise ValueError(f"the page would overwrite the replay {replay_path}; choose another -o")
    text = viewer_html(record, viewer)
    out.write_text(text, encoding="utf-8")
    return out


def write_replay_pages(replay_paths) -> list[Path]:
    """A spectator page beside each replay file (``game_00000.html``...)."""
    return [write_viewer_page(path) for path in replay_paths]
