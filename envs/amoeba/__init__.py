"""Amoeba: tile laying with pink and blue half-edge ports (rules layer)."""
