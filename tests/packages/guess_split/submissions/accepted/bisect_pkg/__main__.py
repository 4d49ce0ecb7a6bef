# the package's entry point (the format's default for Python: __main__.py)
from search import play

play(1, 1000)
