"""The table service: one asyncio process wiring the hubs, buttons and LEDs to the table.

Hub events (from every hub, with the profile's reader numbers) go to the tracker; once the
board has been still for the settle time the table judges it, unless a hub is down (its region
is blind: nothing is judged until it is seen again); every change of decision relights the
LEDs at once (a 20 Hz tick animates the blink patterns) and is published to the status page's
subscribers. Nothing here blocks the loop: each hub link reads its port in worker threads,
and gpiozero calls back from its own threads through ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.art import art_json
from games.core.errors import BadSetup
from games.core.game import Sentence
from games.core.translation import LANGUAGES, Catalogue, supported
from hardware.buttons import ButtonEvent, ButtonPanel
from hardware.link import HubLink, HubNotConnected, LinkDown, LinkUp
from hardware.profile import BoardProfile
from hardware.protocol import (
    Heartbeat,
    Hello,
    Snapshot,
    TagArrived,
    TagLeft,
    Watching,
)
from hardware.registry import uid_hex
from hardware.scan_timing import scheduled_scan, unscheduled_scan_ms

from . import lighting
from . import status as report
from .advice import AdviceRequest, ai_advisor
from .errors import AiUnavailable, NothingToConfirm
from .health import HardwareHealth
from .hubs import MODEL_MARGIN, Hub
from .journal import JournalError
from .judgement import Judgement
from .language import catalogue
from .referee import NotRecorded, Successors, changed_sites
from .seats import SeatRecord
from .table import Table
from .tracker import Tracker
from .unresolved import EarlySearch, Search

log = logging.getLogger(__name__)
ANIMATION_HZ = 20
STATUS_MAX_AGE = 0.25
"""Seconds a rendered status is reused when nothing was published: the LED colours (animated at
20 Hz), the score sweep and the hubs' counters change without a publish, and a reader of
``/api/status`` sees them at most this late (never a change: a publish renders anew)."""
STREAM_HZ = 10
"""Status events a second at most for the SSE clients: a burst of publishes (a move lifts and
lays several tags, each a hub frame) is sent once, as the status after it."""
STREAM_GROUPS = 8
"""The SSE clients are woken in this many groups, one per turn of the event loop, so that a
hub frame or a judgement due meanwhile waits for one group's sends, not for the crowd's."""
NO_AI_HINTS = Sentence("hints need the AI: pip install '.[ai]'")
Reply = Sentence | str
"""A command's answer for people: a Sentence the web layer words in the reader's language, or
a game's own text (an action as the records write it) shown as it is."""
SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL while another waits for it (Python's default is 0.005). The
searches, the early searches and the AI think in worker threads in pure Python; with the
default, a hub frame (read in the link's thread, judged on the loop) and a simulator's virtual
hubs (threads standing in for separate microcontrollers) waited 5 ms at each hand-over: a
Trapper mistake's red light came up to half a second late while an early search ran."""
KEEPALIVE = 15.0
"""Seconds without a change after which an SSE client is sent the status again (the hubs'
counters, and a proxy keeps the connection open)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """One rendering of the status, shared by ``/api/status`` and every SSE client."""

    version: int
    """How many publishes it includes."""
    at: float
    """``time.monotonic()`` when it was rendered."""
    json: bytes
    event: bytes
    """The same JSON as one server-sent ``status`` event, ready for the socket."""


def option_msgids(name: str, choices: Sequence[str]) -> dict[str, str]:
    """The catalogue's ids for an option's name and choices: ``take (option)``, ``must (take)``
    (an id alone, "on" or "box", could mean something else in another text)."""
    return {name: f"{name} (option)", **{choice: f"{choice} ({name})" for choice in choices}}


class TableService:
    def __init__(
        self,
        table: Table,
        profile: BoardProfile,
        links: HubLink | Sequence[HubLink],
        piece_of: Callable[[str], str | None],
        lights: Any = None,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
        advisor: Callable[[AdviceRequest], Any] | None = None,
    ) -> None:
        self.table = table
        self.profile = profile
        links = [links] if isinstance(links, HubLink) else list(links)
        if len(links) != len(profile.hubs):
            raise ValueError(f"profile {profile.name!r} names {len(profile.hubs)} hubs, "
                             f"got {len(links)} links")
        self.hubs = tuple(
            Hub(settings, link, sites=frozenset(profile.readers[r] for r in settings.readers
                                                if r in profile.readers))
            for settings, link in zip(profile.hubs, links, strict=True))
        self.lights = lights
        self.clock = clock
        self.pin_factory = pin_factory
        """gpiozero pin factory for the buttons (None: the profile's)."""
        game = table.game
        piles = frozenset(site.id for n in range(game.min_players, game.max_players + 1)
                          for site in game.sites(n) if site.pile)
        self.tracker = Tracker(profile.readers, piece_of, profile.settle_ms / 1000, piles)
        self.timing = profile.timing
        """The judgement's waits, from the profile (``[timing]``): read where they apply."""
        self.judgement = Judgement(table, self.tracker, blind=lambda: bool(self.blind_sites),
                                   search_early=self._search_early,
                                   quick_mistakes=profile.timing.plain_mistakes == "quick")
        self.health = HardwareHealth(profile.readers)
        self.wait_for_lifts = True
        """After an arrival, wait until a lift could have been reported (off: benchmarks)."""
        self._searching: Search | None = None
        self._stopped = False
        """The service has stopped: a search still running in its thread stops too."""
        self._early: EarlySearch | None = None
        """The early search running off the loop (``_search_early``): one at a time, and only
        while the board stays as it was (an early search runs its whole budget on a board no dealing
        explains, a piece dragged over a wrong site, and would hold the CPU meanwhile)."""
        self._early_task: asyncio.Task[None] | None = None
        self._early_started: EarlySearch | None = None
        self._due = {work: asyncio.Event() for work in ("search", "early search", "think", "watch")}
        """Work asked of the loop's workers (``_work``). The table's path only sets these, in or
        out of a loop; the workers (``work``, which ``run`` runs) do the work. There is one way
        to run: a caller outside the loop (a test, a tool) runs ``work`` to see it done."""
        self.watch_hubs = True
        """Tell the hubs what to watch (off: the simulator's ideal table, whose scans are
        short anyway: every reader every scan, as before protocol 4)."""
        self._hot: tuple[Successors, frozenset[str]] | None = None
        """The sites the legal steps of a position change (made once per position)."""
        self._watches_due: set[str] = set()
        """Hubs whose watch changed since it was last sent."""
        self._watch_tasks: set[asyncio.Task[None]] = set()
        self._judged = asyncio.Event()
        """Set whenever the board was judged (a search waiting for a still board looks)."""
        self._retimed = asyncio.Event()
        """Set when the hubs' timing changed (the wait for a quick judgement is shorter) or an
        early search answered: the judging loop looks again."""
        self._hub_timing()
        self.buttons: asyncio.Queue[ButtonEvent] = asyncio.Queue()
        self.roles: dict[str, str] = {}
        self.led_sites = frozenset(profile.leds.sites)
        self.led_colours: dict[str, tuple[int, int, int]] = {}
        self.sweep: tuple[lighting.SweepStep, ...] = ()
        self.sweep_started = 0.0
        self._changed = asyncio.Event()
        self._version = 0
        """Publishes so far: a rendered status older than this is stale."""
        self.language = supported(profile.language) or LANGUAGES[0]
        if self.language != profile.language:
            log.warning("profile %s: no texts in %r; the pages speak %s unless the browser "
                        "asks otherwise", profile.name, profile.language, self.language)
        """The table's own language: the pages' when nothing else chooses one."""
        self._rendered: dict[str, Rendered] = {}
        """The latest rendering in each language a reader asked for."""
        self._kick = asyncio.Event()
        """Set by ``publish``; the one broadcaster task wakes the SSE clients."""
        self._published = [asyncio.Event() for _ in range(STREAM_GROUPS)]
        """What the SSE clients wait on, one event per group; set and replaced by the
        broadcaster."""
        self._joined = 0
        self.club: Any = None
        """The ``ClubLink`` publishing this table, if a broker is named."""
        self.listeners: list[Callable[[], None]] = []
        """Called on every publish, on the table's path: each must only take note (the club
        link sets an event)."""
        self._broadcaster: asyncio.Task[None] | None = None
        self.streams = 0
        """SSE clients connected now."""
        self.renders = 0
        """Statuses rendered so far (once per change, not once per client)."""
        self.advisor = advisor or ai_advisor(table.game)
        """Answers an AdviceRequest with a ``games.ai.Advice``; runs in a worker thread."""
        self.thinking: AdviceRequest | None = None
        self._think_task: asyncio.Task[None] | None = None
        """The latest AI task (asyncio keeps only weak references to tasks)."""
        self._gave_up_on: Any = None
        """The position the AI failed on (it is not asked again until the table moves on)."""

    # -- running -----------------------------------------------------------------------------
    async def run(self) -> None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        panel = ButtonPanel.to_queue(self.profile.buttons, asyncio.get_running_loop(),
                                     self.buttons, self.pin_factory)
        tasks = [
            *(asyncio.create_task(hub.link.run(), name=f"hub-link {hub.name}")
              for hub in self.hubs),
            *(asyncio.create_task(self._consume_link(hub), name=f"hub-events {hub.name}")
              for hub in self.hubs),
            asyncio.create_task(self._judge_when_settled(), name="referee"),
            asyncio.create_task(self._watch_hubs(), name="hub-watch"),
            asyncio.create_task(self._animate(), name="leds"),
            asyncio.create_task(self._consume_buttons(), name="buttons"),
            asyncio.create_task(self._retry_journal(), name="journal-retry"),
            asyncio.create_task(self.work(), name="workers"),
        ]
        self.relight()
        self._think()  # a resumed game may have an AI seat on turn
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*tasks, return_exceptions=True)
            panel.close()

    async def work(self) -> None:
        """The loop's workers, until cancelled: the search for a dealing, the early searches, the
        AI and the hubs' watches, each started when the table's path asks (``_due``). ``run``
        runs them beside the hubs; a caller that feeds the tracker itself (a test with a fake
        clock, a bench) runs this, and the table takes the same path as on the Pi."""
        self._stopped = False
        workers = [asyncio.create_task(self._work(name, work), name=name) for name, work in (
            ("search", self._start_search), ("early search", self._start_early_search),
            ("think", self._think_again), ("watch", self._send_watches))]
        try:
            await asyncio.gather(*workers)
        finally:
            self._early = None  # an early search still running stops at its next apply
            self._stopped = True  # and so does a search
            for running in (self._think_task, self._early_task):  # each in its own thread
                if running is not None and running.get_loop() is asyncio.get_running_loop():
                    workers.append(running)
            for task in workers:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*workers, return_exceptions=True)

    async def until_idle(self) -> None:
        """Until no work is asked or running: no search, early search or AI thought (a test or a
        bench waits here for what the workers do)."""
        while any(due.is_set() for due in self._due.values()) or (
                self._searching is not None or self.table.search_asked is not None
                or self._early is not None or self.thinking is not None):
            self._ask_search()  # one the table asked outside ``judge`` (a test's own observe)
            await asyncio.sleep(0.005)

    @property
    def link(self) -> HubLink:
        """The first hub's link (the only one on most boards)."""
        return self.hubs[0].link

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Until every hub has said hello."""
        await asyncio.gather(*(hub.link.wait_connected(timeout) for hub in self.hubs))

    @property
    def blind_sites(self) -> frozenset[str]:
        """Sites whose hub is down or has not sent its snapshot since it came back."""
        return frozenset().union(*(hub.sites for hub in self.hubs if not hub.seen))

    def _blind(self, hub: Hub, now: float) -> None:
        """Forget what ``hub`` said: its region is blind until its next snapshot."""
        hub.seen = False
        self.tracker.forget(hub.sites, now)

    async def _watch_hubs(self) -> None:
        """A connected hub that has fallen silent is blind too, and asked for a snapshot
        (again every second) until it answers."""
        asked: dict[str, float] = {}
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()  # the link's clock
            for hub in self.hubs:
                health = hub.link.health()
                if health.connected and hub.seen and hub.watching != hub.confirming and (
                        now - asked.get(f"watch {hub.name}", float("-inf")) >= 0.5):
                    asked[f"watch {hub.name}"] = now  # lost on the cable, or it rebooted
                    self._send_watch(hub)
                last = health.last_frame_at
                if not health.connected or last is None or (
                        now - last < self.timing.silent_ms / 1000):
                    continue
                if hub.seen:
                    self._blind(hub, self.clock())
                    self.table.log("hardware", Sentence(
                        "hub {hub} has said nothing for {seconds} s: its region is blind",
                        {"hub": hub.name, "seconds": f"{now - last:.1f}"}))
                    self._changed.set()
                    self.publish()
                if now - asked.get(hub.name, float("-inf")) >= 1.0:
                    asked[hub.name] = now
                    with contextlib.suppress(HubNotConnected):
                        await hub.link.request_snapshot()

    async def _consume_link(self, hub: Hub) -> None:
        async for event in hub.link.events():
            now = self.clock()
            if isinstance(event, TagArrived | TagLeft):
                event = hub.on_board(event)
                if event is None:
                    continue  # a reader the profile does not name
                if isinstance(event, TagArrived):
                    self.tracker.tag_arrived(event.reader, uid_hex(event.uid), now)
                else:
                    self.tracker.tag_left(event.reader, uid_hex(event.uid), now)
            elif isinstance(event, Snapshot):
                readers = {hub.reader(n): [uid_hex(uid) for uid in r.uids]
                           for n, r in enumerate(event.readers)}
                readers.pop(None, None)
                self.tracker.snapshot(readers, now)
                hub.seen = True
            elif isinstance(event, LinkDown | LinkUp):
                self._blind(hub, now)  # until its snapshot: what it said before may be stale
                hub.watching = None  # a rebooted hub watches nothing: asked again
                self._hub_timing()
                if isinstance(event, LinkUp):  # a new or rebooted hub says hello
                    self._note_hello(hub, event.hello)
            line = self.health.note(event, hub)
            if line is not None:
                self.table.log("hardware", line)
            if isinstance(event, Heartbeat):
                self._note_beat(hub, event)
                continue  # nothing on the table changed
            if isinstance(event, Watching):
                hub.watching = event
                self._hub_timing()
                self.tracker.sped_up(now)  # what came before was read at the old pace
                self._retimed.set()
                continue
            early = self._early
            if early is not None and early.board != frozenset(
                    self.table.board_to_judge(self.tracker.board).items()):
                self._early = None  # the board changed: an early search at the old one stops
            self._changed.set()
            self.publish()

    def _note_hello(self, hub: Hub, hello: Hello) -> None:
        """A new or rebooted hub: its miss limit, and its scan period from the model until
        its heartbeats measure it."""
        hub.miss_limit = hello.miss_limit
        hub.last_beat = None
        if self.wait_for_lifts:
            hub.period = self._modelled_period(hub, hello)
            self._hub_timing()

    def _modelled_period(self, hub: Hub, hello: Hello) -> float:
        """Seconds a scan of this hub should take (with a margin), from the scan model."""
        stacks = self.tracker.stacks
        readers = hub.settings.readers
        size = self.profile.radio.uid_bytes
        tags = {local: (size,) * len(stacks.get(self.profile.readers.get(reader, ""), ()))
                for local, reader in enumerate(readers)}
        if hello.schedule:
            ms = scheduled_scan(hello.schedule, tags, self.profile.radio).scan_ms
        else:
            ms = unscheduled_scan_ms(hello.reader_count, tags)
        return MODEL_MARGIN * ms / 1000

    def _note_beat(self, hub: Hub, beat: Heartbeat) -> None:
        if self.wait_for_lifts and hub.note_beat(beat):
            self._hub_timing()

    def _hub_timing(self) -> None:
        """A lifted tag is reported gone after its hub's miss limit of scans: after an arrival
        the tracker waits as long as the slowest hub may take for that (``Hub.lift_latency``);
        tags found in one scan of the slowest hub came in no known order."""
        if self.wait_for_lifts:
            self.tracker.lift_latency = max(hub.lift_latency for hub in self.hubs)
            self.tracker.tie_seconds = max(hub.rescan for hub in self.hubs)
            self.tracker.quick_seconds = self.tracker.tie_seconds
            self.tracker.round_seconds = max(hub.round for hub in self.hubs)
            # a reader that missed a tag is read every scan for a while: a scan and a half
            self.tracker.flicker_seconds = self.timing.flicker_scans * max(
                hub.period for hub in self.hubs)

    @property
    def judging(self) -> bool:
        """A change came in that the table has not judged yet (or a search for a dealing of
        the unseen draws has still to say what the board is)."""
        return self._changed.is_set() or self.table.search_asked is not None or (
            self._searching is not None)

    async def _work(self, name: str, work: Callable[[], Awaitable[None]]) -> None:
        """Do ``work`` each time it is asked (``_due[name]``): one worker per kind of work."""
        due = self._due[name]
        while True:
            await due.wait()
            due.clear()
            try:
                await work()
            except Exception:  # a worker failing must not stop the table
                log.exception("the %s worker failed", name)

    async def _judge_when_settled(self) -> None:
        """Judge once the board has settled; or early, a scan after the last change, when it
        shows exactly one legal step (a hand that paused mid-slide shows none, or several)."""
        while True:
            await self._changed.wait()
            self._changed.clear()
            while (wake := self.judge_at(now := self.clock())) is not None:
                self._retimed.clear()
                with contextlib.suppress(TimeoutError):  # a watch confirmed, a search answered
                    await asyncio.wait_for(self._retimed.wait(), max(0.0, wake - now))
                self._changed.clear()  # what came meanwhile is in the tracker's times
            self.judge()

    def judge_at(self, now: float) -> float | None:
        """None if the board is to be judged now, else when to look again
        (``Judgement.wake_at``)."""
        return self.judgement.wake_at(now)

    def _search_early(self, board: Mapping[str, str]) -> None:
        """Look off the loop for another dealing of the unseen draws under which the still
        board is one legal step (a card the working guess gave another hand), once per board;
        when the answer comes the board is looked at again (``_retimed``)."""
        early = self.table.early_search(board)
        running = self._early
        if early is None or (running is not None and running.asks(
                early.state, len(early.reveals), early.board)):
            return
        self._early = early  # one running for another board stops
        self._due["early search"].set()

    async def _start_early_search(self) -> None:
        early = self._early
        if early is not None and early is not self._early_started:
            self._early_started = early
            self._early_task = asyncio.create_task(self._run_early_search(early),
                                                   name="early search")

    async def _run_early_search(self, early: EarlySearch) -> None:
        table = self.table

        def stop() -> bool:  # asked from the early search's thread: a newer board, or a move taken
            try:
                return self._early is not early or table.state is not early.state
            except IndexError:  # the game was aborted meanwhile: no state at all
                return True

        try:
            found = await asyncio.to_thread(early.run, stop)
        except Exception:  # an early search failing must not stop the table: it judges when settled
            log.exception("the early search for another dealing failed")
            found = None
        if self._early is early:
            self._early = None
            table.early_searched(early, found)
            self._retimed.set()

    def judge(self) -> None:
        """Let the table judge the observed board now, then relight and publish. While a hub
        is down nothing is judged: a move into its region would look, from the rest of the
        board, like another move (a tile taken from the display looks like a discard)."""
        before = len(self.table.actions), self.table.score_known
        if self.blind_sites:
            self.relight()
            self.publish()
            return
        self._early = None  # judged: an early search still running is of no use any more
        self.judgement.judge(self.clock())
        self._judged.set()
        if self.table.started and self.table.game.is_terminal(self.table.state) and (
            self.table.score_known and (len(self.table.actions), True) != before
        ):  # the game ended, or its last secrets were shown: sweep the final score
            self.start_sweep()
        self.relight()
        self.publish()
        self._ask_search()
        self._think()

    def _ask_search(self) -> None:
        """Search for a dealing of the unseen draws that explains the board, off the loop (a
        long search must not starve the hubs' links), then judge again."""
        if self.table.search_asked is not None:
            self._due["search"].set()

    async def _start_search(self) -> None:
        search = self.table.search_asked
        if search is not None and self._searching is None:  # one search at a time: when it
            self._searching = search  # ends, the board is judged (and asked) again
            try:
                await self._run_search(search)
            finally:  # cancelled while it waited for a still board: not searching any more
                if self._searching is search:
                    self._searching = None

    async def _run_search(self, search: Search) -> None:
        if search.under_way:  # a hand may be mid-step: only a board left still is searched
            tracker = self.tracker
            await self._while_asked(search, max(tracker.settles_at(),
                                                tracker.last_change
                                                + self.timing.under_way_ms / 1000))
            if self.table.search_asked is None or self.table.search_asked.key != search.key:
                self._searching = None
                self.judge()
                return
        cut = False

        def stop() -> bool:  # asked from the search's thread; once told, it stays stopped
            nonlocal cut
            cut = cut or self._stopped or not self.table.searches.wants(search)
            return cut

        try:
            found, costs = await asyncio.to_thread(search.run, stop)
        except Exception:  # a search failing must not stop the table
            log.exception("the search for a dealing failed")
            found, costs = None, []
        finally:
            if self._searching is search:
                self._searching = None
        try:
            self.table.searched(search, found, costs, stopped=cut)
        except JournalError as error:  # the dealing found cannot be kept: _retry_journal
            self.table.not_recorded(error)  # asks again, every few seconds, not at once
            self.relight()
            self.publish()
            return
        self.judge()  # with the answer, or a newer board asks again

    async def _while_asked(self, search: Search, deadline: float) -> None:
        """Wait until ``deadline`` while the table still asks ``search`` (a hand finishing
        the step changes the board, and the table asks another)."""
        while (left := deadline - self.clock()) > 0 and self.table.search_asked is not None and (
                self.table.search_asked.key == search.key):
            self._judged.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._judged.wait(), left)

    def _think(self) -> None:
        """Start the AI on what the table needs (an AI seat's move, a hint), off the loop."""
        self._due["think"].set()

    async def _think_again(self) -> None:
        request = self.table.advice_request()
        if request is None or self.advisor is None or request.state is self._gave_up_on:
            return
        if self.thinking is not None and self.thinking.state is request.state and (
                self.thinking.kind == request.kind):
            return
        self.thinking = request
        self._think_task = asyncio.create_task(self._advise(request), name="ai")

    async def _advise(self, request: AdviceRequest) -> None:
        assert self.advisor is not None
        try:
            advice = await asyncio.to_thread(self.advisor, request)
            self.table.receive_advice(request, advice.action, advice.values, advice.seconds,
                                      advice.simulations)
        except Exception as error:  # the AI failing must not stop the table
            log.exception("the AI failed")
            self.table.log("ai", Sentence("the AI could not think: {error}",
                                          {"error": str(error)}))
            self._gave_up_on = request.state  # not again for this position
        finally:
            if self.thinking is request:
                self.thinking = None
        self.relight()
        self.publish()
        self._think()

    async def _retry_journal(self) -> None:
        """A move the journal could not record (its disk full) is judged again every few
        seconds, so the table takes it by itself once space is freed."""
        while True:
            await asyncio.sleep(self.timing.journal_retry_ms / 1000)
            if isinstance(self.table.decision, NotRecorded) and not self.judging:
                self.judge()

    async def _consume_buttons(self) -> None:
        while True:
            event = await self.buttons.get()
            try:
                self.press(event.role, event.kind)
            finally:
                self.buttons.task_done()  # ``buttons.join()``: every press handled

    # -- commands: the one way the page, the API, the buttons and the CLI change the table --
    def new_game(self, players: list[str], options: dict[str, str] | None = None,
                 ai: dict[str, int] | None = None, dealer: str = "players") -> Reply:
        """Start a game (any game in progress is aborted and stays in the journal)."""
        if ai and self.advisor is None:
            raise BadSetup(Sentence("AI players need OpenSpiel: pip install '.[ai]'"))
        self.table.new_game(players, options, ai, dealer)
        self.sweep = ()  # the last game's score is not swept over the new one
        self.judge()
        return Sentence("new game: {players}", {"players": ", ".join(players)})

    def rematch(self) -> Reply:
        """A new game with the last game's players, options, AI seats and dealer."""
        players, options, ai, dealer = self.table.rematch_setup()
        self.new_game(players, options, ai, dealer)
        return Sentence("rematch: {players}", {"players": ", ".join(players)})

    def confirm(self) -> Reply:
        """Take back, pick the first reading, or make the one silent action waiting."""
        return self._then_judge(self.table.confirm())

    def undo(self, steps: int = 1) -> Reply:
        """Take back ``steps`` visible steps; the table is not read until it changes."""
        return self._then_judge(self.table.undo(steps))

    def choose(self, index: int) -> Reply:
        """Pick reading ``index`` of the several the board could mean."""
        return self._then_judge(self.table.choose(index))

    def hint(self) -> Reply:
        """Ask the AI for the move of the player on turn; it is lit and shown when found."""
        if self.advisor is None:
            raise AiUnavailable(NO_AI_HINTS)
        return self._then_judge(self.table.request_hint())

    def abort(self) -> Reply:
        """End the running game as aborted; it stays in the journal."""
        self.table.abort()
        return self._then_judge(Sentence("game aborted"))

    def claim_seat(self, seat: int, code: str, held: str | None = None) -> str:
        """A secret token for the phone that gives ``seat``'s code (``held``: the seat token
        the phone already has: one phone, one seat)."""
        try:
            token = self.table.claim_seat(seat, code, held)
        finally:  # a wrong code may have renewed the seat's code: the log says so
            self.publish()
        return token

    def seat_codes(self) -> list[tuple[str, SeatRecord]]:
        """Each seat's player, code and claim, for the table's owner."""
        return [(self.table.players[r.seat], r) for r in self.table.seat_codes()]

    def release_seat(self, seat: int) -> Reply:
        self.table.release_seat(seat)
        self.publish()
        return Sentence("{player}'s seat released", {"player": self.table.players[seat]})

    def release_seats(self) -> Reply:
        self.table.release_seats()
        self.publish()
        return Sentence("all seats released")

    def private_view(self, seat: int, token: str) -> dict[str, Any]:
        """What only ``seat``'s player may see (needs the token its claim returned)."""
        return self.table.private_view(seat, token)

    async def private_hint(self, seat: int, token: str) -> report.PrivateHint:
        """The AI's move for ``seat``, for that player's phone only (nothing lit or logged)."""
        advice = await self._told_nobody(self.table.private_hint_request(seat, token))
        return report.PrivateHint(action=advice.action, values=advice.values,
                                  seconds=round(advice.seconds, 3),
                                  simulations=advice.simulations)

    async def unseen_hint(self) -> str:
        """The AI's move for the person on turn, for the simulator's "do the next step for
        me" to play: unlike `hint`, nothing is lit or logged (it may name a hidden card)."""
        return (await self._told_nobody(self.table.unseen_hint_request())).action

    async def _told_nobody(self, request: AdviceRequest) -> Any:
        """The advisor's answer to ``request``, thought off the loop and kept from the table."""
        if self.advisor is None:
            raise AiUnavailable(NO_AI_HINTS)
        advice = await asyncio.to_thread(self.advisor, request)
        if not self.table.started or request.state is not self.table.state:
            raise NothingToConfirm(Sentence("the table moved on while the AI thought: ask "
                                            "again"))
        return advice

    def press(self, role: str, kind: str = "press") -> str:
        """A button gesture: the command the profile maps it to (refusals are logged). The
        answer is English: it goes to the service's log, not to a page."""
        command = self.profile.buttons.gestures.get(f"{kind} {role}")
        if command is None:
            return f"{kind} {role} does nothing on this table"
        try:
            return str(getattr(self, command)())
        except (NothingToConfirm, JournalError) as error:  # a full disk must not stop the table
            sentence = getattr(error, "sentence", None) or str(error)
            self.table.log("button", Sentence("{gesture}: {error}",
                                              {"gesture": f"{kind} {role}", "error": sentence}))
            self.publish()
            return str(error)

    def _then_judge(self, message: Reply) -> Reply:
        self.judge()
        return message

    # -- what the page reads ------------------------------------------------------------------
    def sites(self) -> report.Sites:
        """The game's sensed sites with drawing coordinates."""
        game = self.table.game
        players = len(self.table.players) or game.max_players
        return report.Sites(game=game.id, name=game.name, sites=[
            report.SiteInfo(id=s.id, x=s.x, y=s.y, label=s.label) for s in game.sites(players)])

    def games(self, language: str | None = None) -> list[report.GameInfo]:
        """The game this table referees, its player counts and options (their names and
        choices also in ``language``, for the page's form)."""
        game, texts = self.table.game, self.texts(language)
        labels = {}
        for spec in game.options:
            for word, msgid in option_msgids(spec.name, spec.choices).items():
                said = texts.gettext(msgid)
                labels[word] = word if said == msgid else said  # English: the id itself
        return [report.GameInfo(id=game.id, name=game.name, min_players=game.min_players,
                                max_players=game.max_players,
                                options={spec.name: list(spec.choices) for spec in game.options},
                                labels=labels,
                                help={spec.name: texts.gettext(spec.help)
                                      for spec in game.options})]

    # -- lights -------------------------------------------------------------------------------
    def relight(self) -> None:
        self.roles = self.table.led_roles()
        self.roles.update(dict.fromkeys(sorted(self.blind_sites), "blind"))
        self._show(self.clock())
        self._watch_next()

    def _watch_next(self) -> None:
        """Ask each hub to watch the readers the next step could change, when they changed:
        it then reads its other stacks only now and then, and its scan is shorter (a deep
        stack's tags, each checked every scan, are what makes a scan long)."""
        hot = self._hot_sites()
        for hub in self.hubs:
            wanted = None if hot is None else tuple(
                local for local, reader in enumerate(hub.settings.readers)
                if self.profile.readers.get(reader) in hot)
            if wanted != hub.wanted:
                hub.wanted = wanted
                self._send_watch(hub)
        self._hub_timing()

    def _hot_sites(self) -> frozenset[str] | None:
        """The sites a legal step could change now, those that disagree with the game (where
        a mistake is to be put right) and the game's pads; None: any may (no game, or no
        step changes the board: every reader is read every scan)."""
        table = self.table
        if not self.watch_hubs or not table.started or table.game.is_terminal(table.state):
            return None
        successors = table.all_successors
        if self._hot is None or self._hot[0] is not successors:
            changed = {site for successor in successors.changing
                       for site in changed_sites(successors.board, successor.board)}
            self._hot = (successors, frozenset(changed))
        if not self._hot[1]:
            return None
        pads = (table.game.choice_site, table.game.reveal_site)
        return self._hot[1] | changed_sites(successors.board, self.tracker.board) | {
            site for site in pads if site is not None}

    def _send_watch(self, hub: Hub) -> None:
        self._watches_due.add(hub.name)
        self._due["watch"].set()

    async def _send_watches(self) -> None:
        """Each hub's watch in a task of its own: a hub whose port is wedged (a write waits up
        to its timeout) holds up no other hub's."""
        due, self._watches_due = self._watches_due, set()
        for hub in self.hubs:
            if hub.name in due:
                task = asyncio.create_task(self._set_watch(hub), name=f"watch {hub.name}")
                self._watch_tasks.add(task)  # asyncio keeps only weak references to tasks
                task.add_done_callback(self._watch_tasks.discard)

    @staticmethod
    async def _set_watch(hub: Hub) -> None:
        with contextlib.suppress(HubNotConnected):  # asked again once it is back
            await hub.link.send(hub.watch)

    def start_sweep(self) -> None:
        self.sweep = lighting.score_sweep(self.table.game.score(self.table.state))
        self.sweep_started = self.clock()

    def _sweep_index(self, now: float) -> int | None:
        """Which step of the end-of-game sweep is lit at ``now`` (None: no sweep running)."""
        if not self.sweep:
            return None
        index = int((now - self.sweep_started) / (self.timing.sweep_ms / 1000))
        return index if 0 <= index < len(self.sweep) else None

    def _sweep_roles(self, now: float) -> dict[str, str] | None:
        index = self._sweep_index(now)
        if index is None:
            return None
        return dict.fromkeys(self.sweep[index].sites, "score")

    def _show(self, now: float) -> None:
        roles = self._sweep_roles(now) or self.roles
        palette = self.profile.colours
        self.led_colours = lighting.colours_at(roles, palette, now, self.led_sites)
        if self.lights is not None:
            self.lights.show(self.led_colours)

    async def _animate(self) -> None:
        swept: int | None = None
        while True:
            await asyncio.sleep(1 / ANIMATION_HZ)
            now = self.clock()
            self._show(now)
            index = self._sweep_index(now)
            if index != swept:  # the pages light the same score line as the table
                swept = index
                self.publish()

    # -- status for the page ----------------------------------------------------------------------
    def art(self, language: str | None = None) -> dict[str, Any]:
        """How this game's pieces and sites are drawn, their names in ``language``."""
        return art_json(self.table.game, self.texts(language).text)

    def texts(self, language: str | None = None) -> Catalogue:
        """The catalogue for ``language`` (None: the table's own): this game's names, the
        shared words and the service's texts."""
        return catalogue(language or self.language, self.table.game)

    def status(self, language: str | None = None) -> report.Status:
        """Everything the page shows, every text for people in ``language`` (None: the
        table's own)."""
        thinking = self.thinking
        if thinking is None or not self.table.started or thinking.state is not self.table.state:
            thinking = None
        sweep = None
        texts = self.texts(language)
        game = dict(self.table.status(texts))
        index = self._sweep_index(self.clock())
        if index is not None:
            step = self.sweep[index]
            lines = game["scores"].lines.get(step.player, []) if game["scores"] else []
            sweep = report.Sweep(player=step.player,  # the line as the score sheet words it
                                 text=lines[step.line] if step.line < len(lines) else step.text,
                                 points=step.points, sites=list(step.sites))
            if game["scores"] is not None:
                game["scores"] = game["scores"].model_copy(update={
                    "sweep": report.SweepAt(player=step.player, line=step.line)})
        return report.Status(
            **game,
            observed_board=self.table.public_board(self.tracker.board),
            unknown_tags=[report.UnknownTag(site=t.site, uid=t.uid) for t in self.tracker.unknown],
            leds={site: "#{:02x}{:02x}{:02x}".format(*colour)
                  for site, colour in self.led_colours.items()},
            roles=self.roles,
            thinking=report.Thinking(kind=thinking.kind, player=self.table.players[thinking.seat])
            if thinking is not None else None,
            ai_available=self.advisor is not None,
            sweep=sweep,
            palette={role: "#{:02x}{:02x}{:02x}".format(*self.profile.colours[name])
                     for role, name in lighting.COLOUR_OF_ROLE.items()
                     if name in self.profile.colours},
            club=report.Club(**dataclasses.asdict(self.club.report()))
            if self.club is not None else None,
            hardware=self.health.report(self.hubs, self.profile.leds.count,
                                        getattr(self.lights, "pushes", None), self.blind_sites,
                                        texts.text),
        )

    def status_json(self, language: str | None = None) -> bytes:
        """The status as JSON, rendered at most once per change and language (and refreshed at
        most every ``STATUS_MAX_AGE`` for what changes unpublished): ``/api/status`` and every
        SSE client of a language send these same bytes, so a crowd of readers costs the table
        one rendering per language they read."""
        return self._render(language).json

    def _render(self, language: str | None = None) -> Rendered:
        language = language or self.language
        rendered = self._rendered.get(language)
        now = time.monotonic()
        if (rendered is None or rendered.version != self._version
                or now - rendered.at >= STATUS_MAX_AGE):
            version = self._version
            data = self.status(language).model_dump_json().encode()
            rendered = Rendered(version, now, data, b"event: status\r\ndata: " + data + b"\r\n\r\n")
            self._rendered[language] = rendered
            self.renders += 1
        return rendered

    def publish(self) -> None:
        """The status changed: mark the rendering stale and wake the broadcaster. Called on
        the table's path (every hub frame, every judgement), so it does nothing per client
        and renders nothing; readers render it when they next ask."""
        self._version += 1
        self._kick.set()
        for listener in self.listeners:
            listener()

    async def status_events(self, language: str | None = None) -> AsyncIterator[bytes]:
        """One SSE client's stream: the status now, then after each change (bursts sent once,
        at most ``STREAM_HZ`` a second) and again after ``KEEPALIVE`` seconds of quiet. Each
        client waits on the one shared event: no queue per client, nothing kept for a slow
        one (it is sent the newest status when it can take it)."""
        group = self._join_stream()
        try:
            while True:
                waiting = self._published[group]  # taken before sending: a change wakes it
                rendered = self._render(language)
                yield rendered.event
                while True:
                    try:
                        async with asyncio.timeout(KEEPALIVE):
                            await waiting.wait()
                    except TimeoutError:
                        break  # quiet for long: send the status again
                    if self._version != rendered.version:
                        break
                    waiting = self._published[group]  # woken for a change already sent
        finally:
            self.streams -= 1

    def _join_stream(self) -> int:
        """Count a new SSE client in (starting the broadcaster if need be): its group."""
        loop = asyncio.get_running_loop()
        task = self._broadcaster
        if task is None or task.done() or task.get_loop() is not loop:
            self._kick = asyncio.Event()  # events bind to the loop that first waits on them
            self._published = [asyncio.Event() for _ in range(STREAM_GROUPS)]
            self._broadcaster = loop.create_task(self._broadcast(), name="status-broadcast")
        self.streams += 1
        self._joined += 1
        return self._joined % STREAM_GROUPS

    async def _broadcast(self) -> None:
        """Wake the SSE clients after publishes, at most ``STREAM_HZ`` times a second; ends
        with the last client (the next one starts it again)."""
        while self.streams:
            await self._kick.wait()
            self._kick.clear()
            woken, self._published = self._published, [
                asyncio.Event() for _ in range(STREAM_GROUPS)]
            for event in woken:
                event.set()
                await asyncio.sleep(0)  # the table's path may run between two groups
            await asyncio.sleep(1 / STREAM_HZ)
