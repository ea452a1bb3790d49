"""Serving a real app with uvicorn on a free loopback port, in a thread, for browser tests."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn


class Served:
    def __init__(self, app: Any, background: Callable[[], Any] | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.loop = asyncio.new_event_loop()
        self._background = background
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def main() -> None:
            background = None
            if self._background is not None:
                background = asyncio.create_task(self._background())
            try:
                await self.server.serve()
            finally:  # the service runs forever: stop it with the server, not at join's timeout
                if background is not None:
                    background.cancel()
                    await asyncio.gather(background, return_exceptions=True)

        self.loop.run_until_complete(main())

    def call(self, function: Callable[[], Any]) -> Any:
        """Run ``function`` on the server's loop (services are not thread-safe) and wait."""
        future = asyncio.run_coroutine_threadsafe(_as_coroutine(function), self.loop)
        return future.result(10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


async def _as_coroutine(function: Callable[[], Any]) -> Any:
    return function()
