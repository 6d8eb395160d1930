import sys

from mutants.sweep import main

sys.exit(main(sys.argv[1:]))
