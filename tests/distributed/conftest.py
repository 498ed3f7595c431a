"""A local Ray with 2 CPUs, shared by the module's tests and shut down after."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    from meeplezoo.agents.arena_ray import connect

    connect(None, num_cpus=2)
    yield
    ray.shutdown()
