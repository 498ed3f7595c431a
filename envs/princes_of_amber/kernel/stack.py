"""The frame stack in the row: push, pop and the top record.

A record is ``FRAME_WORDS`` words (``row_fields``): its kind's code, then its
fields at the words ``FRAME_FIELD_WORDS`` names; a push starts from the
kind's template (its defaults) and the pusher writes the rest. The stack
holds ``STACK_CAPACITY`` records, twice the deepest chain the rules build: a
push past it raises instead of writing over the next field."""

from __future__ import annotations

from meeplezoo.envs.core.compiled.jit import njit
from meeplezoo.envs.princes_of_amber.kernel import slots as S
from meeplezoo.envs.princes_of_amber.kernel.row_fields import (
    EMPTY,
    FRAME_TEMPLATES,
    FRAME_WORDS,
    STACK_CAPACITY,
)


@njit
def depth(state):
    """The number of frames on the stack."""
    for index in range(STACK_CAPACITY):
        if state[S.STACK + index * FRAME_WORDS] == EMPTY:
            return index
    return STACK_CAPACITY


@njit
def top(state):
    """The first word of the top frame (its kind); -1 when the stack is empty."""
    count = depth(state)
    return S.STACK + (count - 1) * FRAME_WORDS if count > 0 else -1


@njit
def push(state, code):
    """A frame of kind ``code`` (``FRAME_CODE``) with its defaults on top; returns its first word."""
    count = depth(state)
    if count == STACK_CAPACITY:
        raise ValueError("princes_of_amber_v1: the frame stack is full (STACK_CAPACITY frames)")
    at = S.STACK + count * FRAME_WORDS
    for word in range(FRAME_WORDS):
        state[at + word] = FRAME_TEMPLATES[code, word]
    return at


@njit
def pop(state):
    """Remove the top frame."""
    at = top(state)
    for word in range(FRAME_WORDS):
        state[at + word] = EMPTY
