"""Account actions, one function each: accounts.py (sign up, verify), tokens.py, passwords.py, time_zones.py,
bot_accounts.py (marking an account a bot account)."""
