"""Self-play training of MaskablePPO agents on meeplezoo games.

``meeplezoo.training.selfplay`` turns any game into a single-agent Gymnasium env with
the other seats played by a ``meeplezoo.training.league`` opponent pool;
``meeplezoo.training.train`` runs MaskablePPO on it (``meeplezoo train``).
"""
