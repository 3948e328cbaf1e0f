"""Draws the Teams app icons: color.png (192x192, full colour) and outline.png (32x32, white on
transparent, as Teams requires). Run from anywhere: `python manifest/teams/draw_icons.py`."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
ACCENT = (31, 78, 121, 255)  # the manifest's accentColor, #1F4E79
WHITE = (255, 255, 255, 255)
GOLD = (242, 181, 61, 255)


def _book(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], width: int,
          fill: tuple[int, int, int, int] | None) -> None:
    """An open book: two pages meeting at a spine, seen from the front."""
    left, top, right, bottom = box
    mid = (left + right) / 2
    sag = (bottom - top) * 0.12
    left_page = [(left, top + sag), (mid, top + 2 * sag), (mid, bottom), (left, bottom - sag)]
    right_page = [(mid, top + 2 * sag), (right, top + sag), (right, bottom - sag), (mid, bottom)]
    for page in (left_page, right_page):
        draw.polygon(page, fill=fill, outline=WHITE, width=width)


def draw_color(size: int = 192) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 6, fill=ACCENT)
    _book(draw, (size * 0.17, size * 0.26, size * 0.83, size * 0.78), width=max(2, size // 48), fill=ACCENT)
    for i in range(3):  # lines of text on the left page
        y = size * (0.42 + 0.09 * i)
        draw.line((size * 0.24, y, size * 0.44, y + size * 0.02), fill=WHITE, width=max(2, size // 64))
    # a citation mark on the right page: the product's promise
    r = size * 0.1
    cx, cy = size * 0.66, size * 0.5
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD)
    draw.line((cx - r * 0.45, cy, cx - r * 0.1, cy + r * 0.4), fill=ACCENT, width=max(2, size // 40))
    draw.line((cx - r * 0.1, cy + r * 0.4, cx + r * 0.5, cy - r * 0.4), fill=ACCENT, width=max(2, size // 40))
    return image


def draw_outline(size: int = 32) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _book(draw, (2, 6, size - 3, size - 5), width=2, fill=None)
    return image


if __name__ == "__main__":
    draw_color().save(HERE / "color.png")
    draw_outline().save(HERE / "outline.png")
    print(f"wrote {HERE / 'color.png'} and {HERE / 'outline.png'}")
