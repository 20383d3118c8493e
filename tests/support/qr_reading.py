"""Reading QR codes back with a decoder (zxing-cpp), as a phone's camera would: from the text a
terminal shows (half blocks, each character two modules high) or from a screenshot's pixels.

zxing-cpp reads a grayscale image from any buffer of bytes; the screenshot is Playwright's PNG,
decoded here with zlib alone (8 bits a channel, not interlaced: what Chromium writes)."""

from __future__ import annotations

import re
import struct
import zlib

import zxingcpp

LIGHT, DARK = 255, 0
SCALE = 4
"""Pixels a module takes each way in the image made from text."""
MARGIN = 4
"""Modules of dark around the text's code: a terminal's background."""
UPPER, LOWER = "█▀", "█▄"
"""The characters whose upper, and lower, half is light."""


def decoded(pixels: bytes, width: int, height: int) -> list[str]:
    image = memoryview(pixels).cast("B", (height, width))
    return [code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.QRCode)]


QUIET_ROW = re.compile("█{21,}")
"""The light quiet zone over a code: a run of full blocks as wide as the smallest symbol."""


def code_on(screen: str) -> list[str]:
    """The rows of characters of the first QR code drawn on a screen of text, from its quiet
    zone's top row down; none when there is none."""
    lines = screen.splitlines()
    for y, line in enumerate(lines):
        if top := QUIET_ROW.search(line):
            start, end = top.span()
            rows = []
            for below in lines[y:]:
                part = below[start:end]
                if len(part) < end - start or set(part) - set("█▀▄ "):
                    break
                rows.append(part)
            return rows
    return []


def read_text(rows: list[str]) -> list[str]:
    """The texts of the QR codes drawn in these rows of characters."""
    if not rows:
        return []
    columns = max(len(row) for row in rows) + 2 * MARGIN
    modules = 2 * len(rows) + 2 * MARGIN
    image = bytearray([DARK]) * (columns * SCALE * modules * SCALE)
    for y, row in enumerate(rows):
        for x, character in enumerate(row):
            for half, halves in enumerate((UPPER, LOWER)):
                if character not in halves:
                    continue
                top, left = (MARGIN + 2 * y + half) * SCALE, (MARGIN + x) * SCALE
                for line in range(top, top + SCALE):
                    start = line * columns * SCALE + left
                    image[start:start + SCALE] = bytes([LIGHT]) * SCALE
    return decoded(bytes(image), columns * SCALE, modules * SCALE)


def read_png(png: bytes) -> list[str]:
    """The texts of the QR codes in a PNG screenshot."""
    width, height, pixels = grey_pixels(png)
    return decoded(pixels, width, height)


def grey_pixels(png: bytes) -> tuple[int, int, bytes]:
    """A PNG's size and its pixels in grey, one byte each."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, data, header = 8, b"", None
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    width, height, depth, colour, _, _, interlaced = header
    assert depth == 8 and not interlaced and colour in (0, 2, 4, 6), header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    stride = width * channels
    raw, rows, previous = zlib.decompress(data), [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        unfilter(kind, line, previous, channels)
        rows.append(line)
        previous = line
    grey = bytearray(width * height)
    for y, line in enumerate(rows):
        for x in range(width):
            pixel = line[x * channels:x * channels + min(channels, 3)]
            grey[y * width + x] = sum(pixel) // len(pixel)
    return width, height, bytes(grey)


def unfilter(kind: int, line: bytearray, previous: bytearray, channels: int) -> None:
    """Undo a PNG row's filter in place (the five of the standard)."""
    for i in range(len(line)):
        left = line[i - channels] if i >= channels else 0
        up = previous[i]
        upper_left = previous[i - channels] if i >= channels else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            guess = left + up - upper_left
            near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                       (abs(guess - upper_left), 2, upper_left))[2]
            line[i] = (line[i] + near) & 0xFF
