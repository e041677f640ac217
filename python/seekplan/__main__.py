"""`python -m seekplan` runs the CLI."""

from seekplan.cli import main

main()
