"""Waiting for the service to have judged what lies on a virtual table: the bots of
``tabletop sim --autoplay``, the simulator page's next-step button and the club's simulated
tables go on only then."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from controller.service import TableService

if TYPE_CHECKING:  # the simulator is imported when used: `tabletop run` must not load it
    from simulator.virtual_table import VirtualTable


async def settled(table: VirtualTable, service: TableService, timeout: float = 90.0) -> None:
    """Wait until the service has judged exactly what lies on the virtual table (generous: a
    board no dealing of the unseen draws explains costs a search of a few seconds, and one
    the players confirmed a longer one: ``unresolved.PATIENCE``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    # A button just pressed: let its event land on the service's queue and be handled (a
    # confirm that starts a search makes the service judging, which is waited for below).
    await asyncio.sleep(0)
    try:
        await asyncio.wait_for(service.buttons.join(), timeout)
    except TimeoutError:
        raise TimeoutError(f"the service handled no button press for {timeout:g} s") from None
    while True:
        want = {site: piece for site, piece in table.board().items()
                if not piece.startswith("uid:")}
        if (service.tracker.board == want and service.table.last_board == want
                and not service.judging):
            return
        if loop.time() > deadline:
            raise TimeoutError(_unsettled(table, service, want))
        await asyncio.sleep(0.02)


def _unsettled(table: VirtualTable, service: TableService, want: dict[str, str]) -> str:
    """What differs, first: the sites the service sees or judged otherwise, and the hubs."""
    def differing(board: dict[str, str]) -> dict[str, str | None]:
        return {site: board.get(site) for site in sorted(want.keys() | board.keys())
                if board.get(site) != want.get(site)}

    line = table.hubs[0].slot_line
    return (f"the service did not settle: it sees {differing(service.tracker.board)} and "
            f"judged {differing(service.table.last_board)} otherwise than the table's "
            f"{ {site: want.get(site) for site in differing(service.tracker.board)} }; "
            f"blind {sorted(service.blind_sites)[:3]}, judging {service.judging}, slot line "
            f"timeouts {line.timeouts if line else '-'}, garbled exchanges "
            f"{table.radio.noisy_exchanges if table.radio else '-'}")
