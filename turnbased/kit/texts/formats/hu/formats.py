"""Hungarian dates: year first, with dots and spaces (2026. 12. 01., 2026. december 1., kedd), decimal comma."""

DATE_FORMAT = "Y. F j., l"
SHORT_DATE_FORMAT = "Y. m. d."
DATETIME_FORMAT = "Y. F j. H:i"
SHORT_DATETIME_FORMAT = "Y. m. d. H:i"
MONTH_DAY_FORMAT = "F j."
YEAR_MONTH_FORMAT = "Y. F"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
FIRST_DAY_OF_WEEK = 1
