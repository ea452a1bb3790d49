"""One road to the table: the page, the API and the buttons all call TableService commands."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import controller.web
from controller.service import TableService
from hardware.profile import BUTTON_COMMANDS, DEFAULT_GESTURES

WEB = Path(controller.web.__file__)


def test_the_web_layer_touches_the_table_only_through_the_service_commands() -> None:
    tree = ast.parse(WEB.read_text(encoding="utf-8"))
    reached = {node.attr for node in ast.walk(tree)
               if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id == "service"}
    commands = {name for name, member in inspect.getmembers(TableService)
                if callable(member) and not name.startswith("_")}
    assert reached, "the web layer calls the service"
    assert reached <= commands, f"not service methods: {reached - commands}"
    assert not any(isinstance(node, ast.Attribute) and node.attr in ("table", "tracker", "link")
                   for node in ast.walk(tree)), "web.py reaches past the service"


def test_every_button_command_is_a_service_command_needing_no_arguments() -> None:
    assert set(DEFAULT_GESTURES.values()) <= set(BUTTON_COMMANDS)
    for name in BUTTON_COMMANDS:
        method = getattr(TableService, name)
        required = [p for p in inspect.signature(method).parameters.values()
                    if p.name != "self" and p.default is inspect.Parameter.empty]
        assert not required, f"a button cannot give {name}: it needs {required}"
