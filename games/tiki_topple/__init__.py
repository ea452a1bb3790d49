"""Tiki Topple: the rule engine, registered as ``tiki_topple``."""

from .engine import TikiTopple

GAME = TikiTopple()

__all__ = ["GAME", "TikiTopple"]
