"""People at a table with the real box, driving a ``Table`` directly (no service, no hub):
``tabletop bench referee-search`` and ``bench pi-budget``, the club's quick tables
(``quick_tables.lay_steps``) and the tests of unseen draws play with them.

They shuffle and draw the secrets themselves (seeded), make legal moves (at random, or the
ones ``prefer`` picks), confirm or choose what the board cannot tell, and lay their secrets
on the reveal site when the score waits for them. The table never sees their draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from controller.referee import Choose
from controller.table import Table
from games.core.game import CHANCE, pile_value


class BoxPlayers:
    """People at the table with the real box: they draw the secrets themselves (seeded), make
    legal moves, and lay their secrets on the reveal site when the score needs them."""

    def __init__(self, table: Table, players: list[str], options: dict[str, str] | None = None,
                 seed: int = 0, prefer: Callable[[str], bool] = lambda action: False,
                 observe: Callable[[dict[str, str]], Any] | None = None,
                 searched: Callable[[], Any] | None = None,
                 start: Callable[[list[str], dict[str, str] | None], Any] | None = None
                 ) -> None:
        self.table, self.game = table, table.game
        self._observe = observe
        """How the table is shown a board, if not by ``table.observe`` (``bench pi-budget``
        times it)."""
        self.searched = searched or (lambda: self.table.search_now())
        """Called after each board they lay and after a confirm: the search the table asked
        runs (``Table.search_now`` unless a bench times it)."""
        self.state = self.game.initial(players, options)
        self.rng, self.prefer = random.Random(seed), prefer
        self.actions: list[str] = []
        self.to_show: list[tuple[int, tuple[str, ...]]] = []
        (start or table.new_game)(players, options)  # a service's new_game: its sweep too

    def observe(self, board: dict[str, str]) -> Any:
        (self._observe or self.table.observe)(board)
        self.searched()
        return self.table.decision

    def choose(self) -> str:
        """What they do next: a draw from the box, or a legal move."""
        game, state = self.game, self.state
        if game.actor(state) == CHANCE:
            return game.sample_chance(state, self.rng)
        legal = game.legal_actions(state)
        return next((a for a in legal if self.prefer(a)), None) or self.rng.choice(legal)

    def step(self, action: str | None = None) -> str:
        game, state = self.game, self.state
        action = action or self.choose()
        self.state = game.apply(state, action)
        self.actions.append(action)
        for seat in game.needs_secrets(state, self.state):
            self.to_show.append((seat, game.revealed_pieces(state, seat)))
        self.observe(game.board(self.state))
        if len(self.table.actions) < len(self.actions) and self.table.may_look_further:
            self.table.confirm()  # they know the step is right: the table looks further
            self.searched()
        if len(self.table.actions) < len(self.actions):  # a step the board does not tell
            decision = self.table.decision
            if isinstance(decision, Choose):
                self.table.choose([s.action for s in decision.successors].index(action))
            else:
                self.table.confirm()
        return action

    def show(self) -> list[Any]:
        """Lay each secret the score waits for on the reveal site, then take it off."""
        site = self.game.reveal_site
        board = self.game.board(self.state)
        decisions = []
        while self.to_show and site not in board:
            _, pieces = self.to_show.pop(0)
            decisions.append(self.observe({**board, site: pile_value(pieces)}))
            self.observe(board)
        return decisions

    def play(self) -> None:
        while not self.game.is_terminal(self.state):
            self.step()
            self.show()
        self.show()


def builds_and_takes_extras(action: str) -> bool:
    """Hanging Gardens: take the optional extra tile and build temples whenever legal, so hidden
    extra tiles (unseen draws) happen at all in random play."""
    return action == "take extra" or action.startswith("temple")


PREFER: dict[str, Callable[[str], bool]] = {"hanging_gardens": builds_and_takes_extras}
