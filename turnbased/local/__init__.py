"""Running the service on one machine: ``python -m turnbased.local run|test|serve|...`` (``commands.py``), the
embedded PostgreSQL and Redis, the supervised processes, the data folder and its backups."""
