"""The house bots (the hall's own AI players): levels, worker processes, hints. Here "bot" means
the house AI only; bot accounts are `botapi`.
"""
