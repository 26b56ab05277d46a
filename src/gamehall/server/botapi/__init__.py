"""The bot API's feature: bot accounts (external programs), API tokens' scopes, challenges, each
player's event channel.
"""
