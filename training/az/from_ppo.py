"""A MaskablePPO checkpoint written as an az network file.

``az:policy=ZIP`` searches over a PPO checkpoint with SB3 loaded at play
time. Written as a network file, the same policy and value load like any
trained az network (torch alone, ``az:path=`` or as a shipped baseline), and
carry the search settings they were measured with.

PPO's value is the acting seat's own expected return; the other seats get
an equal share of its opposite (the games are zero-sum), as
:class:`~meeplezoo.agents.az.PPOEvaluator` does, so the file gives the same
priors and values as ``az:policy=`` on the same checkpoint.

    python -m meeplezoo.training.az.from_ppo runs/x_ppo/final_model.zip --game x --out x.pt2 --sims 160
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from meeplezoo import envs
from meeplezoo.training.az.network import network_meta, write_module


class PPONetwork(torch.nn.Module):
    """A PPO policy's actor and critic, returning (logits, values per seat in
    the acting seat's relative order), the az network's interface."""

    def __init__(self, policy, num_players: int) -> None:
        super().__init__()
        self.policy = policy
        self.num_players = int(num_players)
        others = torch.full((max(self.num_players - 1, 0),), -1.0 / max(self.num_players - 1, 1))
        self.register_buffer("share", torch.cat([torch.ones(1), others]), persistent=False)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        policy = self.policy
        pi_features = policy.extract_features(observations, policy.pi_features_extractor)
        vf_features = policy.extract_features(observations, policy.vf_features_extractor)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(pi_features))
        own = policy.value_net(policy.mlp_extractor.forward_critic(vf_features))
        return logits, own * self.share


def export_ppo(
    checkpoint: str | Path, game: str, out: str | Path, config: dict | None = None, play=None
) -> Path:
    """Write ``checkpoint``'s policy and value as an az network file for
    ``game`` (its ``config``, e.g. the player count); returns the path."""
    from meeplezoo.agents.az import PPOEvaluator
    from meeplezoo.agents.policy import load_model

    rules = envs.make_game(game, **(config or {}))
    model = load_model(checkpoint)
    PPOEvaluator(model, rules.num_players).check(rules)  # refuses another game's checkpoint by name
    net = PPONetwork(model.policy.eval(), rules.num_players).eval()
    trained = {"algorithm": "ppo", "timesteps": int(model.num_timesteps), "checkpoint": Path(checkpoint).name}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_module(net, rules, out, network_meta(rules, {"body": "ppo"}, trained, play))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", help="a MaskablePPO zip trained on the game")
    parser.add_argument("--game", required=True, help="the game it was trained on, e.g. princes_of_amber")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the game's)")
    parser.add_argument("--out", required=True, help="network file to write (.pt2)")
    parser.add_argument("--sims", type=int, default=None, help="simulations the file's search plays with")
    parser.add_argument(
        "--value-mix", "--mix", type=float, default=None, help="weight of the game's estimate in a leaf value"
    )
    parser.add_argument(
        "--prior-temperature",
        "--prior-temp",
        type=float,
        default=None,
        help="prior flattening the file plays with",
    )
    args = parser.parse_args(argv)
    play = {
        key: value
        for key, value in (
            ("sims", args.sims),
            ("value_mix", args.value_mix),
            ("prior_temperature", args.prior_temperature),
        )
        if value is not None
    }
    config = {} if args.players is None else {"num_players": args.players}
    path = export_ppo(args.checkpoint, args.game, args.out, config, play)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
