"""Discord's limits, once: what a message, an embed, a command and an option may hold.

Discord refuses a message over one whole with HTTP 400, so every output is cut or split to fit
these. The source is Discord's developer documentation of the Message, Embed and Application Command
objects.
"""

from __future__ import annotations

MESSAGE_CONTENT = 2000
"""Characters of a message's text."""
EMBEDS_PER_MESSAGE = 10
"""Embeds one message may carry, together within `EMBED_TOTAL`."""
FILES_PER_MESSAGE = 10
"""Attachments one message may carry."""
COMPONENT_ROWS = 5
"""Action rows of one message."""

EMBED_TITLE = 256
"""Characters of an embed's title."""
EMBED_DESCRIPTION = 4096
"""Characters of an embed's description."""
FIELD_NAME = 256
"""Characters of an embed field's name."""
FIELD_VALUE = 1024
"""Characters of an embed field's value."""
FIELDS_PER_EMBED = 25
"""Fields of one embed."""
FOOTER_TEXT = 2048
"""Characters of an embed's footer."""
AUTHOR_NAME = 256
"""Characters of an embed author's name."""
EMBED_TOTAL = 6000
"""Characters of a message's embeds together: titles, descriptions, field names and
values, footers and author names."""

CHOICES = 25
"""Choices an autocomplete answer or an option's fixed choices may offer."""
CHOICE_NAME = 100
"""Characters of a choice's name, and of a string choice's value."""
COMMAND_NAME = 32
"""Characters of a command's, group's or option's name, in lower case with `-` and `_`."""
COMMAND_DESCRIPTION = 100
"""Characters of a command's or option's description, at least 1."""
OPTIONS = 25
"""Options or subcommands of one command or group."""
COMMAND_TEXT = 4000
"""Characters of a command's names, descriptions and choices together."""
STRING_OPTION = 6000
"""Characters of a string option's value."""
INTEGER_OPTION = 2**53
"""An integer option's value lies between -2⁵³ and 2⁵³.

Those are exactly representable in the JavaScript clients' doubles.
"""

BUTTON_LABEL = 80
"""Characters of a button's label."""
CUSTOM_ID = 100
"""Characters of a component's custom id."""
