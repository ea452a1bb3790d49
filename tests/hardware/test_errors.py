"""Every exception the hardware layer defines is a HardwareError, found by walking its modules."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import hardware
from hardware.errors import HardwareError


def hardware_exceptions() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.iter_modules(hardware.__path__):
        try:
            module = importlib.import_module(f"hardware.{info.name}")
        except ImportError:  # a driver module whose library only the Pi has
            continue
        found += [obj for _, obj in inspect.getmembers(module, inspect.isclass)
                  if issubclass(obj, BaseException) and obj.__module__ == module.__name__]
    return found


def test_every_hardware_exception_is_a_hardware_error() -> None:
    exceptions = hardware_exceptions()
    assert len(exceptions) >= 8  # the walk found them (ProfileError, FrameError, ...)
    strays = [e.__qualname__ for e in exceptions if not issubclass(e, HardwareError)]
    assert strays == [], f"derive these from hardware.errors.HardwareError: {strays}"
