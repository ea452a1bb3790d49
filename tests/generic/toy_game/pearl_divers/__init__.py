"""Pearl Divers: the toy game of the docs and of the sixth-game test, registered as
``pearl_divers``. Not a published game: small on purpose, yet with every kind of step a real
one has (a secret deal, a visible draw, a player's choice)."""

from .engine import PearlDivers

GAME = PearlDivers()

__all__ = ["GAME", "PearlDivers"]
