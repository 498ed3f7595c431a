"""NumPy's PCG64 generator in compiled code, bit for bit.

numba cannot create a ``np.random.Generator`` inside a kernel, and a batch
of games needs one generator per game, so the generator lives in a small
``uint64`` array (:data:`WORDS` words, the layout of
``bit_generator.state``) and these functions advance it exactly as NumPy
does: the same 128-bit LCG with the XSL-RR output (``next64``), the same
buffered 32-bit half (``next32``), the same seeding through
``SeedSequence`` (``seed``), Lemire's bounded integers as in
``Generator.integers`` (``bounded``) and the masked draw of
``Generator.permutation`` / ``shuffle`` (``shuffle``). Tests compare each
against NumPy.
"""

from __future__ import annotations

import warnings

import numpy as np

from meeplezoo.envs.core.compiled.jit import JIT_DISABLED, njit_borrowing
from meeplezoo.envs.core.fields import GENERATOR_WORDS

if JIT_DISABLED:  # as plain Python, numpy scalars warn where the compiled code wraps silently, as meant
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, module=__name__)

# the words of one generator: bit_generator.state's "state" and "inc" as
# high and low 64-bit halves, then its has_uint32 and uinteger
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS_UINT32, UINTEGER = range(6)
WORDS = GENERATOR_WORDS

U0, U1 = np.uint64(0), np.uint64(1)
U32, U58, U64_MAX = np.uint64(32), np.uint64(58), np.uint64(0xFFFFFFFFFFFFFFFF)
MASK32 = np.uint64(0xFFFFFFFF)
MULT_HI, MULT_LO = np.uint64(2549297995355413924), np.uint64(4865540595714422341)

# SeedSequence's hash constants (numpy/random/bit_generator.pyx), 32-bit words
INIT_A, MULT_A = np.uint32(0x43B0D7E5), np.uint32(0x931E8875)
INIT_B, MULT_B = np.uint32(0x8B51F9DD), np.uint32(0x58F38DED)
MIX_MULT_L, MIX_MULT_R = np.uint32(0xCA01F9DD), np.uint32(0x4973F715)
XSHIFT = np.uint32(16)
POOL_SIZE = 4


@njit_borrowing
def _mul128(a, b):
    """(high, low) 64-bit halves of the 128-bit product of two uint64."""
    a_lo, a_hi = a & MASK32, a >> U32
    b_lo, b_hi = b & MASK32, b >> U32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> U32) + (p1 & MASK32) + (p2 & MASK32)
    low = (p0 & MASK32) | (mid << U32)
    high = p3 + (p1 >> U32) + (p2 >> U32) + (mid >> U32)
    return high, low


@njit_borrowing
def _step(gen):
    """state = state * multiplier + inc (mod 2**128): PCG's LCG step."""
    s_hi, s_lo = gen[STATE_HI], gen[STATE_LO]
    carry_hi, low = _mul128(s_lo, MULT_LO)
    high = carry_hi + s_lo * MULT_HI + s_hi * MULT_LO
    new_lo = low + gen[INC_LO]
    high = high + gen[INC_HI] + (U1 if new_lo < low else U0)
    gen[STATE_HI], gen[STATE_LO] = high, new_lo


@njit_borrowing
def next64(gen):
    """The next 64 random bits (``bit_generator.random_raw()``)."""
    _step(gen)
    high, low = gen[STATE_HI], gen[STATE_LO]
    value = high ^ low
    rot = high >> U58
    return (value >> rot) | (value << ((U64_MAX - rot + U1) & np.uint64(63)))


@njit_borrowing
def next32(gen):
    """The next 32 random bits: the high half of a 64-bit draw is kept for
    the following call, as NumPy's PCG64 does."""
    if gen[HAS_UINT32] != U0:
        gen[HAS_UINT32] = U0
        return gen[UINTEGER]
    bits = next64(gen)
    gen[HAS_UINT32] = U1
    gen[UINTEGER] = bits >> U32
    return bits & MASK32


@njit_borrowing
def _bounded32(gen, top):
    """Lemire's draw in 0..top (top < 2**32 - 1), as NumPy's
    ``buffered_bounded_lemire_uint32``."""
    range_excl = top + U1
    product = next32(gen) * range_excl
    leftover = product & MASK32
    if leftover < range_excl:
        threshold = (MASK32 - top) % range_excl
        while leftover < threshold:
            product = next32(gen) * range_excl
            leftover = product & MASK32
    return product >> U32


@njit_borrowing
def _bounded64(gen, top):
    """Lemire's draw in 0..top for a 64-bit range (``bounded_lemire_uint64``)."""
    range_excl = top + U1
    high, leftover = _mul128(next64(gen), range_excl)
    if leftover < range_excl:
        threshold = (U64_MAX - top) % range_excl
        while leftover < threshold:
            high, leftover = _mul128(next64(gen), range_excl)
    return high


@njit_borrowing
def bounded(gen, low, high):
    """``Generator.integers(low, high)`` for one int64 draw (high exclusive)."""
    top = np.uint64(high - low - 1)
    if top == U0:
        return low
    if top < MASK32:
        return low + np.int64(_bounded32(gen, top))
    if top == MASK32:
        return low + np.int64(next32(gen))
    return low + np.int64(_bounded64(gen, top))


@njit_borrowing
def _interval(gen, top):
    """A draw in 0..top by masked rejection (NumPy's ``random_interval``)."""
    if top == U0:
        return U0
    mask = top
    mask |= mask >> U1
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    mask |= mask >> U32
    if top <= MASK32:
        value = next32(gen) & mask
        while value > top:
            value = next32(gen) & mask
        return value
    value = next64(gen) & mask
    while value > top:
        value = next64(gen) & mask
    return value


@njit_borrowing
def swap_partner(gen, i):
    """Where ``Generator.shuffle`` swaps item ``i`` to (0..i), for a caller
    that moves several arrays with the same swaps, so without a copy."""
    return np.int64(_interval(gen, np.uint64(i)))


@njit_borrowing
def shuffle(gen, items, count):
    """Shuffle ``items[:count]`` in place as ``Generator.shuffle`` does (so
    ``permutation(n)`` is this over 0..n-1)."""
    for i in range(count - 1, 0, -1):
        j = swap_partner(gen, i)
        items[i], items[j] = items[j], items[i]


# numba widens 32-bit arithmetic to 64 bits: each product is cut back to 32


@njit_borrowing
def _hashmix(value, hash_const):
    """SeedSequence's hashmix: the mixed word and the next hash constant."""
    value = np.uint32(value ^ hash_const)
    hash_const = np.uint32(hash_const * MULT_A)
    value = np.uint32(value * hash_const)
    return np.uint32(value ^ (value >> XSHIFT)), hash_const


@njit_borrowing
def _mix(x, y):
    result = np.uint32(np.uint32(MIX_MULT_L * x) - np.uint32(MIX_MULT_R * y))
    return np.uint32(result ^ (result >> XSHIFT))


@njit_borrowing
def _seed_pool(seed):
    """SeedSequence(seed)'s entropy pool for a seed in 0..2**63-1, as a
    tuple of its four words (no array: seeding runs once per search
    simulation in games with chance)."""
    zero = np.uint32(0)
    word0, hash_const = _hashmix(np.uint32(seed & 0xFFFFFFFF), INIT_A)
    word1, hash_const = _hashmix(np.uint32(seed >> 32), hash_const)
    word2, hash_const = _hashmix(zero, hash_const)
    word3, hash_const = _hashmix(zero, hash_const)
    for source in range(POOL_SIZE):
        value = (word0, word1, word2, word3)[source]
        for target in range(POOL_SIZE):
            if target == source:
                continue
            mixed, hash_const = _hashmix(value, hash_const)
            if target == 0:
                word0 = _mix(word0, mixed)
            elif target == 1:
                word1 = _mix(word1, mixed)
            elif target == 2:
                word2 = _mix(word2, mixed)
            else:
                word3 = _mix(word3, mixed)
    return word0, word1, word2, word3


@njit_borrowing
def _generated_word(pool, index, hash_const):
    """Word ``index`` (0..7) of SeedSequence.generate_state's uint32 output."""
    value = np.uint32(pool[index % POOL_SIZE] ^ hash_const)
    hash_const = np.uint32(hash_const * MULT_B)
    value = np.uint32(value * hash_const)
    return np.uint64(np.uint32(value ^ (value >> XSHIFT))), hash_const


@njit_borrowing
def _generate_state(pool):
    """SeedSequence.generate_state(4, uint64): four words from the pool."""
    hash_const = INIT_B
    low0, hash_const = _generated_word(pool, 0, hash_const)
    high0, hash_const = _generated_word(pool, 1, hash_const)
    low1, hash_const = _generated_word(pool, 2, hash_const)
    high1, hash_const = _generated_word(pool, 3, hash_const)
    low2, hash_const = _generated_word(pool, 4, hash_const)
    high2, hash_const = _generated_word(pool, 5, hash_const)
    low3, hash_const = _generated_word(pool, 6, hash_const)
    high3, hash_const = _generated_word(pool, 7, hash_const)
    return low0 | (high0 << U32), low1 | (high1 << U32), low2 | (high2 << U32), low3 | (high3 << U32)


@njit_borrowing
def seed(gen, value):
    """Seed ``gen`` as ``np.random.Generator(np.random.PCG64(value))`` is
    seeded, for an int ``value`` in 0..2**63-1."""
    words = _generate_state(_seed_pool(value))
    gen[STATE_HI], gen[STATE_LO] = U0, U0
    gen[INC_HI] = (words[2] << U1) | (words[3] >> np.uint64(63))
    gen[INC_LO] = (words[3] << U1) | U1
    _step(gen)
    low = gen[STATE_LO] + words[1]
    gen[STATE_HI] = gen[STATE_HI] + words[0] + (U1 if low < gen[STATE_LO] else U0)
    gen[STATE_LO] = low
    _step(gen)
    gen[HAS_UINT32], gen[UINTEGER] = U0, U0


def seeded_words(value: int) -> np.ndarray:
    """The words of ``np.random.default_rng(value)``, seeded in compiled code
    for ``value`` in 0..2**63-1 (NumPy's SeedSequence takes about 50 us in
    Python, much of a small search's decision); other values through NumPy."""
    if not 0 <= value < 2**63:
        return to_words(np.random.default_rng(value))
    words = np.zeros(WORDS, dtype=np.uint64)
    seed(words, np.int64(value))
    return words


def to_words(rng: np.random.Generator, out: np.ndarray | None = None) -> np.ndarray:
    """A NumPy PCG64 generator's state as :data:`WORDS` uint64 words."""
    data = rng.bit_generator.state
    if data["bit_generator"] != "PCG64":
        raise ValueError(f"only PCG64 generators can be compiled, got {data['bit_generator']!r}")
    out = np.zeros(WORDS, dtype=np.uint64) if out is None else out
    state, inc = data["state"]["state"], data["state"]["inc"]
    out[:] = (state >> 64, state & 0xFFFFFFFFFFFFFFFF, inc >> 64, inc & 0xFFFFFFFFFFFFFFFF)[:4] + (
        data["has_uint32"],
        data["uinteger"],
    )
    return out


def state_of(words: np.ndarray) -> dict:
    """The words as a NumPy PCG64 ``bit_generator.state`` dict."""
    w = [int(x) for x in words]
    return {
        "bit_generator": "PCG64",
        "state": {"state": (w[STATE_HI] << 64) | w[STATE_LO], "inc": (w[INC_HI] << 64) | w[INC_LO]},
        "has_uint32": w[HAS_UINT32],
        "uinteger": w[UINTEGER],
    }


def from_words(words: np.ndarray) -> np.random.Generator:
    """A NumPy generator continuing where the words are."""
    rng = np.random.Generator(np.random.PCG64(0))
    rng.bit_generator.state = state_of(words)
    return rng
