"""The map picture: positions, orders and results drawn on a map of Europe.

``render(position, orders=..., results=...)`` returns SVG text; :mod:`.png` turns it into
PNG, :mod:`.flipbook` draws a whole game as an HTML page, :mod:`.sheets` prints order
sheets and a blank map pad.
"""

from realpolitik.render.drawing import Drawing, drawing_for, load_drawing
from realpolitik.render.svg import render

__all__ = ["Drawing", "drawing_for", "load_drawing", "render"]
