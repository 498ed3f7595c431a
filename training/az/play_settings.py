"""Read or change the search settings a network file carries.

A network file says how it was measured (``meta["play"]``: simulations, the
weight of the game's estimate, rollout moves, prior temperature, leaves
evaluated together), and
``az:path=`` / ``az:baseline=`` play with those unless a spec overrides them.
When a probe finds better settings for a trained network, this rewrites
them in the file without retraining or re-exporting it.

    python -m meeplezoo.training.az.play_settings net.pt2                 # show
    python -m meeplezoo.training.az.play_settings net.pt2 --sims 200 --rollout 20
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from meeplezoo.agents.az import read_network_file
from meeplezoo.agents.puct import check_search_settings
from meeplezoo.training.az.network import save_program

SETTINGS = ("sims", "mix", "rollout", "prior_temperature", "batch")


def check_play(play: dict) -> dict:
    """``play`` if every setting is known and in range, else ValueError naming it."""
    unknown = sorted(set(play) - set(SETTINGS))
    if unknown:
        raise ValueError(f"unknown play setting {unknown[0]!r}; known: {', '.join(SETTINGS)}")
    for name in ("sims", "rollout", "batch"):  # the file holds them as JSON integers
        if name in play and not isinstance(play[name], int):
            raise ValueError(f"{name} must be an integer, got {play[name]!r}")
    check_search_settings(
        play.get("sims", 1),
        play.get("mix", 0.0),
        play.get("rollout", 0),
        play.get("prior_temperature", 1.0),
        play.get("batch", 1),
    )
    if play.get("rollout") and not float(play.get("mix", 0.0)):
        raise ValueError("rollout needs mix > 0: the rollout only feeds the game's estimate")
    return play


def set_play(path: str | Path, **changes) -> dict:
    """Merge ``changes`` into the file's play settings and rewrite it; the
    weights are untouched. Returns the new settings; on bad input nothing
    is written."""
    program, meta = read_network_file(path)
    play = check_play({**meta.get("play", {}), **changes})
    save_program(program, Path(path), {**meta, "play": play})
    return play


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m meeplezoo.training.az.play_settings", description=__doc__
    )
    parser.add_argument("network", help="an az network file (.pt2)")
    parser.add_argument("--sims", type=int, help="simulations per decision")
    parser.add_argument("--mix", type=float, help="weight of the game's estimate in a leaf's value")
    parser.add_argument("--rollout", type=int, help="random moves past a leaf before the estimate")
    parser.add_argument("--prior-temperature", type=float, help="flattens the prior, prior ** (1 / T)")
    parser.add_argument("--batch", type=int, help="leaves evaluated together (virtual loss keeps them apart)")
    args = parser.parse_args(argv)
    changes = {name: getattr(args, name) for name in SETTINGS if getattr(args, name) is not None}
    try:
        play = (
            set_play(args.network, **changes)
            if changes
            else read_network_file(args.network)[1].get("play", {})
        )
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(play, sort_keys=True))


if __name__ == "__main__":
    main()
