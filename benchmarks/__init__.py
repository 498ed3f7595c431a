"""Benchmarks: how fast each game's step loop runs, beside the environments a
user would otherwise pick (PettingZoo classic) and beside an API floor.

``step_loop`` measures, ``subjects`` says what gets measured, ``report``
prints and saves the figures; ``meeplezoo bench`` drives them.
"""
