"""Eight float32 lanes at a time: ``row += scale * values`` over short runs,
and which of eight entries are nonzero.

LLVM's loop vectoriser, as numba drives it, leaves a 16-float
multiply-add (one cell's channels in a small network) in scalar code: it
needs 32 iterations before its vector loop runs, and at a fixed 16 it
unrolls sixteen scalar multiplies instead. :func:`add_scaled` writes the
vector instructions itself (an eight-float load, multiply, add and store
per step, each lane rounding as the scalar code does, so the sums are
the same bit for bit), and the scalar loop takes what is left.
:func:`nonzero_lanes` tests eight entries with one compare and reads the
answer as the bits of one integer, so a scan of a mostly-zero board costs
an instruction or two per eight entries and one per nonzero entry, where a
branch per entry guesses wrong at every run's edge.
``NUMBA_DISABLE_JIT=1`` runs plain loops.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from meeplezoo.envs.core.compiled.jit import JIT_DISABLED, njit_borrowing

LANES = 8
VECTOR = ir.VectorType(ir.FloatType(), LANES)


def add_lanes_in_python(row, start, values, offset, scale):
    """:func:`add_lanes` in plain Python (``NUMBA_DISABLE_JIT=1``)."""
    for lane in range(LANES):
        row[start + lane] += scale * values[offset + lane]


def nonzero_lanes_in_python(values, start):
    """:func:`nonzero_lanes` in plain Python (``NUMBA_DISABLE_JIT=1``)."""
    return sum(1 << lane for lane in range(LANES) if values[start + lane] != 0.0)


def _vector_at(context, builder, array_type, array, start):
    """A pointer to ``LANES`` float32 of ``array`` from ``start``, as one vector."""
    data = context.make_array(array_type)(context, builder, array).data
    return builder.bitcast(builder.gep(data, [start]), VECTOR.as_pointer())


@intrinsic
def add_lanes_compiled(typingctx, row, start, values, offset, scale):
    """``row[start:start + LANES] += scale * values[offset:offset + LANES]``
    as one vector load, multiply, add and store (float32 rows, unchecked
    bounds: the caller keeps them inside)."""
    signature = types.void(row, types.intp, values, types.intp, types.float32)

    def codegen(context, builder, sig, args):
        target = _vector_at(context, builder, sig.args[0], args[0], args[1])
        source = _vector_at(context, builder, sig.args[2], args[2], args[3])
        lanes = ir.Constant(ir.VectorType(ir.IntType(32), LANES), [0] * LANES)
        splat = builder.insert_element(ir.Constant(VECTOR, ir.Undefined), args[4], ir.IntType(32)(0))
        splat = builder.shuffle_vector(splat, ir.Constant(VECTOR, ir.Undefined), lanes)
        scaled = builder.fmul(builder.load(source, align=4), splat)
        builder.store(builder.fadd(builder.load(target, align=4), scaled), target, align=4)
        return context.get_dummy_value()

    return signature, codegen


@intrinsic
def nonzero_lanes_compiled(typingctx, values, start):
    """Bit ``lane`` set where ``values[start + lane] != 0`` (float32 values,
    unchecked bounds): one vector compare, read as eight bits."""
    signature = types.int64(values, types.intp)

    def codegen(context, builder, sig, args):
        pointer = _vector_at(context, builder, sig.args[0], args[0], args[1])
        lanes = builder.load(pointer, align=4)
        nonzero = builder.fcmp_unordered("!=", lanes, ir.Constant(VECTOR, [0.0] * LANES))
        return builder.zext(builder.bitcast(nonzero, ir.IntType(LANES)), ir.IntType(64))

    return signature, codegen


add_lanes = add_lanes_in_python if JIT_DISABLED else add_lanes_compiled
nonzero_lanes = nonzero_lanes_in_python if JIT_DISABLED else nonzero_lanes_compiled


@njit_borrowing(inline="always")
def add_scaled(row, start, values, offset, scale, count):
    """``row[start:start + count] += scale * values[offset:offset + count]``
    on contiguous float32 arrays, ``scale`` a float32."""
    done = 0
    while done + LANES <= count:
        add_lanes(row, start + done, values, offset + done, scale)
        done += LANES
    while done < count:
        row[start + done] += scale * values[offset + done]
        done += 1
