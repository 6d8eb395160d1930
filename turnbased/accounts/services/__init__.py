"""Account actions, one function each: accounts.py (sign up, verify), tokens.py, passwords.py."""
