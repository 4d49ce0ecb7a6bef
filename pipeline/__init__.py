"""gridjudge: mass grading of grid-puzzle problems on Ray."""

__version__ = "0.1.0"
