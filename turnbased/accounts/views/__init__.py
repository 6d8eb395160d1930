"""Account pages: entrance.py (log in, sign up), settings.py (settings, absences), tokens.py (API tokens).

The other account pages (verification, password change and reset, addresses, sessions) are allauth's.
"""
