"""Mutation testing: deliberate bugs planted one at a time in the engines and the doors, to find what no test
holds (``python -m mutants``, ``make mutants``; docs/developing.md, "Mutation testing")."""
