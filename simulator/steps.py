"""Physical steps a person makes at the table, as data: what scenarios are written in and what
autoplay bots turn their moves into. `perform` does one step on a `VirtualTable`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from simulator.virtual_table import VirtualTable


@dataclass(frozen=True, slots=True)
class Put:
    piece: str
    site: str

    def __str__(self) -> str:
        return f"put {self.piece} {self.site}"


@dataclass(frozen=True, slots=True)
class Lift:
    site: str

    def __str__(self) -> str:
        return f"lift {self.site}"


@dataclass(frozen=True, slots=True)
class Slide:
    start: str
    end: str

    def __str__(self) -> str:
        return f"slide {self.start} {self.end}"


@dataclass(frozen=True, slots=True)
class Drag:
    """A piece from the hand laid on ``site`` the way a hand drags it over the table: it
    passes over the sites ``over`` first (what the table must never judge mid-way)."""

    piece: str
    site: str
    over: tuple[str, ...]

    def __str__(self) -> str:
        return f"drag {self.piece} {self.site} over {' '.join(self.over)}"


@dataclass(frozen=True, slots=True)
class Press:
    button: str

    def __str__(self) -> str:
        return f"press {self.button}"


@dataclass(frozen=True, slots=True)
class Hold:
    button: str
    ms: int

    def __str__(self) -> str:
        return f"hold {self.button} {self.ms}"


@dataclass(frozen=True, slots=True)
class Wait:
    ms: int

    def __str__(self) -> str:
        return f"wait {self.ms}"


@dataclass(frozen=True, slots=True)
class Unplug:
    def __str__(self) -> str:
        return "unplug"


@dataclass(frozen=True, slots=True)
class Replug:
    def __str__(self) -> str:
        return "replug"


Step = Put | Lift | Slide | Drag | Press | Hold | Wait | Unplug | Replug


async def perform(table: VirtualTable, step: Step) -> None:
    """Do one step; raises the table's TableError (and changes nothing) if it cannot be done."""
    match step:
        case Put(piece, site):
            if piece.startswith("uid:"):
                table.put_tag(piece[4:], site)
            else:
                table.put(piece, site)
        case Lift(site):
            table.lift(site)
        case Slide(start, end):
            await table.slide(start, end)
        case Drag(piece, site, over):
            await table.drag(piece, site, over)
        case Press(button):
            await table.press(button)
        case Hold(button, ms):
            await table.hold(button, ms)
        case Wait(ms):
            await asyncio.sleep(ms / 1000)
        case Unplug():
            table.unplug()
        case Replug():
            table.replug()
        case _:
            raise TypeError(f"not a physical step: {step!r}")
