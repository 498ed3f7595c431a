"""Expert iteration (AlphaZero-style): self-play with PUCT search, a replay buffer, a learner."""
