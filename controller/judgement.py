"""When a still board is judged, and the judging: the tracker's times in, the table's verdict out.

A board changes as hands move pieces. Judged too soon, a hand mid-move reads as a mistake;
judged too late, a right move lights late. So a board is judged once it has been still for the
settle time, or sooner when waiting cannot change the verdict:

- a scan after its last change, when it shows exactly one legal step (and no lift still
  unreported could make it another), or amends a step judged early (the hand went on), or is
  one step under another dealing an early search found;
- at the next scan that shows it, when it shows the game's position again while the table
  says it is wrong (a wrong piece lifted);
- where the profile asks for it (``[timing] plain_mistakes = "quick"``), once no lift can be
  unreported, when it is plainly a mistake: only pieces laid on sites the position leaves
  empty, no legal step lays a piece of that kind there, and no early search for another
  dealing is still to answer. Off by default: a piece a hand drags from the box over the board
  rests on such a site a scan or two on its way, and would light red under the hand.

A step judged before the settle time is provisional (``controller.provisional``) until the hand has
been still that long. docs/architecture.md draws the states a board passes through.

Pure of I/O and asyncio, with the tracker's clock: the service calls it from its loop, the
tests with times they choose.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from games.core.game import pile_begins, pile_pieces

from .history import MAX_TAKE_BACK
from .referee import Choose, Discrepancy, NoChange, decide, one_step, piece_kinds
from .table import Table
from .tracker import Tracker


class Judgement:
    def __init__(self, table: Table, tracker: Tracker, blind: Callable[[], bool],
                 search_early: Callable[[Mapping[str, str]], None],
                 quick_mistakes: bool = False) -> None:
        self.table = table
        self.tracker = tracker
        self._blind = blind
        """Is some region blind (a hub down)? Then nothing is judged."""
        self._search_early = search_early
        """Asks for an early search for another dealing under which a board is one step (the
        service runs it off its loop and wakes the judging loop when it answers)."""
        self.quick_mistakes = quick_mistakes
        """Call a plain mistake wrong before the settle time (``_plainly_wrong``)."""

    def wake_at(self, now: float) -> float | None:
        """None if the board is to be judged now, else when to look again."""
        tracker = self.tracker
        self.table.provisional.close(tracker.last_change)
        if tracker.settled(now):
            return None
        if self._agrees_again():
            return None  # a wrong piece lifted: cleared by the scan that shows it
        still, quick = tracker.still_at(), tracker.quick_at()
        if now >= still and self._one_step(now) and (
                now >= quick or not self._a_lift_could_change_it()):
            return None
        if self.quick_mistakes and now >= quick and self._plainly_wrong():
            return None
        return still if now < still else quick if now < quick else tracker.settles_at()

    def judge(self, now: float) -> None:
        """Let the table judge the observed board now (the service checks that no region is
        blind first). A step taken before the settle time stays provisional."""
        tracker = self.tracker
        self._place_shared(now)
        self._order_piles()
        self.table.provisional.close(tracker.last_change)
        self.table.observe(tracker.board, early=not tracker.settled(now),
                           window=(tracker.last_change, tracker.settles_at()))

    def _agrees_again(self) -> bool:
        """Does the board show the game's position again while the table still says it is
        wrong (or a step is under way, or a take-back is offered)? Judging it then can only
        clear that: a hand going on is judged anew."""
        table = self.table
        if not table.started or self._blind() or isinstance(table.decision, NoChange | Choose):
            return False
        return table.board_to_judge(self.tracker.board) == table.expected_board

    def _one_step(self, now: float) -> bool:
        """The observed board is exactly one legal step's result (``referee.one_step``), or
        one from the position before a provisional step (the hand went on); or, if it is no
        step under the working guess, one under another dealing of the unseen draws (a card
        the working guess had set aside)."""
        if not self.table.started or self._blind():
            return False
        self._place_shared(now)
        self._order_piles()
        board = self.table.board_to_judge(self.tracker.board)
        successors = self.table.successors
        if successors.matching(board):  # a step under the working guess: no other dealing
            return one_step(successors, board)
        if self.table.provisional.amends_to(board):  # the hand went on from a step judged early
            return now >= self.tracker.quick_at()
        self._search_early(board)
        return self.table.early_search_found(board)

    def _plainly_wrong(self) -> bool:
        """Is the observed board a mistake no hand still moving could turn into a step?
        Pieces only laid, each on a site the position leaves empty (a hand moving a piece
        already on the table lifts it first) and no pad that takes pieces in now (secrets
        asked for, a choice to make); no legal step, take-back or step under way; and no step
        lays a piece of that kind on those sites, now or from before a provisional step (the
        hand may be going on to a bigger one), and a piece the working guess says the player
        lacks may begin a step under another dealing: an early search for such a dealing
        answers first; the search after the red, if asked, may still withdraw it."""
        table = self.table
        if not table.started or self._blind() or table.game.is_terminal(table.state):
            return False
        board, expected = table.board_to_judge(self.tracker.board), table.expected_board
        laid = {site: piece for site, piece in board.items() if expected.get(site) != piece}
        if not laid or any(site in expected for site in laid) or any(
                site not in board for site in expected) or table.open_pads() & laid.keys():
            return False
        successors = table.successors
        if not isinstance(decide(successors, board, table.history.earlier_boards(MAX_TAKE_BACK)),
                          Discrepancy) or table.early_search(board) is not None:
            return False
        steps = [*successors.changing,
                 *(step for before in table.provisional.before() for step in before.changing)]
        return not any(piece_kinds(step.board.get(site)) == piece_kinds(piece)
                       for step in steps for site, piece in laid.items())

    def _a_lift_could_change_it(self) -> bool:
        """Could a lift made but not yet reported turn the observed board into another legal
        step? (A piece moved: its new place is seen at once, its old one only after its
        reader's next misses, and meanwhile the board may read as a new piece laid.) Only then
        is the lift waited for before judging early."""
        return self.tracker.lifts_could_show(
            successor.board for successor in self.table.successors.changing)

    def _wanted_boards(self) -> list[dict[str, str]]:
        """The board now and after each legal step: what the table may show next."""
        successors = self.table.successors
        return [successors.board, *(s.board for s in successors.changing)]

    def _place_shared(self, now: float) -> None:
        """A tag heard on two sites lies where a hand just laid it if that makes the board
        exactly one legal step (a piece moved: its old site has not missed it yet); otherwise
        (lying across two fields' edge) where the position or a legal step wants it, if on one
        of them; otherwise where it was first heard."""
        shared = self.tracker.shared
        if not self.table.started or not shared:
            return
        moved = {uid: site for uid, sites in shared.items()
                 if (site := self.tracker.moved_to(uid, now)) in sites}
        if moved:
            for uid, site in moved.items():
                self.tracker.place(uid, site)
            board = self.table.board_to_judge(self.tracker.board)
            if len(self.table.successors.matching(board)) == 1:
                return
        wanted = self._wanted_boards()
        for uid, sites in shared.items():
            self.tracker.place(uid, sites[0])
            piece = self.tracker.piece_of(uid)
            for site in sites:
                if piece is not None and any(piece in pile_pieces(board.get(site) or "")
                                             for board in wanted):
                    self.tracker.place(uid, site)
                    break

    def _order_piles(self) -> None:
        """Stones laid on a tower within one scan arrive in no known order: take the order
        the position or a legal step wants (the whole pile, or the bottom of it), if one
        does; otherwise the arrival order stands and the referee judges that."""
        if not self.table.started:
            return
        wanted = self._wanted_boards()
        for site in self.tracker.piles:
            orders = self.tracker.pile_orders(site)
            if len(orders) < 2:
                continue
            for order in orders:
                value = self.tracker.pile_board(site, order)
                if value is not None and any(
                        board.get(site) == value or pile_begins(board.get(site) or "", value)
                        for board in wanted):
                    self.tracker.reorder(site, order)
                    break
