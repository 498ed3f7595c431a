"""Spec strings build the bots the arena and training name."""

from __future__ import annotations

import pytest

from meeplezoo.agents.ismcts import ISMCTSAgent
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.agents.registry import make_agent, parse_spec


def test_specs_parse_to_kind_and_typed_parameters():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("ismcts:sims=100,c=1.4") == ("ismcts", {"sims": 100, "c": 1.4})
    assert parse_spec("policy:path=runs/x/best.zip,deterministic=true") == (
        "policy",
        {"path": "runs/x/best.zip", "deterministic": True},
    )


def test_make_agent_builds_each_kind():
    assert isinstance(make_agent("random"), RandomAgent)
    mcts = make_agent("mcts:sims=200,depth=20")
    assert isinstance(mcts, MCTSAgent) and mcts.sims == 200 and mcts.depth == 20
    assert isinstance(make_agent("ismcts:sims=5"), ISMCTSAgent)
    assert make_agent("mcts:sims=7").describe() == "mcts(c=1.4,depth=20,sims=7)"
    assert make_agent("mcts:depth=none").depth is None


@pytest.mark.parametrize(
    "spec", ["alphazero", "mcts:sims", "mcts:simz=3", "mcts:sims=0", "policy:path=nope.zip"]
)
def test_bad_specs_are_refused(spec):
    with pytest.raises(ValueError):
        make_agent(spec).act({"observation": None, "action_mask": [1, 1]})


def test_a_misspelt_parameter_names_the_bots_parameters_and_the_nearest():
    with pytest.raises(
        ValueError, match=r"'mcts' has no parameter 'sim'.*did you mean 'sims'\?.*parameters: sims, c"
    ):
        make_agent("mcts:sim=200")


def test_a_misspelt_agent_suggests_the_nearest():
    with pytest.raises(ValueError, match=r"unknown agent 'ismtcs'.*did you mean 'ismcts'\?"):
        make_agent("ismtcs:sims=10")
