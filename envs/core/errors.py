"""The project's own error for a person's mistake.

A :class:`UsageError` says that what someone gave (a game name, a setting, a
file, a seat) is wrong, in words they can act on. The ``meeplezoo`` command
prints it as one line and exits 2; any other exception is a bug of the
package and keeps its traceback, so it can be reported. It is a ValueError,
as every bad input in the package is, so library callers catch it as before.
"""

from __future__ import annotations


class UsageError(ValueError):
    """A person's input is wrong; the message names the value and what fits."""
