"""Kattis problem packages."""
