"""Bots playing whole games on the virtual table (``tabletop sim --autoplay``), and what each
game came to: whether the table's record and scores are the bots' own, how many mistakes the
bots made and the table recovered from, and the hand-to-light timings (``hand_to_light``) that
``tabletop bench hand-to-light`` and ``bench mistakes`` read back."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.bench.hand_to_light import HandToLight
from controller.table import Table
from controller.unresolved import UNRESOLVED

from .settling import settled
from .table import HEADLESS_SETTLE_MS, running


async def autoplay_one(game_id: str, players, options, data: Path, seed: int,
                       mistakes: float, ai: dict[str, int] | None = None,
                       scan: float | str = "realistic",
                       settle: int | None = HEADLESS_SETTLE_MS, dealer: str = "players",
                       slides: float = 0.0, pause: float = 0.0,
                       mistake_kinds: Sequence[str] = ("wrong_site", "illegal_move"),
                       plain_mistakes: str | None = None) -> dict:
    from simulator.autoplay import AutoplayBot

    ai_moves = 0
    async with running(game_id, data, players, options, ai, scan, settle, dealer,
                       plain_mistakes=plain_mistakes) as (table, service):
        digital = service.table.dealer == "digital"  # asked for, or an AI seat needs it
        async def drawn_by_the_service(index: int) -> str:
            """The secret draw the service made at ``index`` (it may still be handling the
            button press that led to it)."""
            for _ in range(500):
                if len(service.table.actions) > index:
                    return service.table.actions[index]
                await asyncio.sleep(0.01)
            raise TimeoutError(f"the service drew nothing at action {index}")

        async def move_of_the_ai(seat: int) -> str | None:
            """An AI seat's move, once the service has lit it (a person then makes it)."""
            nonlocal ai_moves
            if seat not in service.table.ai:
                return None
            await settled(table, service)
            for _ in range(6000):
                advice = service.table.current_advice()
                if advice is not None and advice.kind == "ai":
                    ai_moves += 1
                    return advice.action
                await asyncio.sleep(0.01)
            raise TimeoutError(f"the AI did not choose a move for {players[seat]}")

        timing = HandToLight(table, service)
        hand = random.Random(f"pause {seed}")  # its own: the same game with pauses or without

        async def judged_and_reached() -> None:
            await settled(table, service)
            if pause:
                await asyncio.sleep(hand.uniform(0.0, pause))

        bot = AutoplayBot(table, players, options, settle=judged_and_reached,
                          seed=seed, mistake_rate=mistakes, settle_every="action",
                          hidden_chance=drawn_by_the_service if digital else None,
                          decide=move_of_the_ai, show_secrets=not digital,
                          looks_further=lambda: service.table.may_look_further,
                          slide_rate=slides, mistake_kinds=mistake_kinds)  # type: ignore[arg-type]
        timing.mistake = lambda: bot.wrong_board
        timing.mistakes_made = lambda: len(bot.mistakes)
        result = await bot.play()
        for _ in range(500):  # a last button press (a silent last action) may still be handled
            if len(service.table.actions) >= len(result.record["actions"]):
                break
            await asyncio.sleep(0.01)
        game = service.table.game
        replayed = game.initial(players, options)
        for action in result.record["actions"]:
            replayed = game.apply(replayed, action)
        engine = game.score(replayed).to_json()["scores"]
        scores = service.status().scores
        table_scores = scores.scores if scores is not None else None
        known = service.table.actions
        difference = first_difference(service.table, result.record["actions"])
        return {**result.summary(), "seed": seed, "controller_scores": table_scores,
                "ai_moves": ai_moves, "hand_to_light": timing.figures(), "slides": bot.slides,
                "dealer": service.table.dealer, "service_draws": service.table.service_draws,
                "plain_mistakes": "quick" if service.judgement.quick_mistakes else "settle",
                "unseen_draws": known.count(UNRESOLVED),
                "scores_match": engine == table_scores,
                "records_match": difference is None,
                **({"first_difference": difference} if difference is not None else {})}


def first_difference(table: Table, theirs: Sequence[str]) -> dict[str, Any] | None:
    """Where the table's record first differs from the bots' (None: nowhere; an unseen draw,
    ``?``, agrees with any draw), with the actions around it on both sides, the table's guess
    of the unseen draws there and its last log lines: where to look first."""
    known = table.actions
    differ = next((index for index, (mine, truth) in enumerate(zip(known, theirs, strict=False))
                   if mine not in (UNRESOLVED, truth)), min(len(known), len(theirs)))
    if differ == len(known) == len(theirs):
        return None
    around = slice(max(0, differ - 3), differ + 6)
    return {"index": differ, "table": known[around], "bots": list(theirs[around]),
            "table_guess": table.history.actions[around],
            "table_log": [event.text for event in table.events[-12:]],
            "bots_record": list(theirs)}


def summarize(game_id: str, players: Sequence[str], radio: str, ai: dict[str, int],
              results: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON ``tabletop sim --autoplay`` prints: every game's result and their totals."""
    return {
        "game": game_id,
        "players": list(players),
        "games": len(results),
        "radio": radio,
        "completed": sum(r["finished"] for r in results),
        "moves": sum(r["moves"] for r in results),
        "mistakes_made": sum(r["mistakes"] for r in results),
        "mistakes_recovered": sum(r["mistakes"] for r in results if r["finished"]),
        "slides": sum(r["slides"] for r in results),
        "service_draws": sum(r["service_draws"] for r in results),
        "scores_match": all(r["scores_match"] for r in results),
        "records_match": all(r["records_match"] for r in results),
        "ai": ai,
        "ai_moves": sum(r["ai_moves"] for r in results),
        "wins": {name: sum(name in r["winners"] for r in results) for name in players},
        "results": results,
    }
