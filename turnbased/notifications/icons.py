"""Draw the installable site's icons (static/icons/) from the favicon's design (static/favicon.svg).

    python -m turnbased.notifications.icons   # draws them again after the design changes

The favicon is a pawn on a wine-red tile, drawn on a 32-unit grid; each icon draws the same shapes,
four times larger and scaled down, so their edges are smooth. A "maskable" icon fills its square and
keeps the pawn inside the middle 80 % (the launcher crops it to its own shape); the Apple one fills its
square too (iOS rounds the corners itself).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

FOLDER = Path(__file__).resolve().parents[2] / "static" / "icons"
ACCENT, WHITE = (138, 43, 59, 255), (255, 255, 255, 255)
SUPERSAMPLE = 4
# (file, size in pixels, round corners, how much of the square the favicon's 32 units take)
ICONS = [("icon-192.png", 192, True, 1.0), ("icon-512.png", 512, True, 1.0),
         ("icon-maskable-512.png", 512, False, 0.8), ("apple-touch-icon.png", 180, False, 0.9)]


def draw(size: int, rounded: bool, scale: float) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    canvas = ImageDraw.Draw(image)
    if rounded:
        canvas.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 7 / 32, fill=ACCENT)
    else:
        canvas.rectangle((0, 0, big - 1, big - 1), fill=ACCENT)
    unit = big * scale / 32
    offset = big * (1 - scale) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return offset + x * unit, offset + y * unit

    canvas.ellipse((*at(11, 5.5), *at(21, 15.5)), fill=WHITE)  # the head: circle at 16,10.5, radius 5
    canvas.polygon([at(11, 27), at(13.5, 15), at(18.5, 15), at(21, 27)], fill=WHITE)  # the body
    canvas.rounded_rectangle((*at(8, 25), *at(24, 28)), radius=1.5 * unit, fill=WHITE)  # the base
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, size, rounded, scale in ICONS:
        draw(size, rounded, scale).save(FOLDER / name, optimize=True)
        print(FOLDER / name)


if __name__ == "__main__":
    main()
