"""Who a request comes from: guests, accounts, tokens, passwords, and what a player chose
(preferences).
"""
