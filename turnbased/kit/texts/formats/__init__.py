"""Dates and numbers in each language's own forms (``settings.FORMAT_MODULE_PATH``), in the reader's time zone.

Templates and code name a format (``|date:"SHORT_DATE_FORMAT"``, ``formats.date_format(value,
"DATETIME_FORMAT")``), never a pattern of their own, so each language writes dates as its readers do:
Hungarian 2026. 12. 01., German 01.12.2026, English 1 Dec 2026. What each name is for:

- ``DATE_FORMAT``: a day with its weekday (an absence's last day);
- ``SHORT_DATE_FORMAT``: a day in a table row;
- ``DATETIME_FORMAT`` / ``SHORT_DATETIME_FORMAT``: a moment, long and in a row;
- ``MONTH_DAY_FORMAT``: a day of this year (away until 3 Dec);
- ``YEAR_MONTH_FORMAT``: a month (member since);
- ``TIME_FORMAT``: a time of day.
"""
