"""Topiary: the rule engine, registered as ``topiary``."""

from .engine import Topiary

GAME = Topiary()

__all__ = ["GAME", "Topiary"]
