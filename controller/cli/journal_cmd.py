"""``tabletop journal check|recover``: is the journal sound, and saving what a damaged one holds.

``check`` runs SQLite's integrity_check (exit 0 sound, 2 damaged); ``recover`` writes a new
journal from a damaged one (``.recover`` of the sqlite3 shell, else a row-by-row salvage) and
leaves the damaged file as it was. See docs/service.md, "The journal".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from controller.errors import UserError
from controller.journal import set_aside
from controller.journal_repair import Health, check, recover, set_aside_copies

JOURNAL = "journal.sqlite3"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "journal", help="check the journal (SQLite's integrity check), or recover a damaged one")
    commands = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    checking = commands.add_parser("check", help="SQLite's integrity check; exit 0 if sound")
    recovering = commands.add_parser(
        "recover", help="save what a damaged journal holds into a new one (the damaged file "
                        "is kept as it is)")
    for sub in (checking, recovering):
        sub.add_argument("--data", help="the service's data folder (default ~/.local/share)")
    recovering.add_argument("--from", dest="source", metavar="FILE",
                            help="the damaged journal (default: the data folder's journal if "
                                 "damaged, else the newest one set aside)")
    recovering.add_argument("-o", "--output", metavar="OUT",
                            help="the new journal (default: the data folder's journal.sqlite3 "
                                 "if there is none, else journal.recovered-<time>.sqlite3)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from controller.compose import data_dir

    journal = data_dir(args.data) / JOURNAL
    return check_command(journal) if args.action == "check" else recover_command(
        journal, args.source, args.output)


def describe(health: Health) -> str:
    if not health.sound:
        return f"{health.path}: damaged: {' '.join(health.problems[0].split())}"
    return (f"{health.path}: sound (SQLite's integrity_check: ok); "
            f"{_many(health.games, 'game')} ({health.active} active), "
            f"{_many(health.actions, 'action')} in force, {_size(health.size)}")


def _many(count: int, thing: str) -> str:
    return f"{count} {thing}{'' if count == 1 else 's'}"


def check_command(journal: Path) -> int:
    if not journal.exists():
        raise UserError(f"no journal at {journal}: the service has not run with this data "
                        "folder" + _aside_note(journal))
    health = check(journal)
    print(describe(health))
    for problem in health.problems[1:5]:
        print(f"  {' '.join(problem.split())}")
    aside = set_aside_copies(journal)
    for path in aside:
        print(f"set aside: {path.name} ({_size(path.stat().st_size)})")
    if not health.sound or aside:
        print(f"save what can be saved: tabletop journal recover --data {journal.parent}")
    return 0 if health.sound else 2


def recover_command(journal: Path, given: str | None, output: str | None) -> int:
    source = Path(given) if given else _damaged_source(journal)
    if source is None:
        print(f"nothing to recover: {journal} passes SQLite's integrity check and no damaged "
              "journal is set aside beside it")
        return 0
    if not source.is_file():
        raise UserError(f"{source}: no such file to recover from")
    if given is None and source == journal:  # the service's own: set aside, never written
        source = set_aside(journal)
        print(f"set the damaged journal aside as {source.name} (kept as it is)")
    if output is not None:
        target = Path(output)
    elif not journal.exists():
        target = journal
    else:
        target = journal.with_name(f"journal.recovered-{time.strftime('%Y%m%d-%H%M%S')}.sqlite3")
    done = recover(source, target)
    health = done.health
    print(f"recovered with {done.method} from {source.name} (kept as it was)")
    print(f"wrote {describe(health)}")
    for note in done.lost:
        print(f"  {note}")
    if done.orphans:
        print(f"  {done.orphans} rows that could not be placed are kept in its table "
              "lost_and_found")
    if target != journal:
        print(f"the service reads {journal}: to use the recovered journal, stop the service "
              f"and move {target.name} there (keep the old one elsewhere)")
    return 0


def _damaged_source(journal: Path) -> Path | None:
    """The data folder's journal if it is damaged, else the newest journal set aside."""
    if journal.exists() and not check(journal).sound:
        return journal
    aside = set_aside_copies(journal)
    if aside:
        return aside[-1]
    if not journal.exists():
        raise UserError(f"no journal at {journal} and none set aside beside it")
    return None


def _aside_note(journal: Path) -> str:
    aside = set_aside_copies(journal)
    return f"; {len(aside)} damaged journal(s) set aside there: see `tabletop journal " \
           f"recover --data {journal.parent}`" if aside else ""


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} KB"
