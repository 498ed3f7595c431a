"""``meeplezoo replay FILE``: step through a saved game in the terminal."""

from __future__ import annotations

import time

from meeplezoo.envs.core.errors import UsageError

HELP = "show a saved game move by move (ansi render)"


def add_arguments(parser) -> None:
    parser.add_argument("file", help="replay JSON written by the arena or env.replay_record().save()")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait between moves")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each move (q to quit)")
    parser.add_argument(
        "--viewer", type=int, default=None, help="show the board from this seat (default: everything)"
    )
    parser.add_argument("--start", type=int, default=0, help="first move to show (skip the ones before)")


def show(
    record,
    delay: float = 0.0,
    step: bool = False,
    viewer: int | None = None,
    start: int = 0,
    output_fn=print,
    input_fn=input,
    sleep=time.sleep,
) -> int:
    """Print the positions of ``record`` from move ``start`` on (the final
    one always); returns how many positions were shown. A move is checked
    before it is named, so a tampered log stops with a ReplayError."""
    from meeplezoo.envs.core.replay import check_replayed_action, replay_states

    output_fn(_header(record))
    total = len(record.actions)
    shown, last_move, state = 0, None, None
    for i, state in enumerate(replay_states(record)):
        if i == 0:
            check_viewer(viewer, state.game.num_players)
        visible = i >= start or i == total
        if visible:
            if last_move is not None:
                output_fn(f"\nmove {i}: {last_move}")
            output_fn(state.render_ansi(viewer))
            shown += 1
        if i == total:
            break
        check_replayed_action(state, i, record.actions[i])
        last_move = f"player_{state.current_player} plays {state.action_to_string(record.actions[i])}"
        if visible and not _wait(step, delay, input_fn, sleep):
            return shown
    if state is not None and state.done:
        returns = ", ".join(f"{r:+.2f}" for r in state.returns())
        output_fn(f"\ngame over after {total} moves; returns {returns}")
    return shown


def _header(record) -> str:
    header = f"{record.game} seed={record.seed} config={record.config}"
    agents = record.meta.get("agents")
    if agents:
        header += "\n" + "  ".join(f"seat {i}: {a}" for i, a in enumerate(agents))
    return header


def _wait(step: bool, delay: float, input_fn, sleep) -> bool:
    """Wait before the next move (Enter with ``step``, else ``delay``
    seconds); False when the person quits (q, or the end of input)."""
    if step:
        try:
            return input_fn("[Enter] next, q quit> ").strip().lower() != "q"
        except EOFError:
            return False
    if delay > 0:
        sleep(delay)
    return True


def check_viewer(viewer: int | None, num_players: int) -> None:
    """A seat of this game or None (everything): a render from a seat that
    does not exist would fail, or show another seat's secrets."""
    if viewer is not None and not 0 <= viewer < num_players:
        raise UsageError(f"--viewer {viewer} is not a seat of this game (seats 0-{num_players - 1})")


def run(args) -> int:
    from meeplezoo.cli import user_input
    from meeplezoo.envs.core.replay import ReplayRecord

    with user_input():
        record = ReplayRecord.load(args.file)
    try:
        show(
            record,
            delay=args.delay,
            step=args.step,
            viewer=args.viewer,
            start=args.start,
        )
    except BrokenPipeError:  # piped into head/less that closed early
        pass
    return 0
