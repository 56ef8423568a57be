"""`python -m rulelang.cli`: the command line, as the `rulelang` script runs it."""
import sys

from rulelang.cli import main

sys.exit(main())
