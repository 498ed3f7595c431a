"""Gem Mountain: grab tiles from the top of a diamond-shaped mountain."""
