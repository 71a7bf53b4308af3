"""One WebSocket connection of ``ecarte serve``: requests answered in order, events from
other seats sent as they come, within bounds that no client can escape.

- **What waits to be sent is bounded** (:data:`MAX_QUEUED_BYTES` per connection, the
  message being sent included). A client that does not read its messages is closed with
  1008 and nothing more is computed or queued for it.
- **A peer's share.** All the connections from one address (one peer) may hold
  :data:`CONNECTIONS_PER_ADDRESS` connections and run :data:`RUNNING_PER_ADDRESS`
  requests at once in the worker threads; while the peer's CPU budget is overdrawn, its
  next request waits. So one address, however many connections it opens, takes at most
  that share of the workers and of the CPU, and an honest player elsewhere keeps their
  latency.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ecarte._public import api_dir
from ecarte.protocol.session import Session
from ecarte.protocol.wire import MAX_MESSAGE_BYTES, ProtocolError, error_response, to_line

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from ecarte.protocol.clients import Client

__all__ = [
    "CONNECTIONS_PER_ADDRESS",
    "MAX_QUEUED_BYTES",
    "RUNNING_PER_ADDRESS",
    "WORKERS",
    "Scheduler",
    "converse",
]
__dir__ = api_dir(globals())

#: Bytes a connection may have waiting to be sent (two of the longest answers).
MAX_QUEUED_BYTES: Final = 16 * MAX_MESSAGE_BYTES
#: Open connections from one address.
CONNECTIONS_PER_ADDRESS: Final = 64
#: Requests of one address that run at once (the others wait their turn).
RUNNING_PER_ADDRESS: Final = 2
#: Worker threads of an app (every request runs there, off the event loop: while one
#: waits on a socket or in native code, another runs).
WORKERS: Final = 64

T = TypeVar("T")


class Gate:
    """One peer's connections and running requests, on the server's event loop."""

    def __init__(self) -> None:
        self.connections = 0
        self.running = asyncio.Semaphore(RUNNING_PER_ADDRESS)


class Scheduler:
    """Runs the requests of every connection of an app in its worker threads, each peer
    within its share: the gates of the peers with an open connection, by peer key."""

    def __init__(self) -> None:
        self._gates: dict[str, Gate] = {}
        self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="ecarte-serve")

    def enter(self, key: str) -> Gate:
        gate = self._gates.setdefault(key, Gate())
        gate.connections += 1
        return gate

    def leave(self, key: str) -> None:
        gate = self._gates[key]
        gate.connections -= 1
        if not gate.connections:
            del self._gates[key]

    async def answer(self, gate: Gate, session: Session, client: Client, text: str) -> str:
        """The answer line to one request, run in a worker thread in the peer's turn,
        once its CPU budget allows."""
        async with gate.running:
            cpu = client.peer.cpu
            wait = 0.0 if cpu is None else cpu.wait()
            if wait:
                await asyncio.sleep(wait)
            return await self.run(session.handle_line, client, text)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._workers, work, *args)


async def converse(websocket: WebSocket, session: Session, scheduler: Scheduler) -> None:
    """Serves one WebSocket until it closes. Text frames only, each at most the
    protocol's message size."""
    from starlette.websockets import WebSocketDisconnect

    loop = asyncio.get_running_loop()
    address = websocket.client.host if websocket.client else None
    queue: asyncio.Queue[str] = asyncio.Queue()
    unsent = 0
    overflow = asyncio.Event()

    def offer(line: str) -> None:  # on the loop
        nonlocal unsent
        if overflow.is_set():
            return
        if unsent + len(line) > MAX_QUEUED_BYTES:
            overflow.set()
            return
        unsent += len(line)
        queue.put_nowait(line)

    def notify(event: dict[str, Any]) -> None:  # from a worker thread
        loop.call_soon_threadsafe(offer, to_line(event))

    async def sender() -> None:
        nonlocal unsent
        while True:
            line = await queue.get()
            await websocket.send_text(line)
            unsent -= len(line)

    async def receiver() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                line = to_line(error_response(ProtocolError("send text frames of JSON")))
            elif len(text) > MAX_MESSAGE_BYTES:
                line = to_line(error_response(ProtocolError("the message is too long")))
            else:
                line = await scheduler.answer(gate, session, client, text)
            offer(line)
            if overflow.is_set():
                return

    client = session.connect(address, notify)
    gate = scheduler.enter(client.peer.key)
    try:
        await websocket.accept()
        if gate.connections > CONNECTIONS_PER_ADDRESS:
            await websocket.close(1013, "too many connections from this address: try later")
            return
        tasks = [asyncio.create_task(sender()), asyncio.create_task(receiver())]
        overflowing = asyncio.create_task(overflow.wait())
        await asyncio.wait([*tasks, overflowing], return_when=asyncio.FIRST_COMPLETED)
        for task in (*tasks, overflowing):
            task.cancel()
        await asyncio.gather(*tasks, overflowing, return_exceptions=True)
        if overflow.is_set():
            # The seats are freed at once; the connection's slot only once it is gone
            # (the close frame waits behind what the client has not read).
            await scheduler.run(session.disconnect, client)
            await websocket.close(1008, "too many unread messages: read what you are sent")
    except (OSError, RuntimeError, WebSocketDisconnect):
        pass  # the client went away: nothing to tell it
    finally:
        try:  # in a worker: telling the others at its tables waits for each game's lock
            await scheduler.run(session.disconnect, client)
        finally:
            scheduler.leave(client.peer.key)
