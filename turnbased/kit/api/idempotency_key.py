"""The ``Idempotency-Key`` header as the API states it: its name, the shape of a key, and the header a replay
carries. The schema describes it from here; ``turnbased.idempotency`` (the app that keeps the keys) checks keys
against the same pattern, so the two cannot drift apart."""

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
# Visible ASCII, as a UUID or any name a client makes; 100 characters, as a move's idempotency_key takes.
KEY_PATTERN = r"^[!-~]{1,100}$"
