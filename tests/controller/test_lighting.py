"""The LED language: one role per site, told apart by blink pattern as well as colour."""

from __future__ import annotations

import itertools
import random

from controller import lighting
from controller.referee import Discrepancy, InProgress, NoChange, Successors, TakeBack, WrongSite
from games.core.playout import random_playout
from games.registry import get_game

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
PALETTE = {"legal": (0, 200, 80), "active": (40, 90, 255), "wrong": (210, 0, 0),
           "score": (255, 214, 0), "idle": (16, 16, 16)}


def pattern(role: str) -> tuple[bool, ...]:
    """Lit or dark at 20 ms steps over two seconds."""
    return tuple(lighting.lit(role, step * 0.02) for step in range(100))


def test_every_role_blinks_differently() -> None:
    patterns = {role: pattern(role) for role in lighting.ROLES if role != "score"}
    assert len(set(patterns.values())) == len(patterns)  # no two roles look alike
    assert all(pattern("active")) and any(pattern("wrong")) and not all(pattern("wrong"))
    flips = {role: sum(a != b for a, b in itertools.pairwise(p))
             for role, p in patterns.items()}
    assert flips["wrong"] > flips["choice"] > flips["legal"] > flips["active"] == 0


def playing():
    state = GAME.initial(["anna", "ben"])
    for action in ["build " + " ".join(STACK), "mission 1", "mission 2", "aside toast up1",
                   "aside toast up1"]:
        state = GAME.apply(state, action)
    return state


def test_plans_follow_the_referees_decisions() -> None:
    successors = Successors(GAME, playing())
    legal = lighting.plan(NoChange(), successors)
    assert set(legal.values()) == {"legal"} and "pad:play" in legal
    wrong = Discrepancy((WrongSite("stack:3", "tiki:huhu", None),))
    assert lighting.plan(wrong, successors) == {"stack:3": "wrong"}
    step = InProgress((), ("stack:1",), ("pad:play",))
    assert lighting.plan(step, successors) == {"stack:1": "legal", "pad:play": "active"}
    back = lighting.plan(TakeBack(1), successors)
    assert set(back.values()) == {"choice"}


def test_blinking_sites_go_dark_and_only_sites_with_leds_light() -> None:
    roles = {"stack:1": "wrong", "stack:2": "active", "nowhere": "active"}
    on = lighting.colours_at(roles, PALETTE, 0.01, frozenset({"stack:1", "stack:2"}))
    off = lighting.colours_at(roles, PALETTE, 0.2, frozenset({"stack:1", "stack:2"}))
    assert on == {"stack:1": PALETTE["wrong"], "stack:2": PALETTE["active"]}
    assert off == {"stack:2": PALETTE["active"]}


def test_the_end_of_game_sweep_lights_each_scoring_tiki_in_turn() -> None:
    final = random_playout(GAME, ["anna", "ben"], rng=random.Random(9)).final
    sweep = lighting.score_sweep(GAME.score(final))
    last_stack = final.history[-1].stack
    rounds = len(final.history)
    for step in sweep:
        assert step.points > 0 and step.text.startswith(f"round {rounds}: ")
        for site in step.sites:
            assert site.startswith("stack:") and int(site[6:]) <= min(3, len(last_stack))
    scoring_lines = [line for lines in GAME.score(final).lines for line in lines if line.sites]
    assert len(sweep) == len(scoring_lines)
