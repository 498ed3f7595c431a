"""Gold Rush Gangs: three gangs of thieves race to carry 8 sacks home."""
