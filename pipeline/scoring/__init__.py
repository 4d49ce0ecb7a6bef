"""Scores of a run: a scoring policy (groups of families, points, an aggregation), the
gradebook computed from the results parquet, per-submission feedback files."""
