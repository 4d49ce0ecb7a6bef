"""A built-in problem written out as a Kattis problem package (`gridjudge export`)."""
