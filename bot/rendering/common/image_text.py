"""Text on the league's PNG images, in the DejaVu Sans fonts shipped in `fonts/`.

A system font is never used, so the same facts give the same bytes. Text is laid out by FreeType's
basic layout.

DejaVu draws Latin with Extended-A and B, Greek, Cyrillic, ½ and the dashes. A character it lacks,
such as CJK or emoji, and right-to-left letters, which basic layout can neither order nor join, are
drawn as a box holding the character's Unicode code in hex, as GNU Unifont does. A big CJK font
would outweigh the bot, and a silent `?` would make every such club look alike, while boxes keep
each name distinct. The images say so in `CODE_NOTE`, and the embed and CSV stay the readable form
of such a name.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"
SANS = FONTS / "DejaVuSans.ttf"
CONDENSED = FONTS / "DejaVuSansCondensed.ttf"
ELLIPSIS = "…"
CODE_NOTE = "Boxed hex codes: letters the image font lacks (the text embed shows them)"
"""The note under a table whose texts needed a code box."""
RIGHT_TO_LEFT = frozenset({"R", "AL"})


@cache
def font(size: int, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans or Sans Condensed at `size` pixels, with the basic layout everywhere.

    A machine with Raqm thus draws the same pixels as one without.
    """
    path = CONDENSED if condensed else SANS
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def _mask(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((8, 8), text, font=face, fill=255)
    return image.tobytes()


@cache
def _in_font(char: str, condensed: bool) -> bool:
    """Whether that DejaVu face has `char`. A missing one draws the shared .notdef box."""
    probe = font(20, condensed)
    return _mask(probe, char) != _mask(probe, "\uffff")


@cache
def drawn(char: str) -> bool:
    """Whether the images draw `char` as a letter, which needs both faces to have it left to right.

    Otherwise it is drawn as a code box.
    """
    if char.isspace():
        return True
    if unicodedata.bidirectional(char) in RIGHT_TO_LEFT:
        return False
    return _in_font(char, False) and _in_font(char, True)


def _dropped(char: str) -> bool:
    """Invisible joiners and variation selectors, as in emoji sequences, draw nothing."""
    return unicodedata.category(char) == "Cf" or 0xFE00 <= ord(char) <= 0xFE0F


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """`text` as the images draw it.

    It is composed to NFC, control characters become spaces and joiners are dropped. A letter the
    fonts lack is spelled by its compatibility form if they have that, so full-width `Ａ` becomes
    `A`. Otherwise it is kept for a code box.
    """
    out = []
    for char in unicodedata.normalize("NFC", text):
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif _dropped(char):
            continue
        elif drawn(char):
            out.append(char)
        else:
            folded = "".join(
                c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
            )
            out.append(folded if folded and all(map(drawn, folded)) else char)
    return "".join(out)


def has_code_boxes(text: str) -> bool:
    """Whether drawing `text` needs a code box, so the image should carry `CODE_NOTE`."""
    return not all(map(drawn, drawable(text)))


def hex_code(char: str) -> str:
    """The code a box shows: 4 hex digits in the Basic Multilingual Plane, else 6."""
    return f"{ord(char):04X}" if ord(char) <= 0xFFFF else f"{ord(char):06X}"


class Pen:
    """Draws one size of text: measures and draws runs of letters and code boxes."""

    def __init__(self, size: int, condensed: bool = False) -> None:
        self.size = size
        self.font = font(size, condensed)
        self.digits = font(max(6, round(size * 0.45)), True)
        self.cap = self.font.getbbox("H", anchor="ls")[1] * -1
        """The height of a capital above the baseline, for centring in a row."""

    def _pieces(self, text: str) -> list[str]:
        """Runs of drawn letters, and each character for a code box on its own."""
        pieces: list[str] = []
        for char in drawable(text):
            if not drawn(char) or not pieces or not drawn(pieces[-1][-1]):
                pieces.append(char)
            else:
                pieces[-1] += char
        return pieces

    def _box_width(self, char: str) -> float:
        columns = len(hex_code(char)) // 2
        return columns * self.digits.getlength("0") + 0.3 * self.size

    def _piece_width(self, piece: str) -> float:
        if not drawn(piece[0]):
            return self._box_width(piece)
        return self.font.getlength(piece)

    def width(self, text: str) -> int:
        """The width `text` takes, in whole pixels."""
        return round(sum(self._piece_width(p) for p in self._pieces(text)))

    def fit(self, text: str, room: int) -> str:
        """`text`, or its longest start with `…` that fits in `room` pixels."""
        text = drawable(text)
        if self.width(text) <= room:
            return text
        while text and self.width(text.rstrip() + ELLIPSIS) > room:
            text = text[:-1]
        return text.rstrip() + ELLIPSIS

    def _draw_box(
        self, canvas: ImageDraw.ImageDraw, x: float, baseline: float, char: str, fill: str
    ) -> None:
        """A thin box from the cap height to below the baseline, its code in two rows."""
        code = hex_code(char)
        half = len(code) // 2
        left, right = (
            round(x + 0.08 * self.size),
            round(x + self._box_width(char) - 0.08 * self.size),
        )
        top, bottom = round(baseline - 0.86 * self.size), round(baseline + 0.16 * self.size)
        canvas.rectangle((left, top, right - 1, bottom - 1), outline=fill)
        middle = (left + right) / 2
        row = (bottom - top) / 2
        for number, digits in enumerate((code[:half], code[half:])):
            y = top + row * (number + 0.5)
            canvas.text((middle, y), digits, font=self.digits, fill=fill, anchor="mm")

    def draw(
        self, canvas: ImageDraw.ImageDraw, x: float, baseline: float, text: str, fill: str
    ) -> None:
        """Draw `text` from `x` on `baseline`."""
        for piece in self._pieces(text):
            if drawn(piece[0]):
                canvas.text((x, baseline), piece, font=self.font, fill=fill, anchor="ls")
            else:
                self._draw_box(canvas, x, baseline, piece, fill)
            x += self._piece_width(piece)

    def draw_in(
        self,
        canvas: ImageDraw.ImageDraw,
        box: tuple[int, int, int, int],
        text: str,
        fill: str,
        align: str = "left",
    ) -> None:
        """Draws `text` vertically centred in `box`, aligned left, right or centre within it.

        `box` is (left, top, right, bottom).
        """
        left, top, right, bottom = box
        width = self.width(text)
        if align == "right":
            x = right - width
        elif align == "centre":
            x = left + (right - left - width) // 2
        else:
            x = left
        self.draw(canvas, x, top + (bottom - top + self.cap) // 2, text, fill)


def png_bytes(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """The image as PNG with no metadata, no time and no text chunks, so the same pixels give the
    same bytes.

    zlib level 1 takes half the encoding time of level 6 for about 9% more bytes. With a `palette`,
    a "P" image from `image_table.theme_palette`, each pixel is first mapped to its nearest palette
    colour without dithering. PNG then skips the per-row filtering of RGB, which saves a fifth of
    the encoding time for a big image such as the tour's bracket, and half the bytes.
    """
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()
