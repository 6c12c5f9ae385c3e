"""The UIDs of the events of Arbiter's .ics files.

A UID is a name-based UUID of the guild and the records' ids, such as a season's id and a match's
key, written `…@arbiter`. Two servers on one site never share one, since the guild is part of it.
A rename keeps every UID, since no name is part of it. The guild id goes only into the hash, so no
UID shows it. The UID is made only of the characters RFC 5545 expects.
"""

from __future__ import annotations

import uuid

UID_SPACE = uuid.UUID("9b3f1f56-6c7e-4a0e-9c57-3f1d7a0b2c41")
"""The namespace of the events' name-based UUIDs. Any fixed UUID would do, and this is Arbiter's
own.
"""


def calendar_uid(guild: int, kind: str, *ids: int | str) -> str:
    """The stable UID of the event the ids name in `guild`'s records.

    `kind`, such as `match` or `session`, keeps a league's UIDs apart from a tour's.
    """
    name = "/".join(str(part) for part in (guild, kind, *ids))
    return f"{uuid.uuid5(UID_SPACE, name)}@arbiter"
