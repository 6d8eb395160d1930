"""Account actions, one function each: accounts.py (sign up, verify), tokens.py, passwords.py, languages.py,
time_zones.py (the account half of choosing a zone; the whole action, deadlines too, is turnbased.clocks.time_zone_choice),
signup_networks.py (the network an account signed up from, for the ratings).

Becoming a bot account depends on the tables an account has sat at: turnbased.play.services.bot_accounts."""
