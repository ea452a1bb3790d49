"""limits(): the action numbering, the longest game and the score range, and that they hold."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.core.errors import BadSetup
from games.core.game import TERMINAL
from games.core.playout import random_step, seat_names
from games.topiary import GAME, Topiary
from games.topiary.components import load_components
from games.topiary.limits import leftover_tiles
from games.topiary.scoring import EMPTY, score_line
from games.topiary.spots import all_spots
from games.topiary.state import TopiaryState

COMPONENTS = GAME.components
SETUPS = [(n, draft) for n in (2, 3, 4) for draft in ("off", "on")]


def kind(action: str) -> str:
    return action.split()[0]


@pytest.mark.parametrize(("players", "draft"), SETUPS)
def test_actions_are_canonical_sorted_and_unique(players: int, draft: str) -> None:
    actions = GAME.limits(players, {"draft": draft}).actions
    assert list(actions) == sorted(set(actions))
    assert all(GAME.parse_action(action) == action for action in actions)


def test_action_counts_follow_the_data() -> None:
    tiles, cells = len(COMPONENTS.tiles), COMPONENTS.size**2
    spots, shapes = len(all_spots(COMPONENTS.size)), len(COMPONENTS.shapes)
    # lay + deal + pick + visitor + take/place off the centre
    base = cells * tiles + tiles + 1 + spots + (cells - 1) * (1 + tiles)
    assert base == 2081
    counts = {setup: len(GAME.limits(setup[0], {"draft": setup[1]}).actions) for setup in SETUPS}
    assert counts == {
        (2, "off"): base + shapes,
        (2, "on"): base + shapes + tiles + 1,
        (3, "off"): base + shapes,
        (3, "on"): base + shapes + tiles + 1,
        (4, "off"): base,
        (4, "on"): base + tiles + 1,
    }


def test_what_differs_between_player_counts_and_options() -> None:
    two = set(GAME.limits(2).actions)
    four = set(GAME.limits(4).actions)
    drafted = set(GAME.limits(4, {"draft": "on"}).actions)
    assert two - four == {f"remove {shape}" for shape in COMPONENTS.shapes}
    assert four <= two
    assert drafted - four == {"box"} | {f"pass {name}" for name in COMPONENTS.tile_names}
    # The centre is laid face up: it is never taken and never a gap.
    assert "take 2:2" not in two and not any(a.startswith("place 2:2 ") for a in two)
    assert "lay 2:2 swan 3" in two and "take 1:2" in two and "place 4:4 whale 5" in two
    kinds = {kind(action) for action in drafted}
    assert kinds == {"lay", "deal", "pick", "pass", "box", "visitor", "take", "place"}


def test_no_draft_steps_when_no_tile_is_left_over() -> None:
    """Hands of 5 use up the 35 tiles of a 2-player game: the draft has nothing to pass."""
    tight = Topiary(replace(COMPONENTS, hand_size=5))
    assert leftover_tiles(tight.components, 2) == 0
    assert tight.limits(2, {"draft": "on"}) == tight.limits(2)


def test_limits_are_checked_like_initial() -> None:
    for count in (0, 1, 5):
        with pytest.raises(BadSetup, match=f"2 to 4 players, not {count}"):
            GAME.limits(count)
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.limits(True)  # type: ignore[arg-type]
    with pytest.raises(BadSetup, match="option draft must be one of off, on"):
        GAME.limits(2, {"draft": "maybe"})
    with pytest.raises(BadSetup, match="no option 'edition'"):
        GAME.limits(2, {"edition": "first"})


def test_limits_are_made_once_per_engine() -> None:
    engine = Topiary()
    first = engine.limits(3, {"draft": "on"})
    assert engine.limits(3, {"draft": "on"}) is first
    assert engine.limits(2) is engine.limits(2, {"draft": "off"})


@pytest.mark.parametrize(("players", "draft"), SETUPS)
def test_random_games_stay_within_limits(players: int, draft: str) -> None:
    limits = GAME.limits(players, {"draft": draft})
    numbered = set(limits.actions)
    seen: set[str] = set()
    for seed in range(25):
        rng = random.Random(seed)
        state = GAME.initial(seat_names(players), {"draft": draft})
        steps = 0
        while GAME.actor(state) != TERMINAL:
            seen.update(GAME.legal_actions(state))
            state = GAME.apply(state, random_step(GAME, state, rng))
            steps += 1
            totals = GAME.score(state).totals
            assert all(limits.min_score <= t <= limits.max_score for t in totals)
        assert steps <= limits.max_steps
    assert seen <= numbered, sorted(seen - numbered)[:5]


def longest_game(engine: Topiary, players: int, draft: str, seed: int) -> int:
    """Play so that every turn takes a tile while one is face down: the longest game."""
    rng = random.Random(seed)
    state = engine.initial(seat_names(players), {"draft": draft})
    steps = 0
    while engine.actor(state) != TERMINAL:
        if state.phase == "visitor":
            action = _visitor_with_a_take(engine, state, rng)
        else:
            action = random_step(engine, state, rng)
        state = engine.apply(state, action)
        steps += 1
    return steps


def _visitor_with_a_take(engine: Topiary, state: TopiaryState, rng: random.Random) -> str:
    legal = engine.legal_actions(state)
    spots = {f"visitor {spot.name}": spot for spot in engine.spots}
    down = {c for c, tile in enumerate(state.grid) if tile != EMPTY and not state.face_up[c]}
    taking = [action for action in legal if down & set(spots[action].line)]
    return rng.choice(taking or legal)


@pytest.mark.parametrize(("players", "draft"), SETUPS)
def test_the_longest_game_reaches_max_steps_exactly(players: int, draft: str) -> None:
    assert (
        longest_game(GAME, players, draft, seed=players)
        == GAME.limits(players, {"draft": draft}).max_steps
    )


def test_max_steps_counts_only_the_face_down_tiles_when_visitors_outnumber_them() -> None:
    """With 7 visitors each, 4 players place 28: only 24 turns can take a tile."""
    crowded = Topiary(replace(COMPONENTS, visitors_per_player={2: 8, 3: 6, 4: 7}))
    limits = crowded.limits(4, {"draft": "on"})
    assert limits.max_steps == 25 + 2 * 4 * 3 + 2 * 4 * 3 + 28 + 2 * 24
    assert longest_game(crowded, 4, "on", seed=1) == limits.max_steps


def test_max_steps_per_player_count_from_the_data() -> None:
    # remove + lay + deal/pick (+ draft) + visitors with take and place
    assert GAME.limits(2).max_steps == 1 + 25 + 12 + 16 * 3
    assert GAME.limits(2, {"draft": "on"}).max_steps == 1 + 25 + 12 + 2 * 2 * 4 + 16 * 3
    assert GAME.limits(3, {"draft": "on"}).max_steps == 1 + 25 + 18 + 2 * 3 * 1 + 18 * 3
    assert GAME.limits(4, {"draft": "on"}).max_steps == 25 + 24 + 2 * 4 * 3 + 20 * 3


def test_score_range_from_the_data() -> None:
    # visitors * (5+4+3+2+1 + set bonus 5) + 3 hand tiles of value 4
    assert [GAME.limits(n).min_score for n in (2, 3, 4)] == [0, 0, 0]
    assert [GAME.limits(n).max_score for n in (2, 3, 4)] == [172, 132, 112]


def _tile(name: str, face_up: bool = True) -> dict[str, object]:
    shape, value = name.split()
    return {"shape": shape, "value": int(value), "face_up": face_up}


def test_a_visitor_and_a_hand_tile_reach_their_bounds() -> None:
    """A whole shape rising along one line scores 15 + 5 = 20, the per-visitor bound; a hand
    tile of the second-highest value scores 4, the per-hand-tile bound."""
    grid: list[list[object]] = [[None] * 5 for _ in range(5)]
    grid[0] = [_tile(f"swan {v}") for v in range(1, 6)]
    grid[1][0] = _tile("pyramid 5")
    sheet, _ = GAME.score_position(
        {
            "players": ["anna", "ben"],
            "grid": grid,
            "visitors": [
                {"player": "anna", "tile": [0, 0], "dir": "E"},
                {"player": "anna", "tile": [1, 0], "dir": "E"},
            ],
            "hands": {"anna": [{"shape": "pyramid", "value": 4}]},
        }
    )
    assert [line.points for line in sheet.lines[0]] == [20, 5, 4]


def test_the_best_garden_we_can_build_stays_within_the_bound() -> None:
    """Rows of whole shapes rising west to east (every column one value), all face up: the
    owner of the best spots and the best possible hand still stays within max_score."""
    shapes = COMPONENTS.shapes[:5]
    grid = tuple(COMPONENTS.tile_numbers[shapes[r], c + 1] for r in range(5) for c in range(5))
    for players in (2, 3, 4):
        high = GAME.limits(players).max_score
        total = _best_player_total(grid, COMPONENTS.visitors_per_player[players])
        assert 100 <= total <= high


def test_random_full_gardens_stay_within_the_bound() -> None:
    rng = random.Random(7)
    tiles = list(range(len(COMPONENTS.tiles)))
    for _ in range(200):
        rng.shuffle(tiles)
        grid = tuple(tiles[:25])
        for players in (2, 3, 4):
            total = _best_player_total(grid, COMPONENTS.visitors_per_player[players])
            assert total <= GAME.limits(players).max_score


def _best_player_total(grid: tuple[int, ...], visitors: int) -> int:
    """A fully face-up grid: the best ``visitors`` spots, and the best hand of three tiles
    from those off the grid (a tile scores its value below a scored tile of its shape)."""
    face_up = (True,) * len(grid)
    lines = sorted(
        (score_line(spot, grid, face_up, COMPONENTS) for spot in all_spots(COMPONENTS.size)),
        key=lambda line: line.total,
        reverse=True,
    )[:visitors]
    best: dict[str, int] = {}
    for line in lines:
        for tile in line.scored:
            shape, value = COMPONENTS.tiles[tile]
            best[shape] = max(best.get(shape, 0), value)
    off_grid = [t for t in range(len(COMPONENTS.tiles)) if t not in set(grid)]
    hand_values = sorted(
        (
            value
            for shape, value in map(COMPONENTS.tiles.__getitem__, off_grid)
            if value < best.get(shape, 0)
        ),
        reverse=True,
    )
    return sum(line.total for line in lines) + sum(hand_values[: COMPONENTS.hand_size])


def test_the_first_steps_are_numbered() -> None:
    numbered = set(GAME.limits(2, {"draft": "on"}).actions)
    state = GAME.initial(["anna", "ben"], {"draft": "on"})
    assert GAME.actor(state) == 0  # the players choose the shape to remove
    assert set(GAME.legal_actions(state)) <= numbered
    state = GAME.apply(state, "remove swan")
    assert set(GAME.legal_actions(state)) <= numbered
    names = COMPONENTS.tile_names
    every_lay = {f"lay {c // 5}:{c % 5} {name}" for c in range(25) for name in names}
    assert every_lay <= numbered


def test_the_data_file_drives_the_limits() -> None:
    assert load_components() is COMPONENTS
    wider = Topiary(replace(COMPONENTS, hand_size=4))
    assert wider.limits(4).max_steps == GAME.limits(4).max_steps + 2 * 4
    assert wider.limits(4).max_score == GAME.limits(4).max_score + 4
