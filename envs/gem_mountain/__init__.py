"""Gem Mountain: grab tiles from the top of a diamond-shaped mountain.

The package wires the observation encoder to the rules (rules.py never imports it)."""

from meeplezoo.envs.gem_mountain.observe import Observer
from meeplezoo.envs.gem_mountain.rules import GemMountainGame

GemMountainGame.observer_factory = Observer
