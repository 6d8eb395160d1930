"""German dates: day, month and year with dots (01.12.2026, Di., 1. Dezember 2026), decimal comma."""

DATE_FORMAT = "D., j. F Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "j. F Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
MONTH_DAY_FORMAT = "j. F"
YEAR_MONTH_FORMAT = "F Y"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
FIRST_DAY_OF_WEEK = 1
