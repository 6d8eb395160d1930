"""What an email provider says about a sender's SPF and DKIM, read from its inbound webhook.

The reply address is the password of email play: anyone can write any From
header. A provider that receives mail for us checks SPF and DKIM on arrival;
when it says they failed for the sender's domain, the message did not come
from that player, and it is dropped unanswered.

Only the webhook path reads verdicts. Mail arriving at our own SMTP server
passed no one who checked it, so any verdict header in it was written by
the sender. Even on the webhook path a verdict can only drop a message,
never admit one: a forger who writes ``dkim=pass`` gains nothing.

Where verdicts come from (django-anymail passes them on, but does not
normalize them):

- ``Authentication-Results`` (RFC 8601), added on top of the message by the
  provider's receiving server: the topmost one, and others from the same
  server (same authserv-id), read with ``authres``.
- ``Received-SPF`` (RFC 7208), the topmost one (Postmark lists it in the
  webhook's ``Headers``).
- Provider fields outside the message: SendGrid's ``SPF`` and ``dkim`` form
  fields, Amazon SES's ``receipt.spfVerdict``, Mailgun's ``X-Mailgun-Spf``.
"""

from __future__ import annotations

import logging
import re
from email.message import Message

import authres

from turnbased.mail.models import InboundDropReason

logger = logging.getLogger(__name__)

# A provider's results header names a few checks; a longer one is not worth parsing.
MAX_RESULTS_CHARS = 4096
# A verdict is [method, result, domain]: lists, so it travels to the Celery worker as JSON.
Verdict = list[str]

_RECEIVED_SPF_FROM = re.compile(r"envelope-from\s*=\s*\"?<?([^\";>\s]+)", re.IGNORECASE)
_SENDGRID_DKIM = re.compile(r"@([^\s:,{}]+)\s*:\s*([a-z]+)", re.IGNORECASE)


def provider_verdicts(esp_name: str, esp_event, message: Message) -> list[Verdict]:
    """Return every SPF and DKIM verdict the provider gave for ``message``; never raises."""
    try:
        headers = _provider_headers(esp_name, esp_event, message)
        envelope_sender = getattr(message, "envelope_sender", None) or ""
        return [
            *_authentication_results(headers),
            *_received_spf(headers, envelope_sender),
            *_provider_fields(esp_name, esp_event, message, envelope_sender),
        ]
    except Exception:  # a verdict we cannot read is no verdict; the reply address still decides
        logger.warning("could not read the %s sender authentication verdicts", esp_name, exc_info=True)
        return []


def authentication_failure(verdicts: list[Verdict], sender: str) -> str | None:
    """Return the drop reason (SPF or DKIM failed) when the verdicts say the sender's domain failed, else None.

    DKIM failed when a signature of the sender's domain failed and none passed;
    SPF failed on a hard ``fail`` for that domain (a ``softfail`` is only a hint).
    """
    domain = sender.rpartition("@")[2].lower()
    if not domain:
        return None
    for method, failure in (("dkim", InboundDropReason.DKIM_FAILED), ("spf", InboundDropReason.SPF_FAILED)):
        # RFC 5451 spelled SPF's hard failure "hardfail".
        results = {"fail" if result == "hardfail" else result
                   for m, result, d in verdicts if m == method and _aligned(d, domain)}
        if "fail" in results and "pass" not in results:
            return failure
    return None


def _aligned(checked: str, sender_domain: str) -> bool:
    """Tell whether a verdict about ``checked`` speaks for the sender's domain (same domain or parent/child)."""
    checked = checked.lower().strip(".")
    return bool(checked) and (checked == sender_domain or sender_domain.endswith("." + checked)
                              or checked.endswith("." + sender_domain))


def _domain_of(address: str) -> str:
    return address.strip().strip("<>").rpartition("@")[2].lower()


def _provider_headers(esp_name: str, esp_event, message: Message) -> list[tuple[str, str]]:
    """Return the message's headers in order, top first (Postmark also lists its own in the webhook)."""
    headers = [(str(name), str(value)) for name, value in message.raw_items()]
    if esp_name == "Postmark" and isinstance(esp_event, dict):
        listed = [(str(h.get("Name", "")), str(h.get("Value", ""))) for h in esp_event.get("Headers") or []
                  if isinstance(h, dict)]
        headers = listed + headers
    return headers


def _authentication_results(headers: list[tuple[str, str]]) -> list[Verdict]:
    """Read the topmost Authentication-Results header and the others from the same server."""
    parsed = []
    for name, value in headers:
        if name.lower() != "authentication-results":
            continue
        try:
            if len(value) > MAX_RESULTS_CHARS:
                raise ValueError("too long to be a provider's")
            parsed.append(authres.AuthenticationResultsHeader.parse_value(_unfold(value)))
        except Exception:  # authres raises its own SyntaxError and friends on malformed headers
            if not parsed:
                return []  # the topmost one is unreadable: do not trust one further down instead
    if not parsed:
        return []
    server = parsed[0].authserv_id
    verdicts = []
    for header in parsed:
        if header.authserv_id != server:
            continue
        for result in header.results:
            method = str(result.method).lower()
            if method not in ("spf", "dkim"):
                continue
            domain = ""
            for prop in result.properties:
                key = f"{prop.type}.{prop.name}".lower()
                if method == "dkim" and key in ("header.d", "header.i"):
                    domain = _domain_of(str(prop.value)) if "@" in str(prop.value) else str(prop.value).lower()
                    if key == "header.d":
                        break
                elif method == "spf" and key in ("smtp.mailfrom", "smtp.from"):
                    domain = _domain_of(str(prop.value)) if "@" in str(prop.value) else str(prop.value).lower()
            verdicts.append([method, str(result.result).lower(), domain])
    return verdicts


def _received_spf(headers: list[tuple[str, str]], envelope_sender: str) -> list[Verdict]:
    value = next((_unfold(v) for name, v in headers if name.lower() == "received-spf"), None)
    if not value or not value.split():
        return []
    match = _RECEIVED_SPF_FROM.search(value)
    domain = _domain_of(match.group(1)) if match else _domain_of(envelope_sender)
    return [["spf", value.split()[0].lower(), domain]]


def _provider_fields(esp_name: str, esp_event, message: Message, envelope_sender: str) -> list[Verdict]:
    """Read the verdicts a provider sends beside the message rather than inside it."""
    verdicts = []
    if esp_name == "SendGrid" and hasattr(esp_event, "POST"):
        spf = (esp_event.POST.get("SPF") or "").strip().lower()
        if spf and envelope_sender:
            verdicts.append(["spf", spf.split()[0], _domain_of(envelope_sender)])
        for domain, result in _SENDGRID_DKIM.findall(esp_event.POST.get("dkim") or ""):
            verdicts.append(["dkim", result.lower(), domain.lower()])
    elif esp_name == "Amazon SES" and isinstance(esp_event, dict):
        status = str((esp_event.get("receipt") or {}).get("spfVerdict", {}).get("status", "")).lower()
        if status in ("pass", "fail") and envelope_sender:
            verdicts.append(["spf", status, _domain_of(envelope_sender)])
    elif esp_name == "Mailgun":
        spf = next((str(v) for name, v in message.raw_items() if name.lower() == "x-mailgun-spf"), "")
        if spf.strip() and envelope_sender:
            verdicts.append(["spf", spf.split()[0].lower(), _domain_of(envelope_sender)])
    return verdicts


def _unfold(value: str) -> str:
    return re.sub(r"\r?\n[ \t]*", " ", value).strip()
