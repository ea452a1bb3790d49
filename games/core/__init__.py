"""What every rule engine shares: the contract, score sheets, playouts, the conformance check."""

from .errors import (
    BadActionText,
    BadPosition,
    BadSetup,
    BadState,
    DataFileError,
    GameError,
    IllegalAction,
    UnknownGame,
)
from .game import (
    CHANCE,
    TERMINAL,
    Game,
    Limits,
    OptionSpec,
    RuleChange,
    Secret,
    Sentence,
    Site,
    comma_list,
    listing,
    verbatim,
)
from .playout import Playout, random_playout, random_step
from .scoresheet import ScoreLine, ScoreSheet

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BadActionText",
    "BadPosition",
    "BadSetup",
    "BadState",
    "DataFileError",
    "Game",
    "GameError",
    "IllegalAction",
    "Limits",
    "OptionSpec",
    "Playout",
    "RuleChange",
    "ScoreLine",
    "ScoreSheet",
    "Secret",
    "Sentence",
    "Site",
    "UnknownGame",
    "comma_list",
    "listing",
    "random_playout",
    "random_step",
    "verbatim",
]
