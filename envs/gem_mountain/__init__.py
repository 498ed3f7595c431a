"""Gem Mountain: grab tiles from the top of a diamond-shaped mountain.

The package wires the observation encoder and the map's symmetries to the rules (rules.py never
imports them)."""

from meeplezoo.envs.gem_mountain.observe import Observer
from meeplezoo.envs.gem_mountain.rules import GemMountainGame
from meeplezoo.envs.gem_mountain.symmetry import quarter_turn_symmetries

GemMountainGame.observer_factory = Observer
GemMountainGame.symmetry_factory = quarter_turn_symmetries
