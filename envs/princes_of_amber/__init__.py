"""Princes of Amber: a card game of princes fighting for the throne of Amber.

The package wires the observation encoder to the rules (no rules module imports it)."""

from meeplezoo.envs.princes_of_amber.observe import Observer
from meeplezoo.envs.princes_of_amber.rules import AmberGame

AmberGame.observer_factory = Observer
