"""The Hanging Gardens: the rule engine, registered as ``hanging_gardens``."""

from .engine import HangingGardens

GAME = HangingGardens()

__all__ = ["GAME", "HangingGardens"]
