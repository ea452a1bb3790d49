"""Trapper: the rule engine, registered as ``trapper``."""

from .engine import Trapper

GAME = Trapper()

__all__ = ["GAME", "Trapper"]
