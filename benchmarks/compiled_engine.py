"""The compiled engine beside the Python reference and the peers, in one run.

Rows (wall clock, medians of ``--repeats``; the figures the engine's targets
name):

- ``rules``: mask + apply + a random legal choice, all inside the kernel, one
  core (the Python rules' loop of the same work beside it);
- ``make_vec B``: batched steps per second with each step's observation and
  mask, auto-reset, random legal actions drawn in compiled code, at batch
  sizes 1, 64, 1024 and 4096, on every core numba is given;
- ``aec``: the PettingZoo loop a user writes, compiled and Python backends,
  against PettingZoo's connect_four_v3 in the same run;
- ``clone`` and ``determinize``: microseconds per call on sampled positions;
- ``compile``: a fresh process compiling the kernels into an empty cache,
  then a second process loading them from that cache;
- ``pgx``: Pgx's connect_four, othello and backgammon at the same batch
  sizes (JAX on the CPU), only when pgx is installed.

Run: ``python -m meeplezoo.benchmarks.compiled_engine --markdown F.md --json F.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from statistics import median
from typing import Any

import numpy as np

from meeplezoo.benchmarks import machine
from meeplezoo.benchmarks.step_loop import play_aec, play_rules

GAME = "gem_mountain_v0"
BATCHES = (1, 64, 1024, 4096)
PGX_GAMES = ("connect_four", "othello", "backgammon")


def _rate(work, seconds: float, repeats: int) -> float:
    """Median units per second of ``work()`` (returns units done), each
    repeat run for at least ``seconds``."""
    work()  # warm-up (and compilation)
    rates = []
    for _ in range(repeats):
        units, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            units += work()
        rates.append(units / elapsed)
    return median(rates)


def kernel_rules_rate(seconds: float, repeats: int) -> float:
    """Steps/s of random play inside the kernel (mask, apply, choice)."""
    import meeplezoo
    from meeplezoo.envs.core.compiled import pcg64
    from meeplezoo.envs.core.compiled.kernel import kernel_of
    from meeplezoo.envs.core.compiled.layout import layout_of
    from meeplezoo.envs.gem_mountain.kernel.rules import play_random

    game = meeplezoo.make_game(GAME)
    kernel = kernel_of(game)
    row = layout_of(kernel.state_cls).new_rows(1)[0]
    game_row = kernel.game_row(game)
    gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
    pcg64.seed(gen, 0)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    seeds = iter(range(10**9))

    def work() -> int:
        steps = 0
        for _ in range(200):
            kernel.new_game(row, game_row, next(seeds))
            steps += play_random(row, game_row, gen, mask, 10**6)
        return steps

    return _rate(work, seconds, repeats)


def python_rules_rate(seconds: float, repeats: int) -> float:
    import meeplezoo

    game = meeplezoo.make_game(GAME)
    return _rate(lambda: play_rules(game, 2000, 0) and 2000, seconds, repeats)


def vec_rate(batch: int, seconds: float, repeats: int) -> float:
    """Steps/s of ``make_vec(GAME, batch)`` with random legal actions."""
    import meeplezoo
    from meeplezoo.envs.core.compiled import pcg64
    from meeplezoo.envs.core.compiled.batch import random_legal_actions

    env = meeplezoo.make_vec(GAME, batch)
    state = env.reset(0)
    generators = np.zeros((batch, pcg64.WORDS), dtype=np.uint64)
    for i in range(batch):
        pcg64.seed(generators[i], i)
    actions = np.zeros(batch, dtype=np.int64)
    rounds = max(1, 4096 // batch)

    def work() -> int:
        for _ in range(rounds):
            random_legal_actions(state.legal_action_mask, generators, actions)
            env.step(actions)
        return rounds * batch

    return _rate(work, seconds, repeats)


def aec_rate(name: str, seconds: float, repeats: int, **config: Any) -> float:
    if name == "connect_four_v3":
        from pettingzoo.classic import connect_four_v3

        env = connect_four_v3.env()
    else:
        import meeplezoo

        env = meeplezoo.make(name, **config)
    return _rate(lambda: play_aec(env, 1000, 0) and 1000, seconds, repeats)


def per_call_us(backend: str, what: str, repeats: int) -> float:
    """Microseconds per clone or determinize over positions of random games."""
    import meeplezoo

    env = meeplezoo.make(GAME, backend=backend)
    states = []
    rng = np.random.default_rng(0)
    for seed in range(8):
        env.reset(seed=seed)
        state = env.game_state
        while not state.done and len(states) < 8 * (seed + 1):
            state.apply(int(rng.choice(state.legal_actions())))
            states.append(state.clone())
    searcher = np.random.default_rng(1)
    op = (lambda s: s.clone()) if what == "clone" else (lambda s: s.determinize(s.current_player, searcher))

    def work() -> int:
        for s in states:
            op(s)
        return len(states)

    return 1e6 / _rate(work, 0.2, repeats)


STARTUP = """
import time; t = time.perf_counter()
import numpy as np, meeplezoo
env = meeplezoo.make_vec("gem_mountain_v0", 4)
state = env.reset(0)
env.step(state.legal_action_mask.argmax(axis=1))
e = meeplezoo.make("gem_mountain_v0"); e.reset(seed=0); e.last()
s = e.game_state; s.evaluate(0); s.determinize(0, np.random.default_rng(0))
print(time.perf_counter() - t)
"""


def startup_seconds() -> tuple[float, float]:
    """(first use compiling into an empty cache, a later process loading it)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [subprocess.run([sys.executable, "-c", STARTUP], env=env, capture_output=True, text=True)]
        runs.append(subprocess.run([sys.executable, "-c", STARTUP], env=env, capture_output=True, text=True))
    for run in runs:
        if run.returncode:
            raise RuntimeError(run.stderr[-2000:])
    return float(runs[0].stdout.split()[-1]), float(runs[1].stdout.split()[-1])


def pgx_rates(seconds: float, repeats: int) -> dict[str, dict[int, float]] | str:
    """Pgx steps/s per game and batch (random legal actions, auto-reset), or why skipped."""
    try:
        import jax
        import pgx
    except ImportError:
        return "pgx is not installed (pip install pgx)"
    out: dict[str, dict[int, float]] = {}
    for name in PGX_GAMES:
        env = pgx.make(name)
        init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(pgx.auto_reset(env.step, env.init)))
        out[name] = {}
        for batch in BATCHES:
            key = jax.random.PRNGKey(0)
            state = init(jax.random.split(key, batch))

            def work(state=state, key=key, batch=batch, step=step) -> int:
                for _ in range(max(1, 1024 // batch)):
                    key, k1, k2 = jax.random.split(key, 3)
                    logits = jax.numpy.log(state.legal_action_mask.astype(jax.numpy.float32))
                    action = jax.random.categorical(k1, logits, axis=1)
                    state = step(state, action, jax.random.split(k2, batch))
                state.terminated.block_until_ready()
                return max(1, 1024 // batch) * batch

            out[name][batch] = _rate(work, seconds, repeats)
    return out


def measure(seconds: float, repeats: int, with_startup: bool = True) -> dict[str, Any]:
    """Every row of the table, in one process (the start-up rows in two more)."""
    import numba

    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731 - progress lines
    out: dict[str, Any] = {"threads": numba.get_num_threads(), "game": GAME}
    say("rules: compiled and Python")
    numba.set_num_threads(1)
    out["rules"] = {
        "compiled": kernel_rules_rate(seconds, repeats),
        "python": python_rules_rate(seconds, repeats),
    }
    numba.set_num_threads(out["threads"])
    out["make_vec"] = {}
    for batch in BATCHES:
        say(f"make_vec at batch {batch}")
        out["make_vec"][batch] = vec_rate(batch, seconds, repeats)
    say("AEC loops")
    out["aec"] = {
        "compiled": aec_rate(GAME, seconds, repeats),
        "python": aec_rate(GAME, seconds, repeats, backend="python"),
        "connect_four_v3": aec_rate("connect_four_v3", seconds, repeats),
    }
    say("clone and determinize")
    out["per_call_us"] = {
        f"{what} {backend}": per_call_us(backend, what, repeats)
        for what in ("clone", "determinize")
        for backend in ("compiled", "python")
    }
    if with_startup:
        say("start-up: compiling into an empty cache, then loading it")
        out["startup_seconds"] = dict(zip(("first", "cached"), startup_seconds()))
    say("pgx")
    out["pgx"] = pgx_rates(seconds, repeats)
    return out


def markdown(result: dict[str, Any], command: str) -> str:
    """The results as the Markdown page in benchmarks/results."""
    rules, aec, calls = result["rules"], result["aec"], result["per_call_us"]
    c4 = aec["connect_four_v3"]
    lines = [
        "# The compiled engine: Gem Mountain",
        "",
        f"Made by `{command}` on {result['date']}.",
        "",
        f"Machine: {result['machine']['cpu']}, {result['machine']['usable_cores']} usable cores, "
        f"numba threads {result['threads']}, wall clock, medians of {result['repeats']} repeats.",
        "",
        "| what | compiled | Python reference | ratio |",
        "|---|---:|---:|---:|",
        f"| rules steps/s, one core (mask + apply + random choice) | {rules['compiled']:,.0f} | "
        f"{rules['python']:,.0f} | {rules['compiled'] / rules['python']:.1f}x |",
        f"| AEC loop steps/s | {aec['compiled']:,.0f} | {aec['python']:,.0f} | "
        f"{aec['compiled'] / aec['python']:.1f}x |",
        f"| AEC loop / connect_four_v3 ({c4:,.0f} steps/s) | {aec['compiled'] / c4:.2f}x | "
        f"{aec['python'] / c4:.2f}x | |",
    ]
    for what in ("clone", "determinize"):
        fast, slow = calls[f"{what} compiled"], calls[f"{what} python"]
        lines.append(f"| {what} us per call | {fast:.2f} | {slow:.2f} | {slow / fast:.1f}x |")
    lines += ["", "| make_vec batch | steps/s (observation + mask each step, auto-reset) |", "|---:|---:|"]
    lines += [f"| {batch} | {rate:,.0f} |" for batch, rate in result["make_vec"].items()]
    if "startup_seconds" in result:
        first, cached = result["startup_seconds"]["first"], result["startup_seconds"]["cached"]
        lines += ["", f"Start-up: first use compiles in {first:.1f} s; a later process loads the cache "
                  f"in {cached:.1f} s (imports included)."]  # fmt: skip
    pgx = result["pgx"]
    lines += ["", "## Pgx on the same machine (JAX on the CPU)", ""]
    if isinstance(pgx, str):
        lines.append(f"Skipped: {pgx}.")
    else:
        lines += ["| game | " + " | ".join(f"batch {b}" for b in BATCHES) + " |", "|---" * 5 + "|"]
        lines += [
            f"| {g} | " + " | ".join(f"{r:,.0f}" for r in rates.values()) + " |" for g, rates in pgx.items()
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m meeplezoo.benchmarks.compiled_engine", description=__doc__
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-startup", action="store_true", help="skip the two start-up processes")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--markdown", help="write the table here")
    args = parser.parse_args(argv)
    command = "python -m meeplezoo.benchmarks.compiled_engine " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    result = measure(args.seconds, args.repeats, not args.no_startup)
    result.update(
        command=command.strip(),
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        machine=machine.describe(),
        repeats=args.repeats,
    )
    text = markdown(result, command.strip())
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2, default=str)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
