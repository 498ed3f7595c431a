"""Tests of Gold Rush Gangs."""
