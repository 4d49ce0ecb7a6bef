"""`python -m pipeline.cli`: the gridjudge command, run from this checkout."""

from pipeline.cli.app import main

main()
