"""The kit every layer shares, in rooms (docs/design.md, "Layers"): ``api/`` (the API's shapes and refusals),
``http/`` (what guards a request), ``errors.py`` (the refusals services raise), ``db/`` (the database helpers
and the outbox that wakes the workers) and ``texts/`` (catalogs, words, formats, what is text)."""
