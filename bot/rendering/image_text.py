"""Text on the league's PNG images, in Pillow's bundled font (no system font, so the same
facts give the same bytes on every machine). That font has ASCII and a few marks only: ½ and
dashes are drawn here, and other letters are folded to ASCII (É → E, else `?`)."""

from __future__ import annotations

import io
import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

ELLIPSIS = "…"
FRACTION_SLASH = "⁄"
DASHES = {"–": 0.45, "−": 0.5, "—": 0.9}
"""Dashes the bundled font lacks, drawn as a bar this many ems long."""
SPECIALS = frozenset({"½", *DASHES})
LATIN = {"ß": "ss", "Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "Ł": "L"}
LATIN |= {"ł": "l", "Đ": "D", "đ": "d", "Þ": "Th", "þ": "th", "ı": "i"}
"""Letters that Unicode does not decompose, spelled in ASCII."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font (Aileron, basic layout: no Raqm) at `size` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Pillow needs FreeType to render the league's images")
    return loaded


@cache
def _has_glyph(char: str) -> bool:
    """Whether the bundled font draws `char` (its missing glyph is one shared box)."""
    probe = font(20)
    return bool(char.isspace()) or _mask(probe, char) != _mask(probe, "\uffff")


def _mask(face: ImageFont.FreeTypeFont, text: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((8, 8), text, font=face, fill=255)
    return image.tobytes()


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """`text` in characters the images can draw: accents dropped (NFKD), ½ and dashes kept,
    anything else `?`; control characters become spaces."""
    out = []
    for char in text:
        if char in SPECIALS or (" " <= char <= "~"):
            out.append(char)
            continue
        if unicodedata.category(char).startswith("C"):
            out.append(" ")
            continue
        folded = LATIN.get(char) or "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        if folded and all(c in SPECIALS or _has_glyph(c) for c in folded):
            out.append(folded)
        else:
            out.append("?")
    return "".join(out)


class Pen:
    """Draws one size of text: measures and draws runs with ½ and dashes made by hand."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.font = font(size)
        self.small = font(max(8, round(size * 0.62)))
        self.cap = self.font.getbbox("H", anchor="ls")[1] * -1
        """The height of a capital above the baseline (for centring in a row)."""

    def _pieces(self, text: str) -> list[str]:
        pieces: list[str] = []
        for char in drawable(text):
            if char in SPECIALS or not pieces or pieces[-1] in SPECIALS:
                pieces.append(char)
            else:
                pieces[-1] += char
        return pieces

    def _half_widths(self) -> tuple[float, float, float]:
        one = self.small.getlength("1")
        slash = self.font.getlength(FRACTION_SLASH) - 0.3 * self.size
        return one, slash, self.small.getlength("2")

    def _piece_width(self, piece: str) -> float:
        if piece == "½":
            return sum(self._half_widths())
        if piece in DASHES:
            return DASHES[piece] * self.size + 0.16 * self.size
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

    def draw(
        self, canvas: ImageDraw.ImageDraw, x: float, baseline: float, text: str, fill: str
    ) -> None:
        """Draw `text` from `x` on `baseline`."""
        for piece in self._pieces(text):
            if piece == "½":
                one, slash, _ = self._half_widths()
                raised = baseline - 0.42 * self.size
                canvas.text((x, raised), "1", font=self.small, fill=fill, anchor="ls")
                canvas.text(
                    (x + one - 0.15 * self.size, baseline),
                    FRACTION_SLASH,
                    font=self.font,
                    fill=fill,
                    anchor="ls",
                )
                canvas.text(
                    (x + one + slash, baseline), "2", font=self.small, fill=fill, anchor="ls"
                )
            elif piece in DASHES:
                length = DASHES[piece] * self.size
                middle = baseline - 0.36 * self.size
                thick = max(1, round(self.size / 14))
                left = x + 0.08 * self.size
                top = round(middle)
                canvas.rectangle(
                    (round(left), top, round(left + length) - 1, top + thick - 1), fill=fill
                )
            else:
                canvas.text((x, baseline), piece, font=self.font, fill=fill, anchor="ls")
            x += self._piece_width(piece)

    def draw_in(
        self,
        canvas: ImageDraw.ImageDraw,
        box: tuple[int, int, int, int],
        text: str,
        fill: str,
        align: str = "left",
    ) -> None:
        """Draw `text` vertically centred in `box` (left, top, right, bottom), aligned
        left, right or centre within it."""
        left, top, right, bottom = box
        width = self.width(text)
        if align == "right":
            x = right - width
        elif align == "centre":
            x = left + (right - left - width) // 2
        else:
            x = left
        self.draw(canvas, x, top + (bottom - top + self.cap) // 2, text, fill)


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG with no metadata (no time, no text chunks): same pixels, same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()
