"""The compiled engine beside the Python reference and the peers, in one
run, for every game with a kernel.

Rows per game (wall clock, medians of ``--repeats``; the figures the
engine's targets name):

- ``rules``: mask + apply + a random legal choice, all inside the kernel, one
  core (the Python rules' loop of the same work beside it);
- ``make_vec B``: batched steps per second with each step's observation and
  mask, auto-reset, random legal actions drawn in compiled code, at batch
  sizes 1, 64, 1024 and 4096, on every core numba is given;
- ``aec``: the PettingZoo loop a user writes, compiled and Python backends,
  against PettingZoo's connect_four_v3 in the same run;
- ``clone`` and ``determinize``: microseconds per call on sampled positions
  (determinize for hidden-information games);

and once: ``compile``, a fresh process compiling every kernel into an empty
cache (one process per game, as ``envs/core/compiled/warm.py`` does), then a
second one loading them; ``pgx``, Pgx's connect_four, othello and backgammon
at the same batch sizes (JAX on the CPU), only when pgx is installed.

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

BATCHES = (1, 64, 1024, 4096)
FLOOR_BATCH = 1024  # the batch of the target, and past the caches for most games
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


def kernel_games() -> list[str]:
    from meeplezoo.envs.core.compiled.warm import kernel_games as games

    return games()


def kernel_rules_rate(name: str, seconds: float, repeats: int) -> float:
    """Steps/s of random play inside ``name``'s kernel (mask, apply, choice)."""
    import meeplezoo
    from meeplezoo.envs.core.compiled import pcg64
    from meeplezoo.envs.core.compiled.kernel import kernel_of
    from meeplezoo.envs.core.compiled.layout import layout_of
    from meeplezoo.envs.core.compiled.random_play import random_player

    game = meeplezoo.make_game(name)
    kernel = kernel_of(game)
    play = random_player(kernel)
    row = layout_of(kernel.state_cls).new_rows(1)[0]
    game_row = kernel.game_row(game)
    gen = np.zeros(pcg64.WORDS, dtype=np.uint64)
    pcg64.seed(gen, 0)
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    seeds = iter(range(10**9))

    def work() -> int:
        steps = 0
        while steps < 2000:
            kernel.new_game(row, game_row, next(seeds))
            steps += play(row, game_row, gen, mask, 10**6)
        return steps

    return _rate(work, seconds, repeats)


def python_rules_rate(name: str, seconds: float, repeats: int) -> float:
    import meeplezoo

    game = meeplezoo.make_game(name)
    return _rate(lambda: play_rules(game, 2000, 0) and 2000, seconds, repeats)


def seeded_generators(batch: int) -> np.ndarray:
    """One PCG64 per slot, slot ``i`` seeded ``i``: the benchmark's random players."""
    from meeplezoo.envs.core.compiled import pcg64

    generators = np.zeros((batch, pcg64.WORDS), dtype=np.uint64)
    for i in range(batch):
        pcg64.seed(generators[i], i)
    return generators


def vec_rate(name: str, batch: int, seconds: float, repeats: int) -> float:
    """Steps/s of ``make_vec(name, batch)`` with random legal actions."""
    import meeplezoo
    from meeplezoo.envs.core.compiled.batch import random_legal_actions

    env = meeplezoo.make_vec(name, batch)
    state = env.reset(0)
    generators = seeded_generators(batch)
    actions = np.zeros(batch, dtype=np.int64)
    rounds = max(1, 4096 // batch)

    def work() -> int:
        for _ in range(rounds):
            random_legal_actions(state.legal_action_mask, generators, actions)
            env.step(actions)
        return rounds * batch

    return _rate(work, seconds, repeats)


def step_bytes(game: Any) -> int:
    """Bytes of one slot's observation and mask."""
    observation = int(np.prod(game.observation_shape)) * np.dtype(game.observation_dtype).itemsize
    return observation + game.num_actions


def vec_floor_rate(name: str, batch: int, seconds: float, repeats: int) -> float:
    """Steps/s of the observation and mask writes of ``make_vec(name, batch)``
    alone, those of two steps after 64 random ones in turn (the memory floor)."""
    import meeplezoo
    from meeplezoo.benchmarks.observation_floor import ObservationWrites
    from meeplezoo.envs.core.compiled.batch import random_legal_actions

    env = meeplezoo.make_vec(name, batch)
    state = env.reset(0)
    generators = seeded_generators(batch)
    actions = np.zeros(batch, dtype=np.int64)
    steps = []
    for _ in range(65):
        state = env.step(random_legal_actions(state.legal_action_mask, generators, actions))
        steps = [*steps[-1:], (state.observation.copy(), state.legal_action_mask.copy())]
    listed = env.kernel.observe_entries is not None
    writes = ObservationWrites([obs for obs, _ in steps], [mask for _, mask in steps], listed)
    return _rate(writes, seconds, repeats)


def aec_rate(name: str, seconds: float, repeats: int, **config: Any) -> float:
    if name == "connect_four_v3":
        from pettingzoo.classic import connect_four_v3

        env = connect_four_v3.env()
    else:
        import meeplezoo

        env = meeplezoo.make(name, **config)
    return _rate(lambda: play_aec(env, 1000, 0) and 1000, seconds, repeats)


def per_call_us(name: str, backend: str, what: str, repeats: int) -> float:
    """Microseconds per clone or determinize over positions of random games."""
    import meeplezoo

    env = meeplezoo.make(name, backend=backend)
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


def startup_seconds() -> tuple[float, float]:
    """(every kernel compiled into an empty cache, one process per game; a
    later run loading them), wall seconds, process starts included."""
    command = [sys.executable, "-m", "meeplezoo.envs.core.compiled.warm"]
    seconds = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for _ in range(2):
            start = time.perf_counter()
            run = subprocess.run(command, env=env, capture_output=True, text=True)
            if run.returncode:
                raise RuntimeError(run.stderr[-2000:])
            seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1]


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


def measure_game(name: str, seconds: float, repeats: int, threads: int) -> dict[str, Any]:
    """One game's rows: rules (one core), make_vec, the AEC loops, per-call costs."""
    import numba

    import meeplezoo

    say(f"{name}: rules, compiled and Python")
    numba.set_num_threads(1)
    out: dict[str, Any] = {
        "rules": {
            "compiled": kernel_rules_rate(name, seconds, repeats),
            "python": python_rules_rate(name, seconds, repeats),
        }
    }
    numba.set_num_threads(threads)
    say(f"{name}: make_vec at batch " + ", ".join(map(str, BATCHES)))
    out["make_vec"] = {batch: vec_rate(name, batch, seconds, repeats) for batch in BATCHES}
    out["make_vec_floor"] = {FLOOR_BATCH: vec_floor_rate(name, FLOOR_BATCH, seconds, repeats)}
    out["step_bytes"] = step_bytes(meeplezoo.make_game(name))
    say(f"{name}: AEC loops, clone and determinize")
    out["aec"] = {
        backend: aec_rate(name, seconds, repeats, backend=backend) for backend in ("compiled", "python")
    }
    calls = ("clone", "determinize") if meeplezoo.make_game(name).info.hidden_information else ("clone",)
    out["per_call_us"] = {
        f"{what} {backend}": per_call_us(name, backend, what, repeats)
        for what in calls
        for backend in ("compiled", "python")
    }
    return out


def say(text: str) -> None:
    """A progress line on stderr (the table goes to stdout)."""
    print(text, file=sys.stderr, flush=True)


def measure(games: list[str], seconds: float, repeats: int, with_startup: bool = True) -> dict[str, Any]:
    """Every row of the tables, in one process (the start-up rows in two more)."""
    import numba

    threads = numba.get_num_threads()
    out: dict[str, Any] = {"threads": threads, "games": {}}
    for name in games:
        out["games"][name] = measure_game(name, seconds, repeats, threads)
    say("connect_four_v3's AEC loop")
    out["connect_four_v3"] = aec_rate("connect_four_v3", seconds, repeats)
    if with_startup:
        say("start-up: compiling every kernel into an empty cache, then loading it")
        out["startup_seconds"] = dict(zip(("first", "cached"), startup_seconds()))
    say("pgx")
    out["pgx"] = pgx_rates(seconds, repeats)
    return out


def _per_call(calls: dict[str, float], what: str) -> str:
    if f"{what} compiled" not in calls:
        return "-"
    fast, slow = calls[f"{what} compiled"], calls[f"{what} python"]
    return f"{fast:.1f} / {slow:.1f} ({slow / fast:.0f}x)"


def game_rows(result: dict[str, Any]) -> list[str]:
    """The main table: one row per game."""
    c4 = result["connect_four_v3"]
    lines = [
        "| game | rules steps/s, one core: compiled / Python | make_vec 1024 steps/s / Python AEC "
        "| AEC steps/s compiled / Python | AEC / connect_four_v3: compiled, Python "
        "| clone us: compiled / Python | determinize us |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, game in result["games"].items():
        rules, aec, vec = game["rules"], game["aec"], game["make_vec"][1024]
        lines.append(
            f"| {name} | {rules['compiled']:,.0f} / {rules['python']:,.0f} "
            f"({rules['compiled'] / rules['python']:.1f}x) | {vec:,.0f} ({vec / aec['python']:.1f}x) "
            f"| {aec['compiled']:,.0f} / {aec['python']:,.0f} | {aec['compiled'] / c4:.2f}x, "
            f"{aec['python'] / c4:.2f}x | {_per_call(game['per_call_us'], 'clone')} "
            f"| {_per_call(game['per_call_us'], 'determinize')} |"
        )
    return lines


def batch_rows(result: dict[str, Any]) -> list[str]:
    """make_vec steps/s per game and batch size."""
    lines = [
        "| game | " + " | ".join(f"batch {b}" for b in BATCHES)
        + f" | batch {FLOOR_BATCH}: the writes alone (share of them) | bytes a step |",
        "|---" * (len(BATCHES) + 3) + "|",
    ]  # fmt: skip
    for name, game in result["games"].items():
        rates = " | ".join(f"{game['make_vec'][b]:,.0f}" for b in BATCHES)
        floor = game.get("make_vec_floor", {}).get(FLOOR_BATCH)
        share = f"{floor:,.0f} ({game['make_vec'][FLOOR_BATCH] / floor:.0%})" if floor else "-"
        size = f"{game['step_bytes']:,}" if "step_bytes" in game else "-"
        lines.append(f"| {name} | {rates} | {share} | {size} |")
    return lines


def markdown(result: dict[str, Any], command: str) -> str:
    """The results as the Markdown page in benchmarks/results."""
    lines = [
        "# The compiled engine",
        "",
        f"Made by `{command}` on {result['date']}.",
        "",
        f"Machine: {result['machine']['cpu']}, {result['machine']['usable_cores']} usable cores, "
        f"numba threads {result['threads']}, wall clock, medians of {result['repeats']} repeats; "
        f"connect_four_v3's AEC loop ran {result['connect_four_v3']:,.0f} steps/s in the same run.",
        "",
        *game_rows(result),
        "",
        "## make_vec: steps/s by batch size (observation + mask each step, auto-reset)",
        "",
        "The writes alone: each slot's observation and mask as the driver writes them, with no rules "
        "in between (`benchmarks/observation_floor.py`): the whole observation cleared and its "
        "nonzero entries written, or for a kernel that lists its entries (Gold Rush Gangs) the last "
        "step's entries zeroed and the new ones written. What a step at that batch costs in memory "
        "traffic however fast the rules (the driver also keeps a listed board while the same seat "
        "moves again, and a stamped board while it is unchanged, so for Gold Rush Gangs and Amoeba "
        "this is the cost of a step that repaints the board). Bytes a step: one slot's observation "
        "and mask.",
        "",
        *batch_rows(result),
    ]
    if "startup_seconds" in result:
        first, cached = result["startup_seconds"]["first"], result["startup_seconds"]["cached"]
        lines += ["", f"Start-up: compiling every kernel into an empty cache took {first:.1f} s "
                  f"(one process per game); loading them from the cache {cached:.1f} s."]  # fmt: skip
    return "\n".join(lines + pgx_rows(result["pgx"])) + "\n"


def pgx_rows(pgx: dict[str, dict[int, float]] | str) -> list[str]:
    lines = ["", "## Pgx on the same machine (JAX on the CPU)", ""]
    if isinstance(pgx, str):
        return lines + [f"Skipped: {pgx}."]
    lines += [
        "| game | " + " | ".join(f"batch {b}" for b in BATCHES) + " |",
        "|---" * (len(BATCHES) + 1) + "|",
    ]
    return lines + [
        f"| {g} | " + " | ".join(f"{r:,.0f}" for r in rates.values()) + " |" for g, rates in pgx.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m meeplezoo.benchmarks.compiled_engine", description=__doc__
    )
    parser.add_argument("--games", nargs="+", help="games to time (default: every game with a kernel)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-startup", action="store_true", help="skip the two start-up processes")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--markdown", help="write the table here")
    args = parser.parse_args(argv)
    command = "python -m meeplezoo.benchmarks.compiled_engine " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    result = measure(args.games or kernel_games(), args.seconds, args.repeats, not args.no_startup)
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
