"""English dates as this service writes them: day before month, 24-hour clock (Tue 1 Dec 2026, 14:05)."""

DATE_FORMAT = "D j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "D j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "F Y"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
FIRST_DAY_OF_WEEK = 1
