"""Account pages: entrance.py (log in, sign up), profile.py (settings, absences), tokens.py (API tokens).

The other account pages (verification, password change and reset, addresses, sessions) are allauth's.
"""
