"""The coach's report (`studdraw report`): one self-contained HTML page of a player's stats per
game, leaks with charts and example hands (readable, and replayable as PHH), and results per
currency, to send to a student.

`analyse` computes the figures, `gather` adds the example hands (the slow part: each is read
back from the store, its text found in its file or rendered, its PHH written), `render` writes
the page.
"""

from .gather import Analysis, CoachReport, ExampleHand, analyse, gather
from .page import render

__all__ = ["Analysis", "CoachReport", "ExampleHand", "analyse", "gather", "render"]
