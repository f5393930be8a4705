"""The match protocol, a game's side of it (docs/your-own-game.md): what a game process
asks of a game, and the reply line it writes.

:mod:`playtune.games` imports :mod:`playtune.worker` (to know whether this process is
a game process, and how another process names a game), so the worker does not import
``games``: it knows a game by :class:`ServedGame`, which :class:`playtune.Game`
subclasses, and asks it through that class's methods. Both modules import this one.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Mapping


class ServedGame:
    """What a game process serves: a game that describes itself and answers a match
    request. :class:`playtune.Game` is the one kind and says how (its description
    and its ``dispatch`` in :mod:`playtune.games`)."""

    def _playtune_description(self) -> str:
        """The game's description, as a game description file would hold it (RON):
        what ``python -m playtune.worker describe REF`` writes."""
        raise NotImplementedError

    def _playtune_answer(self, match: Dict[str, Any]) -> Mapping[str, Any]:
        """Plays a match request and says how it went: the reply's body."""
        raise NotImplementedError


def reply(request_id: Any, body: Mapping[str, Any]) -> str:
    """A reply line, without its newline: ``body`` with the id of the request it
    answers (the id the request came with, over any ``id`` in ``body``), which
    playtune matches it to its request by."""
    line = dict(body)
    line["id"] = request_id
    return json.dumps(line)
