"""Amoeba: tile laying with pink and blue half-edge ports (rules layer).

The package wires the observation encoder to the rules (rules.py never imports it)."""

from meeplezoo.envs.amoeba.observe import Observer
from meeplezoo.envs.amoeba.rules import AmoebaGame

AmoebaGame.observer_factory = Observer
