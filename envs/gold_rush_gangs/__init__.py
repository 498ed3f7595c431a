"""Gold Rush Gangs: three gangs of thieves race to carry 8 sacks home.

The package wires the observation encoder to the rules (rules.py never imports it)."""

from meeplezoo.envs.gold_rush_gangs.observe import Encoder
from meeplezoo.envs.gold_rush_gangs.rules import GoldRushGangsGame

GoldRushGangsGame.observer_factory = Encoder
