"""Arena games as Ray tasks, for tournaments bigger than one machine.

Each task plays a chunk of the tournament's games with its own bots; every
game carries its own seed, so the table is the same as a local run's for
the same tournament seed, whatever the cluster does.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.agents.arena import MatchResult, MatchTable


def connect(address: str | None = None, num_cpus: int | None = None) -> None:
    """Join ``address`` (``auto``, ``ray://host:port``) or start a local Ray."""
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)


def _play_chunk(game, specs, labels, chunk) -> list[MatchResult]:
    table = MatchTable(game, specs, labels)
    return [table.play(task) for task in chunk]


def run_tasks_on_ray(
    game, specs, labels, tasks: list, workers: int, bar: Any, address: str | None = None
) -> list[MatchResult]:
    """Play ``tasks`` as Ray tasks (about four chunks per worker)."""
    import ray

    connect(address, num_cpus=max(1, workers) if not address else None)
    remote = ray.remote(_play_chunk)
    size = max(1, len(tasks) // (4 * max(1, workers)))
    shared = [ray.put(x) for x in (game, specs, labels)]
    pending = [remote.remote(*shared, tasks[i : i + size]) for i in range(0, len(tasks), size)]
    results: list[MatchResult] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        chunk = ray.get(done[0])
        results.extend(chunk)
        bar.update(len(chunk))
    return results
