"""A create request made under an ``Idempotency-Key``, kept so that the same request sent again is answered
the same without doing anything again (docs/api.md, "Sending a request again").

Neither the key nor the answer is kept readable: the row is found by an HMAC of the account and the key,
and the answer (which may hold a new token's key or a webhook's secret) is sealed with a key derived from
the client's own key, which only the client holds. A copy of the database alone opens no answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotentRequest(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key_digest = models.CharField(max_length=64, help_text="HMAC of the account and the Idempotency-Key.")
    request_digest = models.CharField(max_length=64, help_text="HMAC of the key, the method, the path and the body.")
    status_code = models.PositiveSmallIntegerField(default=0, help_text="The first answer's status.")
    sealed_answer = models.BinaryField(default=b"", help_text="The first answer (body, Location), sealed.")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            # Also what makes a second request with the key wait while the first is in flight: its INSERT
            # blocks on this index until the first commits (then it replays) or rolls back (then it runs).
            models.UniqueConstraint(fields=["user", "key_digest"], name="idempotent_request_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key_digest[:12]} {self.status_code}"
