"""Bots that play meeplezoo games, and the arena that rates them."""
