"""On Top: the rule engine, registered as ``on_top``."""

from .engine import OnTop

GAME = OnTop()

__all__ = ["GAME", "OnTop"]
