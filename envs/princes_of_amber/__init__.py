"""Princes of Amber: a card game of princes fighting for the throne of Amber."""
