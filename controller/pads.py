"""The two pads beside the board: secrets shown for the score, and a piece that makes a choice.

A game may have a *reveal site* (``Game.reveal_site``), where players lay the secrets the
final score waits for, and a *choice site* (``Game.choice_site``), where a piece laid makes a
choice the board cannot show (which shape goes back in the box). What lies there while the
position leaves the site empty is no step: the table judges it apart, and once it has taken
it in, leaves it out of the board the referee judges until a hand takes it off. This module
remembers what was taken in and holds the one rule for leaving it out; the ``Table`` judges
what is laid (it needs the game, the journal and the searches).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.game import Game, pile_pieces

from .unresolved import within


@dataclass(frozen=True, slots=True)
class Laid:
    """What lies on a pad the position leaves empty."""

    site: str
    value: str
    """The pad's reading: one piece, or a pile of them."""
    rest: dict[str, str]
    """The board without the pad."""
    taken_in: bool
    """Already taken in (recorded): the table only waits for it to be taken off."""

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(sorted(pile_pieces(self.value)))


class Pads:
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.secrets: tuple[str, ...] | None = None
        """The secrets last shown and recorded on the reveal site, until they come off."""
        self.choice: str | None = None
        """The piece that made the last choice on the choice site, until it comes off."""

    def clear(self) -> None:
        self.secrets, self.choice = None, None

    def on_reveal_site(self, board: Mapping[str, str], expected: Mapping[str, str]
                       ) -> Laid | None:
        """What lies on the reveal site (None: nothing, and what was shown there is gone)."""
        laid = self._laid(self.game.reveal_site, board, expected)
        if laid is None:
            self.secrets = None
        return laid

    def on_choice_site(self, board: Mapping[str, str], expected: Mapping[str, str]
                       ) -> Laid | None:
        """What lies on the choice site (None: nothing, and the choosing piece is gone)."""
        laid = self._laid(self.game.choice_site, board, expected)
        if laid is None:
            self.choice = None
        return laid

    def to_judge(self, board: Mapping[str, str], expected: Mapping[str, str]
                 ) -> dict[str, str]:
        """``board`` without what the table has taken in, changing nothing."""
        taken_in = {laid.site for site in (self.game.reveal_site, self.game.choice_site)
                    if (laid := self._laid(site, board, expected)) is not None
                    and laid.taken_in}
        return {site: piece for site, piece in board.items() if site not in taken_in}

    def _laid(self, site: str | None, board: Mapping[str, str], expected: Mapping[str, str]
              ) -> Laid | None:
        value = board.get(site) if site is not None else None
        if site is None or value is None or expected.get(site) is not None:
            return None
        if site == self.game.reveal_site:
            taken_in = self.secrets is not None and within(
                tuple(sorted(pile_pieces(value))), self.secrets)
        else:
            taken_in = value == self.choice
        rest = {s: piece for s, piece in board.items() if s != site}
        return Laid(site, value, rest, taken_in)
