"""Amethyst and Amber: the game package wires the observation encoder to the rules."""

from meeplezoo.envs.amethyst_amber.observe import ObservationTables
from meeplezoo.envs.amethyst_amber.rules import AmethystAmberGame

AmethystAmberGame.observer_factory = ObservationTables
