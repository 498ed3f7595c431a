"""Read or change the search settings a network file carries.

A network file says how it was measured (``meta["play"]``: simulations, the
weight of the game's estimate, rollout moves, prior temperature, leaves
evaluated together), and
``az:path=`` / ``az:baseline=`` play with those unless a spec overrides them.
When a probe finds better settings for a trained network, this rewrites
them in the file without retraining or re-exporting it.

    python -m meeplezoo.training.az.play_settings net.pt2                 # show
    python -m meeplezoo.training.az.play_settings net.pt2 --sims 200 --value-rollout 20

The settings have the names an ``az`` spec gives them (agents.puct); the
old names (``--mix``, ``--rollout``, ``--batch``) work for one version.
"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from meeplezoo.agents.az import play_settings_of, read_network_file
from meeplezoo.agents.puct import RENAMED_SETTINGS, SEARCH_SETTINGS, check_search_settings, renamed_settings
from meeplezoo.envs.core.integers import check_integer
from meeplezoo.training.az.network import save_program

SETTINGS = SEARCH_SETTINGS


def check_play(play: dict) -> dict:
    """``play`` if every setting is known and in range, else ValueError naming it."""
    unknown = sorted(set(play) - set(SETTINGS))
    if unknown:
        raise ValueError(f"unknown play setting {unknown[0]!r}; known: {', '.join(SETTINGS)}")
    for name in ("sims", "value_rollout", "search_batch"):  # the file holds them as JSON integers
        if name in play:
            check_integer(play[name], name)
    check_search_settings(
        play.get("sims", 1),
        play.get("value_mix", 0.0),
        play.get("value_rollout", 0),
        play.get("prior_temperature", 1.0),
        play.get("search_batch", 1),
    )
    if play.get("value_rollout") and not float(play.get("value_mix", 0.0)):
        raise ValueError("value_rollout needs value_mix > 0: the rollout only feeds the game's estimate")
    return play


def set_play(path: str | Path, **changes) -> dict:
    """Merge ``changes`` into the file's play settings and rewrite it (by
    their current names); the weights are untouched. Returns the new
    settings; on bad input nothing is written."""
    program, meta = read_network_file(path)
    play = check_play({**play_settings_of(meta), **renamed_settings(changes, "set_play")})
    save_program(program, Path(path), {**meta, "play": play})
    return play


class _OldFlag(argparse.Action):
    """An option's old spelling: still sets it, with a DeprecationWarning naming the new one."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        new = "--" + RENAMED_SETTINGS[option_string.lstrip("-").replace("-", "_")].replace("_", "-")
        warnings.warn(
            f"{option_string} is now {new}; the old name goes in the next version",
            DeprecationWarning,
            stacklevel=2,
        )
        setattr(namespace, self.dest, values)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m meeplezoo.training.az.play_settings", description=__doc__
    )
    parser.add_argument("network", help="an az network file (.pt2)")
    parser.add_argument("--sims", type=int, help="simulations per decision")
    parser.add_argument("--value-mix", type=float, help="weight of the game's estimate in a leaf's value")
    parser.add_argument("--value-rollout", type=int, help="random moves past a leaf before the estimate")
    parser.add_argument("--prior-temperature", type=float, help="flattens the prior, prior ** (1 / T)")
    parser.add_argument(
        "--search-batch", type=int, help="leaves evaluated together (virtual loss keeps them apart)"
    )
    for old, new in RENAMED_SETTINGS.items():
        kind = float if new in ("value_mix", "prior_temperature") else int
        parser.add_argument(
            f"--{old.replace('_', '-')}", dest=new, type=kind, action=_OldFlag, help=argparse.SUPPRESS
        )
    args = parser.parse_args(argv)
    changes = {name: getattr(args, name) for name in SETTINGS if getattr(args, name) is not None}
    try:
        play = (
            set_play(args.network, **changes)
            if changes
            else play_settings_of(read_network_file(args.network)[1])
        )
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(play, sort_keys=True))


if __name__ == "__main__":
    main()
