import sys

from turnbased.mutants.sweep import main

sys.exit(main(sys.argv[1:]))
