"""`python -m rulelang`: the `rulelang` command, for where the script is not on the PATH."""
import sys

from rulelang.cli import main

sys.exit(main())
