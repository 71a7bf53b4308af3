"""``ecarte serve``: the web app, one more client of the engine protocol.

The server holds every game (:class:`ecarte.protocol.Session`, with no open games: a browser
plays against agents, watches them, replays records it gives, or sits at a banking table)
and speaks the protocol over a WebSocket at ``/ws``; the page (``static/``: HTML, CSS and
JavaScript, no build step, nothing from the network) is just a client of it. Needs the
``web`` extra: ``pip install 'ecarte[web]'``.
"""

from __future__ import annotations

from ecarte._public import api_dir
from ecarte.web.app import MAX_CONNECTIONS, WEB_LIMITS, create_app, serve

__all__ = ["MAX_CONNECTIONS", "WEB_LIMITS", "create_app", "serve"]
__dir__ = api_dir(globals())
