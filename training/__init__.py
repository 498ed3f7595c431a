"""Self-play training of MaskablePPO agents on meeplezoo games.

``training.selfplay`` turns any game into a single-agent Gymnasium env with
the other seats played by a ``training.league`` opponent pool;
``training.train`` runs MaskablePPO on it (``meeplezoo train``).
"""
