"""``ecarte engine``: the protocol over standard input and output, one JSON object a line.

Requests are answered in order, one line each, flushed at once; an empty line is skipped;
end of input or ``quit`` ends the process with status 0.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

from ecarte._public import api_dir
from ecarte.protocol.session import Client, Session
from ecarte.protocol.wire import MAX_MESSAGE_BYTES, ProtocolError, error_response, to_line

__all__ = ["serve_stdio"]
__dir__ = api_dir(globals())


def serve_stdio(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> None:
    """Answers every request line of ``stdin`` (bytes) on ``stdout`` until the end or
    ``quit``. A line longer than the limit is skipped to its end and refused."""
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout
    session, client = Session(), Client()
    while True:
        line = source.readline(MAX_MESSAGE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_MESSAGE_BYTES and not line.endswith(b"\n"):
            while True:  # skip the rest of the over-long line
                rest = source.readline(MAX_MESSAGE_BYTES)
                if not rest or rest.endswith(b"\n"):
                    break
            answer = to_line(
                error_response(
                    ProtocolError(f"the message is longer than {MAX_MESSAGE_BYTES} bytes")
                )
            )
        elif not line.strip():
            continue
        else:
            response = session.handle(client, line)
            answer = to_line(response)
            if response.get("ok") and response["result"] == {"bye": True}:
                sink.write(answer + "\n")
                sink.flush()
                return
        sink.write(answer + "\n")
        sink.flush()
