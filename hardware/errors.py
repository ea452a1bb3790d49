"""The hardware layer's errors: every one is a HardwareError (as every rule error is a GameError).

Each also keeps the built-in base that says what kind of failure it is (a ValueError for a bad
file, a ConnectionError for a hub that is not there), so callers may catch either.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Something about the table's devices or their files; the message says what to do."""
