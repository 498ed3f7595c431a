"""What the web table sends the page: one seat's view of a game, as JSON.

Built only from what that seat may know: the picture rendered for it, the
seat to move, the moves so far named for it (see :mod:`.move_labels`), its own
legal moves when it is its turn, and the result once the game is over. The
hidden rest of the state never reaches this dictionary.
"""

from __future__ import annotations

from meeplezoo.agents.web.pictures import png_data_uri
from meeplezoo.agents.web.timeline import rewards_so_far, status_line
from meeplezoo.envs.core.ranking import ranks as competition_ranks


def _first_words(label: str, count: int) -> str:
    return " ".join(label.split()[:count]) or "other"


def move_groups(labels: list[str], split_above: int = 8) -> list[str]:
    """The heading each move button is filed under: the first word of its
    name, or the first two words for a big group they split into groups of
    two or more (Gold Rush Gangs' sixteen "move ..." become "move pro",
    "move A", "move B")."""
    groups = [_first_words(label, 1) for label in labels]
    for name in set(groups):
        members = [i for i, g in enumerate(groups) if g == name]
        if len(members) <= split_above:
            continue
        finer = [_first_words(labels[i], 2) for i in members]
        sizes = {key: finer.count(key) for key in finer}
        if len(sizes) >= 2 and min(sizes.values()) >= 2:
            for i, key in zip(members, finer):
                groups[i] = key
    return groups


def legal_moves(state) -> list[dict]:
    """The acting seat's legal moves, in action order, with names and groups."""
    actions = [int(a) for a in state.legal_actions()]
    labels = [state.action_to_string(a) for a in actions]
    return [
        {"action": a, "label": label, "group": group}
        for a, label, group in zip(actions, labels, move_groups(labels))
    ]


def seat_payload(
    state,
    seat: int,
    *,
    table_id: str,
    version: int,
    agents: list[str],
    history: list[tuple[int, str]],
    replay: str | None = None,
    replay_error: str | None = None,
) -> dict:
    """The page's view of ``state`` for ``seat``; ``history`` holds the moves
    so far as (seat, name as ``seat`` may know it)."""
    done = state.done
    your_turn = not done and state.current_player == seat
    result = None
    if done:
        returns = rewards_so_far(state)
        result = {
            "returns": returns,
            "ranks": [int(r) for r in competition_ranks(returns)],
            "truncated": bool(state.truncated and not state.terminal),
            "replay": replay,
            "replayError": replay_error,
        }
    return {
        "id": table_id,
        "version": version,
        "game": state.game.info.name,
        "title": state.game.info.title,
        "hiddenInformation": state.game.info.hidden_information,
        "seat": seat,
        "agents": list(agents),
        "picture": png_data_uri(state.render_rgb(seat), compress_level=6),  # one per move: fast
        "toMove": -1 if done else int(state.current_player),
        "yourTurn": your_turn,
        "status": status_line(state),
        "done": done,
        "history": [{"seat": int(s), "label": label} for s, label in history],
        "legal": legal_moves(state) if your_turn else [],
        "result": result,
    }
