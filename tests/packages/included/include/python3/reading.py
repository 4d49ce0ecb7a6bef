"""Reads the one integer of the input (a helper every Python submission may import)."""

import sys


def read_n() -> int:
    return int(sys.stdin.read())
